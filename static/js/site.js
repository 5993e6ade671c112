// Behaviour shared by every page, wired by data attributes: the Content-Security-Policy
// (script-src 'self') refuses inline event handlers such as onclick="…".
// - [data-print]: a button that prints the page. It comes hidden and is shown here, so a
//   browser without JavaScript shows no button that does nothing.
// - [data-autosubmit]: a field whose form is sent as soon as its value changes (the
//   language switch); the form keeps its own button for a browser without JavaScript.
// - #request-error: the banner where a failed htmx request is said in words.
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

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  // Content swapped in by htmx is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
})();
