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

// <input type="checkbox" data-check-all="NAME">, a work queue's "every row on this page": ticks or
// clears every checkbox NAME of its form. Hidden until this script runs (without it, tick each row,
// or the "all matching these filters" box, which works without a script). Delegated, so it keeps
// working after an htmx swap of the list.
document.addEventListener("change", function (event) {
  var box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.hasAttribute("data-check-all")) return;
  var form = box.form || box.closest("form");
  if (!form) return;
  form.querySelectorAll('input[type="checkbox"][name="' + box.getAttribute("data-check-all") + '"]').forEach(function (row) {
    row.checked = box.checked;
  });
});
document.addEventListener("htmx:load", showCheckAll);
document.addEventListener("DOMContentLoaded", showCheckAll);
function showCheckAll() {
  document.querySelectorAll("[data-check-all-wrapper]").forEach(function (wrapper) { wrapper.hidden = false; });
}

// A 409 answers an htmx request with what the page must say (an autosave that came after the
// inspection was completed): htmx swaps it like a success instead of dropping it.
document.addEventListener("htmx:beforeSwap", function (event) {
  if (event.detail.xhr && event.detail.xhr.status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// <form data-autosave>: an autosaving form (hx-trigger on change) whose own submit completes it.
// Submitting cancels an autosave still waiting for its delay and waits for one already sent, so
// the save never races the submit (the inspection form's "Complete inspection").
(function () {
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.target.closest && event.target.closest("form[data-autosave]");
    if (form && form.hasAttribute("data-submitting")) event.preventDefault();
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-autosave")) return;
    form.setAttribute("data-submitting", "");
    if (form.hasAttribute("data-saved-before-submit") || !form.classList.contains("htmx-request")) return;
    event.preventDefault();
    form.addEventListener("htmx:afterRequest", function () {
      form.setAttribute("data-saved-before-submit", "");
      form.submit();  // the button has no name: nothing of the submitter is lost
    }, { once: true });
  });
})();
