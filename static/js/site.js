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

  // Deals a score sheet left waiting on this phone (localStorage "sheet-queue-<poule>", kept
  // by sheet.js) are named on every page, with a link to their sheet, where they are sent:
  // a scorer who moved on to another page does not forget them. The sheet shows its own.
  function showWaitingDeals() {
    var box = document.getElementById("waiting-deals");
    var store = null;
    try { store = window.localStorage; } catch (error) { store = null; }
    if (!box || !store) return;
    var here = document.getElementById("sheet");
    var own = here && here.dataset.poule ? "sheet-queue-" + here.dataset.poule : "";
    var links = [];
    for (var index = 0; index < store.length; index += 1) {
      var key = store.key(index);
      if (!key || key.indexOf("sheet-queue-") !== 0 || key === own) continue;
      var queue;
      try { queue = JSON.parse(store.getItem(key) || "[]"); } catch (error) { continue; }
      if (!Array.isArray(queue) || !queue.length || !queue[0].url) continue;
      var url;
      try { url = new URL(queue[0].url, window.location.href); } catch (error) { continue; }
      if (url.origin !== window.location.origin) continue;
      links.push({ href: url.pathname, text: (queue[0].where || url.pathname) + " (" + queue.length + ")" });
    }
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
      form.addEventListener("submit", function () {
        if (worker()) worker().postMessage({ type: "forget-sheets" });
      });
    });
  }

  function keepSheet() {
    if (worker() && navigator.onLine !== false && document.getElementById("sheet")) {
      worker().postMessage({ type: "sheet-changed", url: window.location.pathname });
    }
  }

  // The sheet was swapped in anew (a deal recorded, undone: static/js/sheet.js): its kept
  // copy follows.
  document.addEventListener("sheet:swapped", keepSheet);

  // On the score sheet the site's menu folds behind one button: the sheet takes the screen.
  function foldMenu() {
    var toggle = document.querySelector("[data-menu-toggle]");
    if (!toggle || !document.body.classList.contains("sheet-page")) return;
    var header = toggle.closest(".site-header");
    header.classList.add("menu-folds");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = header.classList.toggle("menu-open");
      toggle.setAttribute("aria-expanded", String(open));
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    foldMenu();
    setup(document);
    showWaitingDeals();
    offlineReady();
  });
  // Content swapped in by htmx is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
})();
