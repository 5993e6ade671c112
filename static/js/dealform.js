// Deal forms of the score sheet: show only the fields the chosen contract needs, and make the
// common deal a few taps.
// Progressive enhancement: without this file every field shows (radios, selects) and the
// server ignores the ones the contract does not use. With it:
// - Belgian whist: one button per contract and bid ("E8", "S6", "PM", "Passe") picks both in
//   one tap; the last one used at this table is outlined (localStorage, per poule);
// - the tricks are a row of buttons 0 … 13 (one tap) instead of a list;
// - impossible choices are disabled before anything is sent: the mort (the form's data-mort),
//   a second declarer of a solo, a third of an emballage.
// The contract → side and bids map comes from the form itself (data-contracts), so a club's
// own point table needs no change here.
(function () {
  "use strict";

  // How many declarers a side takes (the engine says it again if this is bypassed).
  var MAX_DECLARERS = { solo: 1, pair: 2, each: 4 };

  function show(element, visible) {
    if (element) element.hidden = !visible;
  }

  // A part the chosen contract does not use is not only hidden: its fields are disabled, so
  // they are neither sent nor kept in the draft (a misère's tricks left over when the scorer
  // picks a solo). The server ignores them all the same.
  function use(element, used) {
    if (!element) return;
    element.querySelectorAll("input, select, textarea").forEach(function (field) {
      field.disabled = !used;
    });
  }

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function pouleOf(root) {
    var sheet = root.closest("[data-poule]");
    return sheet ? sheet.dataset.poule : "";
  }

  function chipButton(label, value) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.dataset.value = value;
    button.setAttribute("aria-pressed", "false");
    return button;
  }

  // A select shown as a grid of buttons: a tap sets the select (which is still what is sent).
  // The server draws the buttons right after their select (templates/games/dealform/
  // _chips.html: the form does not move when this runs); built here only if missing.
  function chipSelect(select, className) {
    if (!select || select.dataset.chipsReady) return;
    select.dataset.chipsReady = "1";
    var drawn = select.nextElementSibling;
    var grid = drawn && drawn.classList.contains("chip-grid") ? drawn : document.createElement("div");
    if (grid !== drawn) {
      grid.className = "chip-grid " + (className || "");
      grid.setAttribute("role", "group");
      Array.prototype.forEach.call(select.options, function (option) {
        if (option.value === "") return;
        grid.appendChild(chipButton(option.textContent, option.value));
      });
    }
    function reflect() {
      grid.querySelectorAll("button").forEach(function (button) {
        var option = select.querySelector('option[value="' + button.dataset.value + '"]');
        button.hidden = Boolean(option && option.disabled);
        button.setAttribute("aria-pressed", String(button.dataset.value === select.value));
      });
    }
    grid.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      select.value = button.dataset.value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    select.addEventListener("change", reflect);
    select.hidden = true;
    if (grid !== drawn) select.insertAdjacentElement("afterend", grid);
    reflect();
    return reflect;
  }

  function belgianWhist(root) {
    var contracts = JSON.parse(root.dataset.contracts || "{}");
    var part = function (name) { return root.querySelector('[data-part="' + name + '"]'); };
    var bid = part("bid") && part("bid").querySelector("select");
    var tricks = part("tricks") && part("tricks").querySelector("select");
    var contractSet = root.querySelector(".choices-contract");
    var form = root.closest("form");
    var memoryKey = "sheet-last-call-" + pouleOf(root);

    // One button per contract and bid: drawn by the server (_choices.html), else built here.
    var calls = root.querySelector(".chip-grid.calls");
    var drawn = Boolean(calls);
    if (!drawn) {
      calls = document.createElement("div");
      calls.className = "chip-grid calls";
      calls.setAttribute("role", "group");
      calls.setAttribute("aria-label", contractSet ? contractSet.querySelector("legend").textContent : "");
    }
    if (!drawn) Object.keys(contracts).forEach(function (code) {
      var info = contracts[code];
      var bids = info.bids || [];
      if (bids.length > 1) {
        bids.forEach(function (value) {
          calls.appendChild(chipButton(info.short + value, code + ":" + value));
        });
      } else {
        var label = info.short + (info.bidInName && bids.length === 1 ? bids[0] : "");
        calls.appendChild(chipButton(label, code + ":" + (bids.length === 1 ? bids[0] : "")));
      }
    });
    if (contractSet) {
      contractSet.querySelector(".choice-grid").hidden = true;
      if (!drawn) contractSet.appendChild(calls);
    }
    var store = storage();
    var last = store && store.getItem(memoryKey);
    calls.querySelectorAll("button").forEach(function (button) {
      if (button.dataset.value === last) button.classList.add("last");
    });
    calls.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var parts = button.dataset.value.split(":");
      var radio = root.querySelector('input[name$="contract"][value="' + parts[0] + '"]');
      if (radio) radio.checked = true;
      if (bid) bid.value = parts[1];
      if (store) {
        try { store.setItem(memoryKey, button.dataset.value); } catch (e) { /* full: no memory */ }
      }
      root.dispatchEvent(new Event("change", { bubbles: true }));
    });
    var reflectTricks = chipSelect(tricks, "tricks");
    // Only the ticked declarers' rows show: the help that says so is not needed.
    var eachHelp = part("each-tricks") && part("each-tricks").querySelector(".dealform-help");
    show(eachHelp, false);
    // A misère's tricks: a row of buttons per declarer, as for the other contracts.
    var reflectEach = [];
    root.querySelectorAll('[data-part="each-tricks"] select[data-chips]').forEach(function (select) {
      var reflect = chipSelect(select, "tricks");
      if (reflect) reflectEach.push(reflect);
    });

    function declarerBoxes() {
      return root.querySelectorAll('input[name$="declarers"]');
    }

    function update() {
      var checked = root.querySelector('input[name$="contract"]:checked');
      var info = checked ? contracts[checked.value] : null;
      var bids = info ? info.bids.map(String) : [];
      if (bid) {
        Array.prototype.forEach.call(bid.options, function (option) {
          var allowed = option.value === "" || bids.indexOf(option.value) !== -1;
          option.hidden = !allowed;
          option.disabled = !allowed;
        });
        if (bids.length === 1) bid.value = bids[0];
        else if (bids.indexOf(bid.value) === -1) bid.value = "";
      }
      var current = checked ? checked.value + ":" + (bid ? bid.value : "") : "";
      calls.querySelectorAll("button").forEach(function (button) {
        button.setAttribute("aria-pressed", String(button.dataset.value === current));
      });
      // The bid is part of the buttons above; its list shows only when a bid is missing.
      show(part("bid"), !contractSet && bids.length > 1);
      show(part("declarers"), Boolean(info && info.side));
      show(part("tricks"), Boolean(info && (info.side === "pair" || info.side === "solo")));
      show(part("each-tricks"), Boolean(info && info.side === "each"));
      // Impossible declarers are disabled: the mort, and any beyond the side's number. The
      // mort is read each time: sheet.js moves him on while deals wait on the phone. A seat
      // already ticked stays ticked (and can be unticked): nothing the scorer chose is
      // dropped without a word; the server refuses the mort declaring, in words.
      var mortSeat = form ? form.dataset.mort : undefined;
      var limit = info && info.side ? MAX_DECLARERS[info.side] : 0;
      var boxes = declarerBoxes();
      var ticked = 0;
      boxes.forEach(function (box) {
        if (box.checked) ticked += 1;
      });
      boxes.forEach(function (box) {
        var mort = box.value === mortSeat;
        box.disabled = !box.checked && (mort || ticked >= limit);
        box.closest("label").title = mort ? (form.dataset.mortLabel || "") : "";
      });
      if (!(info && info.side)) use(part("declarers"), false);
      use(part("tricks"), Boolean(info && (info.side === "pair" || info.side === "solo")));
      root.querySelectorAll("[data-seat]").forEach(function (cell) {
        var box = root.querySelector('input[name$="declarers"][value="' + cell.dataset.seat + '"]');
        var used = Boolean(info && info.side === "each" && box && box.checked);
        show(cell, Boolean(box && box.checked));
        use(cell, used);
      });
      if (reflectTricks) reflectTricks();
      reflectEach.forEach(function (reflect) { reflect(); });
    }

    root.addEventListener("change", update);
    update();
  }

  function whist(root) {
    chipSelect(root.querySelector("select[data-chips]"), "tricks");
    var notPlayed = root.querySelector('input[name$="not_played"]');
    if (!notPlayed) return;
    function update() {
      root.querySelectorAll('[data-part="played"]').forEach(function (element) {
        show(element, !notPlayed.checked);
      });
    }
    notPlayed.addEventListener("change", update);
    update();
  }

  var setups = { belgian_whist: belgianWhist, whist: whist };

  function setup(scope) {
    scope.querySelectorAll("[data-dealform]").forEach(function (root) {
      if (root.dataset.dealformReady) return;
      root.dataset.dealformReady = "1";
      var run = setups[root.dataset.dealform];
      if (run) run(root);
      // What the server hid as this script would (css/dealform.css): the hidden attribute,
      // set above, says it from now on.
      root.querySelectorAll(".js-hidden").forEach(function (element) {
        element.classList.remove("js-hidden");
      });
    });
  }

  // For sheet.js: a form reset or refilled in place shows its buttons as they now stand.
  window.dealformRefresh = function (scope) {
    scope.querySelectorAll("[data-dealform]").forEach(function (root) {
      root.dispatchEvent(new Event("change", { bubbles: true }));
      root.querySelectorAll("select[data-chips-ready]").forEach(function (select) {
        select.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  };

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  // A form swapped in (the score sheet's answers) is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
  document.addEventListener("sheet:swapped", function (event) { setup(event.target); });
})();
