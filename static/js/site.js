// Behaviour shared by every page, wired by data attributes: the Content-Security-Policy
// (script-src 'self') refuses inline event handlers such as onclick="…".
// - [data-print]: a button that prints the page. It comes hidden and is shown here, so a
//   browser without JavaScript shows no button that does nothing.
// - [data-autosubmit]: a field whose form is sent as soon as its value changes (the
//   language switch); the form keeps its own button for a browser without JavaScript.
// - #request-error: the banner where a failed htmx request is said in words.
// - #waiting-deals: the deals a score sheet left waiting on this phone, on every page.
// - The service worker (/sw.js): registered here; told when a sheet changed (its kept copy
//   follows) and when the member logs out (nobody's sheets stay); #offline-banner says a
//   page opened with no network.
// - A shared phone: the waiting deals are each login's (body[data-viewer], the stamp each
//   deal carries): another login's are neither named nor sent, only set aside; logging out
//   clears the leaving login's waiting deals (after asking, when some wait) and every
//   half-typed deal, once the next page shows the logout took place.
(function () {
  "use strict";

  function setup(scope) {
    scope.querySelectorAll("[data-print]").forEach(function (button) {
      if (button.dataset.printReady) return;
      button.dataset.printReady = "1";
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
    scope.querySelectorAll("[data-autosubmit]").forEach(function (field) {
      if (field.dataset.autosubmitReady) return;
      field.dataset.autosubmitReady = "1";
      field.addEventListener("change", function () {
        if (field.form.requestSubmit) field.form.requestSubmit();
        else field.form.submit();
      });
    });
  }

  // A failed htmx request is said in words, never silent: offline (sendError), refused
  // (403: a closed night …), gone (404), a server error (5xx). The message is the error
  // page's own when it sends one ([data-error-message]), else the banner's translated text
  // for that status. A part of a page that says its errors itself carries data-own-errors.
  function ownsErrors(event) {
    var element = event.detail && event.detail.elt;
    return Boolean(element && element.closest && element.closest("[data-own-errors]"));
  }

  function pageMessage(xhr) {
    if (!xhr || !xhr.responseText || !window.DOMParser) return "";
    try {
      var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var said = page.querySelector("[data-error-message]");
      return said ? said.textContent.trim() : "";
    } catch (error) {
      return "";
    }
  }

  function showRequestError(text) {
    var banner = document.getElementById("request-error");
    if (!banner) return;
    banner.querySelector("[data-request-error-text]").textContent = text;
    banner.hidden = false;
  }

  function statusMessage(banner, status) {
    if (status === 0) return banner.dataset.offline;
    if (status === 403) return banner.dataset.forbidden;
    if (status === 404) return banner.dataset.notFound;
    if (status >= 500) return banner.dataset.server;
    return banner.dataset.other;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var banner = document.getElementById("request-error");
    if (!banner || ownsErrors(event)) return;
    var xhr = event.detail.xhr;
    showRequestError(pageMessage(xhr) || statusMessage(banner, xhr ? xhr.status : 0));
  });
  document.addEventListener("htmx:sendError", function (event) {
    var banner = document.getElementById("request-error");
    if (!banner || ownsErrors(event)) return;
    showRequestError(banner.dataset.offline);
  });
  document.addEventListener("htmx:timeout", function (event) {
    var banner = document.getElementById("request-error");
    if (!banner || ownsErrors(event)) return;
    showRequestError(banner.dataset.offline);
  });
  // A request that succeeds again hides what the last failure said.
  document.addEventListener("htmx:afterRequest", function (event) {
    var banner = document.getElementById("request-error");
    if (banner && event.detail.successful && !ownsErrors(event)) banner.hidden = true;
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-request-error-close]")) return;
    document.getElementById("request-error").hidden = true;
  });

  function localStore() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function pageViewer() { return document.body.dataset.viewer || ""; }

  // Each table's waiting deals on this phone (localStorage "sheet-queue-<poule>", kept by
  // sheet.js), as {key, queue}: every login's.
  function waitingQueues(store) {
    var found = [];
    for (var index = 0; index < store.length; index += 1) {
      var key = store.key(index);
      if (!key || key.indexOf("sheet-queue-") !== 0) continue;
      var queue;
      try { queue = JSON.parse(store.getItem(key) || "[]"); } catch (error) { continue; }
      if (Array.isArray(queue)) found.push({ key: key, queue: queue });
    }
    return found;
  }

  // A deal queued by an older page names nobody: it is the current login's.
  function queuedBy(entry, viewer) { return !entry.viewer || entry.viewer === viewer; }

  // Deals a score sheet left waiting on this phone are named on every page, with a link to
  // their sheet, where they are sent: a scorer who moved on to another page does not forget
  // them. The sheet shows its own. Another login's are not named.
  function showWaitingDeals() {
    var box = document.getElementById("waiting-deals");
    var store = localStore();
    if (!box || !store) return;
    var here = document.getElementById("sheet");
    var own = here && here.dataset.poule ? "sheet-queue-" + here.dataset.poule : "";
    var links = [];
    var viewer = pageViewer();
    waitingQueues(store).forEach(function (table) {
      if (table.key === own) return;
      var queue = table.queue.filter(function (entry) { return queuedBy(entry, viewer); });
      if (!queue.length || !queue[0].url) return;
      var url;
      try { url = new URL(queue[0].url, window.location.href); } catch (error) { return; }
      if (url.origin !== window.location.origin) return;
      links.push({ href: url.pathname, text: (queue[0].where || url.pathname) + " (" + queue.length + ")" });
    });
    box.textContent = "";
    box.hidden = !links.length;
    if (!links.length) return;
    box.appendChild(document.createTextNode(box.dataset.label + " "));
    links.forEach(function (link, position) {
      if (position) box.appendChild(document.createTextNode(", "));
      var anchor = document.createElement("a");
      anchor.href = link.href;
      anchor.textContent = link.text;
      box.appendChild(anchor);
    });
  }

  window.addEventListener("storage", function (event) {
    if (event.key === null || event.key.indexOf("sheet-queue-") === 0) showWaitingDeals();
  });

  function worker() {
    return navigator.serviceWorker && navigator.serviceWorker.controller;
  }

  function offlineReady() {
    var banner = document.getElementById("offline-banner");
    function show() { if (banner) banner.hidden = navigator.onLine !== false; }
    show();
    window.addEventListener("offline", show);
    window.addEventListener("online", show);
    var script = document.body.dataset.serviceWorker;
    if (!script || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(script, { scope: "/" }).catch(function () {
      /* no worker (a private window, an old browser): the site works, only not offline */
    });
    // A sheet opened before the worker looked after the page (its first visit) is kept as
    // soon as it does, and again each time the sheet is opened online.
    keepSheet();
    navigator.serviceWorker.addEventListener("controllerchange", keepSheet);
    document.querySelectorAll("form[data-forget-sheets]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!leaving(form)) {
          event.preventDefault();
          return;
        }
        if (worker()) worker().postMessage({ type: "forget-sheets" });
      });
    });
  }

  // -- logging out on a shared phone

  var LEAVING = "sheet-forget";

  // The member logs out: his waiting deals are cleared, but only once the next page shows
  // another viewer (the logout went through: with no network it does not, and they stay).
  // Asked first when some wait: they are not recorded, and go with him.
  function leaving(form) {
    var store = localStore();
    var viewer = pageViewer();
    if (!store || !viewer) return true;
    var waiting = 0;
    waitingQueues(store).forEach(function (table) {
      waiting += table.queue.filter(function (entry) { return queuedBy(entry, viewer); }).length;
    });
    if (waiting && !window.confirm(form.dataset.forgetConfirm.split("{n}").join(String(waiting)))) return false;
    try { store.setItem(LEAVING, viewer); } catch (error) { /* full: nothing is cleared */ }
    return true;
  }

  function forgetWhoLeft() {
    var store = localStore();
    var left = store && store.getItem(LEAVING);
    if (!left || !pageViewer()) return;
    store.removeItem(LEAVING);
    if (left === pageViewer()) return;  // still signed in: the logout did not go through
    waitingQueues(store).forEach(function (table) {
      var kept = table.queue.filter(function (entry) { return entry.viewer && entry.viewer !== left; });
      if (kept.length) store.setItem(table.key, JSON.stringify(kept));
      else store.removeItem(table.key);
    });
    var drafts = [];
    for (var index = 0; index < store.length; index += 1) {
      if ((store.key(index) || "").indexOf("sheet-draft-") === 0) drafts.push(store.key(index));
    }
    drafts.forEach(function (key) { store.removeItem(key); });
  }

  function keepSheet() {
    if (worker() && navigator.onLine !== false && document.getElementById("sheet")) {
      worker().postMessage({ type: "sheet-changed", url: window.location.pathname });
    }
  }

  // The sheet was swapped in anew (a deal recorded, undone: static/js/sheet.js): its kept
  // copy follows.
  document.addEventListener("sheet:swapped", keepSheet);

  // On a phone the site's menu folds behind one button, on every page alike (site.css says
  // from which width): the page, the score sheet first, takes the screen. The page comes
  // folded; the button (a link to #site-nav without script) opens and closes it in place.
  function foldMenu() {
    var toggle = document.querySelector("[data-menu-toggle]");
    if (!toggle) return;
    var header = toggle.closest(".site-header");
    toggle.addEventListener("click", function (event) {
      event.preventDefault();
      var open = header.classList.toggle("menu-open");
      toggle.setAttribute("aria-expanded", String(open));
    });
    toggle.addEventListener("keydown", function (event) {
      if (event.key === " ") { event.preventDefault(); toggle.click(); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    forgetWhoLeft();
    foldMenu();
    setup(document);
    showWaitingDeals();
    offlineReady();
  });
  // Content swapped in by htmx is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
})();
