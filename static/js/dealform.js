// Deal forms of the score sheet: show only the fields the chosen contract needs.
// Progressive enhancement: without this file every field shows and the server ignores the
// ones the contract does not use. The contract → side and bids map comes from the form itself
// (data-contracts), so a club's own point table needs no change here.
(function () {
  "use strict";

  function show(element, visible) {
    if (element) element.hidden = !visible;
  }

  function belgianWhist(root) {
    var contracts = JSON.parse(root.dataset.contracts || "{}");
    var part = function (name) { return root.querySelector('[data-part="' + name + '"]'); };
    var bid = part("bid") && part("bid").querySelector("select");

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
      show(part("bid"), bids.length > 1);
      show(part("declarers"), Boolean(info && info.side));
      show(part("tricks"), Boolean(info && (info.side === "pair" || info.side === "solo")));
      show(part("each-tricks"), Boolean(info && info.side === "each"));
      root.querySelectorAll("[data-seat]").forEach(function (cell) {
        var box = root.querySelector('input[name$="declarers"][value="' + cell.dataset.seat + '"]');
        show(cell, Boolean(box && box.checked));
      });
    }

    root.addEventListener("change", update);
    update();
  }

  function whist(root) {
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
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  // A form swapped in by htmx (the score sheet's partials) is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
})();
