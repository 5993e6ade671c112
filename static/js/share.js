// The secretary's words to share (the calendar's replies page): a button copies the message
// of the text area it names ([data-copy]). The CSP refuses inline handlers, hence this file.
// The buttons come hidden and are shown here: without JavaScript the text area is still
// there to select and copy by hand, and no button does nothing.
(function () {
  "use strict";

  function copied(button) {
    var label = button.textContent;
    button.textContent = button.dataset.copied;
    window.setTimeout(function () { button.textContent = label; }, 2000);
  }

  function copy(button) {
    var area = document.getElementById(button.dataset.copy);
    if (!area) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(area.value).then(function () { copied(button); });
      return;
    }
    // Plain HTTP (a club's own machine): the older way, from the selected text.
    area.focus();
    area.select();
    if (document.execCommand("copy")) copied(button);
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { copy(button); });
  });
})();
