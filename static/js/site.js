// Behaviour shared by every page, wired by data attributes: the Content-Security-Policy
// (script-src 'self') refuses inline event handlers such as onclick="…".
// - [data-print]: a button that prints the page. It comes hidden and is shown here, so a
//   browser without JavaScript shows no button that does nothing.
// - [data-autosubmit]: a field whose form is sent as soon as its value changes (the
//   language switch); the form keeps its own button for a browser without JavaScript.
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

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  // Content swapped in by htmx is set up as it arrives.
  document.addEventListener("htmx:load", function (event) { setup(event.target); });
})();
