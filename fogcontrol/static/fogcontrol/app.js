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

// The main menu on a phone: folded behind the "Menu" button, which the page shows only when this
// script runs (without it the menu stays open). The button says whether the menu is open.
(function () {
  var toggle = document.querySelector(".menu-toggle");
  var menu = document.getElementById("main-menu");
  if (!toggle || !menu) return;
  toggle.hidden = false;
  document.documentElement.classList.add("menu-folds");
  toggle.addEventListener("click", function () {
    var open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("open", open);
  });
})();
