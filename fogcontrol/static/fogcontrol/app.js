/* The page behaviour that used to be inline handlers, moved here so the Content-Security-Policy
   can refuse every inline script (docs/security.md, "Headers"). Plain DOM, no framework; every
   page works without it (a form without its question still submits). */
"use strict";

// <form data-confirm="Question?">: ask before the form is sent; "Cancel" keeps the page as it is.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  var question = form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

// <input data-select-on-focus>: a value to copy (a new API token) is selected when focused.
document.addEventListener("focusin", function (event) {
  var field = event.target;
  if (field instanceof HTMLInputElement && field.hasAttribute("data-select-on-focus")) {
    field.select();
  }
});
