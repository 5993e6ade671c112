// The score sheet at the table, on bad Wi-Fi: no deal is lost, nothing is recorded twice,
// every failure is said in words with what to do.
//
// Each deal the scorer saves goes into a queue kept on the phone (localStorage, per poule)
// with a key of the phone's making and the number of deals the sheet showed; the queue is sent
// in order, one deal at a time. The server records a key once (a deal sent again after a lost
// answer is answered as the first time) and answers 409 when the sheet changed meanwhile
// (another phone). Offline, the deals wait ("n donnes en attente") and leave when the
// connection returns. The sheet answers with its new state (X-Sheet-Result: recorded,
// replayed, refused, conflict, undone), swapped in place.
//
// Without this file the form posts and the page comes back: everything still works, a deal at
// a time. The sheet has data-own-errors: the site's generic htmx error handler leaves it to us.
(function () {
  "use strict";

  var TEXT = {};
  var sending = false;
  var paused = false;
  var retryTimer = null;

  function say(key, values) {
    var text = TEXT[key] || key;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }

  function sheet() { return document.getElementById("sheet"); }
  function sheetForm() { return document.querySelector("form[data-sheet-form]"); }

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function queueKey() { return "sheet-queue-" + (sheet() ? sheet().dataset.poule : ""); }
  function draftKey() { return "sheet-draft-" + (sheet() ? sheet().dataset.poule : ""); }

  // The deal being typed, kept on the phone: a phone that sleeps or reloads the page finds
  // the choices where it left them.
  function keepDraft() {
    var store = storage();
    if (!store) return;
    try { store.setItem(draftKey(), JSON.stringify(draftOf(sheetForm()))); } catch (e) { /* full */ }
  }

  function forgetDraft() {
    var store = storage();
    if (store) store.removeItem(draftKey());
  }

  function savedDraft() {
    var store = storage();
    try { return store ? JSON.parse(store.getItem(draftKey()) || "[]") : []; } catch (e) { return []; }
  }

  function readQueue() {
    var store = storage();
    if (!store) return memoryQueue;
    try { return JSON.parse(store.getItem(queueKey()) || "[]"); } catch (e) { return []; }
  }

  // Without localStorage (private mode), the queue lives as long as the page.
  var memoryQueue = [];

  function writeQueue(queue) {
    var store = storage();
    memoryQueue = queue;
    if (!store) return;
    try {
      if (queue.length) store.setItem(queueKey(), JSON.stringify(queue));
      else store.removeItem(queueKey());
    } catch (e) { /* storage full: the queue still lives in this page */ }
  }

  // A version 4 UUID; crypto.randomUUID needs HTTPS, a club's Wi-Fi may serve plain HTTP.
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // -- what the scorer sees

  function showQueue() {
    var badge = sheet() && sheet().querySelector("[data-queue]");
    if (!badge) return;
    var queue = readQueue();
    if (!queue.length) {
      badge.hidden = true;
      badge.textContent = "";
      return;
    }
    var labels = queue.map(function (entry) { return entry.label; }).filter(Boolean).join(", ");
    badge.hidden = false;
    badge.textContent = say(queue.length === 1 ? "waiting_one" : "waiting_many", { n: queue.length }) +
      (labels ? " : " + labels : "") +
      (navigator.onLine === false ? " — " + say("offline_short") : "");
  }

  function showAlert(message, actions) {
    var box = sheet() && sheet().querySelector("[data-alert]");
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
    if (actions && actions.length) {
      var row = document.createElement("div");
      row.className = "actions";
      actions.forEach(function (action) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = action.label;
        button.addEventListener("click", action.run);
        row.appendChild(button);
      });
      box.appendChild(row);
    }
  }

  function busy(on) {
    var root = sheet();
    if (!root) return;
    if (on) root.setAttribute("aria-busy", "true");
    else root.removeAttribute("aria-busy");
    var save = root.querySelector("[data-save]");
    if (save) {
      if (!save.dataset.idle) save.dataset.idle = save.textContent;
      save.textContent = on ? say("saving") : save.dataset.idle;
    }
  }

  // -- the form's state, kept across a swap when the scorer is already typing the next deal

  function draftOf(form) {
    var pairs = [];
    if (!form) return pairs;
    new FormData(form).forEach(function (value, name) {
      if (["csrfmiddlewaretoken", "client_key", "seen"].indexOf(name) === -1 && value !== "") pairs.push([name, value]);
    });
    return pairs;
  }

  function restoreDraft(form, pairs) {
    if (!form || !pairs.length) return;
    pairs.forEach(function (pair) {
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") {
          if (field.value === pair[1]) field.checked = true;
        } else if (field.type !== "hidden" || pair[0] === "dealer") {
          field.value = pair[1];
        }
      });
    });
    if (window.dealformRefresh) window.dealformRefresh(form);
  }

  function swap(html, keepDraft) {
    var old = sheet();
    if (!old) return;
    var draft = keepDraft ? draftOf(sheetForm()) : [];
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var fresh = holder.content.querySelector("#sheet");
    if (!fresh) return;
    old.replaceWith(fresh);
    fresh.dispatchEvent(new CustomEvent("sheet:swapped", { bubbles: true }));
    setup();
    restoreDraft(sheetForm(), draft);
    showQueue();
  }

  // -- sending

  function label(form) {
    var pressed = form.querySelector(".calls button[aria-pressed=true]");
    var tricks = form.querySelector(".tricks button[aria-pressed=true]");
    if (!pressed) return "";
    return pressed.textContent + (tricks ? " " + tricks.textContent : "");
  }

  function enqueue(form) {
    var root = sheet();
    var queue = readQueue();
    var body = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (["csrfmiddlewaretoken", "client_key", "seen"].indexOf(name) === -1) body.append(name, value);
    });
    queue.push({
      key: newKey(),
      seen: Number(root.dataset.deals) + queue.length,
      body: body.toString(),
      label: label(form),
      url: form.action,
    });
    writeQueue(queue);
  }

  function pause(message, actions) {
    paused = true;
    sending = false;
    busy(false);
    showQueue();
    showAlert(message, actions);
  }

  function retryActions() {
    return [
      { label: say("retry"), run: function () { paused = false; showAlert(""); flush(); } },
      {
        label: say("discard"),
        run: function () {
          var queue = readQueue();
          queue.shift();
          writeQueue(queue);
          paused = false;
          showAlert("");
          showQueue();
          flush();
        },
      },
    ];
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setTimeout(function () { retryTimer = null; flush(); }, 10000);
  }

  function flush() {
    var queue = readQueue();
    showQueue();
    if (sending || paused || !queue.length) return;
    if (navigator.onLine === false) {
      showAlert(say("offline"));
      return;
    }
    var entry = queue[0];
    var body = new URLSearchParams(entry.body);
    body.set("client_key", entry.key);
    if (entry.seen !== null && entry.seen !== undefined) body.set("seen", String(entry.seen));
    sending = true;
    busy(true);
    fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
    }).then(function (response) {
      return response.text().then(function (text) { return { response: response, text: text }; });
    }).then(function (answer) {
      var response = answer.response;
      var result = response.headers.get("X-Sheet-Result");
      sending = false;
      busy(false);
      if (response.redirected && /\/login\//.test(response.url)) {
        pause(say("login"), retryActions());
        return;
      }
      if (response.ok && (result === "recorded" || result === "replayed")) {
        var rest = readQueue();
        rest.shift();
        writeQueue(rest);
        // Another deal is being typed meanwhile: it survives the new sheet.
        swap(answer.text, true);
        showAlert("");
        flush();
        return;
      }
      if ((response.ok && result === "refused") || response.status === 409) {
        // The deal is back in the form (with the engine's words, or the sheet as it is now):
        // it leaves the queue; the scorer checks it and saves it again.
        var left = readQueue();
        left.shift();
        writeQueue(left);
        swap(answer.text, false);
        if (left.length) pause(say("paused_after_refusal", { n: left.length }), [
          { label: say("send_rest"), run: function () { paused = false; showAlert(""); flush(); } },
        ]);
        return;
      }
      if (response.status === 403) return pause(say("forbidden"), retryActions());
      if (response.status === 404) return pause(say("gone"), retryActions());
      pause(say("server", { status: response.status }), retryActions());
    }).catch(function () {
      // No answer at all: offline, or the Wi-Fi dropped. The deal waits; it may have been
      // recorded already (answer lost): its key makes the next try harmless.
      sending = false;
      busy(false);
      showQueue();
      showAlert(say("offline"));
      scheduleRetry();
    });
  }

  function onSubmit(event) {
    var form = event.target;
    if (form.matches("form[data-sheet-form]")) {
      event.preventDefault();
      if (!form.querySelector('input[name$="contract"]:checked') && form.querySelector('input[name$="contract"]')) {
        showAlert(say("choose_contract"));
        return;
      }
      enqueue(form);
      forgetDraft();
      // The deal is in the queue (shown in the badge until it is recorded): the form is
      // cleared for the next one, which survives the answer's new sheet.
      form.reset();
      if (window.dealformRefresh) window.dealformRefresh(form);
      showAlert("");
      flush();
      return;
    }
    if (form.matches("form[data-undo]")) {
      event.preventDefault();
      if (readQueue().length) {
        showAlert(say("undo_waiting"));
        return;
      }
      busy(true);
      fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(new FormData(form)),
        credentials: "same-origin",
        headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
      }).then(function (response) {
        return response.text().then(function (text) {
          busy(false);
          if (response.ok || response.status === 409) swap(text, false);
          else if (response.status === 403) showAlert(say("forbidden_undo"));
          else showAlert(say("server_undo", { status: response.status }));
        });
      }).catch(function () {
        busy(false);
        showAlert(say("offline_undo"));
      });
    }
  }

  function setup() {
    var root = sheet();
    if (!root) return;
    var form = sheetForm();
    // The browser's own checks would stop a form whose radios are hidden behind buttons; the
    // server checks everything and says it in words.
    if (form) form.noValidate = true;
    showQueue();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var messages = document.getElementById("sheet-messages");
    if (messages) TEXT = JSON.parse(messages.textContent);
    if (!sheet()) return;
    document.addEventListener("submit", onSubmit);
    ["change", "input"].forEach(function (type) {
      document.addEventListener(type, function (event) {
        if (event.target.closest && event.target.closest("form[data-sheet-form]")) keepDraft();
      });
    });
    window.addEventListener("online", function () { paused = false; showAlert(""); flush(); });
    window.addEventListener("offline", function () { showQueue(); });
    setup();
    // A deal left half-typed (not one the page brings back with its errors).
    var form = sheetForm();
    if (form && !form.querySelector(".dealform-errors, .errorlist") && !document.querySelector(".last-deal.undone")) {
      restoreDraft(form, savedDraft());
    }
    // Deals left waiting by an earlier visit (the phone slept, the page was reloaded).
    flush();
  });
})();
