// The inspection form on a phone: "Now" buttons for the visit's times, and signature pads that
// turn a finger's drawing into a PNG data URL in a hidden field. Each change fires a "change"
// event, so htmx saves the draft as the inspector goes. No library, nothing fetched.
(function () {
  "use strict";

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function localNow() {
    var now = new Date();
    now.setMinutes(now.getMinutes() - now.getTimezoneOffset());
    return now.toISOString().slice(0, 16);
  }

  document.querySelectorAll("[data-now-for]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.dataset.nowFor);
      input.value = localNow();
      changed(input);
    });
  });

  document.querySelectorAll("canvas[data-signature-for]").forEach(function (canvas) {
    var field = document.getElementById(canvas.dataset.signatureFor);
    var context = canvas.getContext("2d");
    var drawing = false;
    var drawn = false;
    context.lineWidth = 3;
    context.lineCap = "round";
    context.strokeStyle = "#111";

    function point(event) {
      var box = canvas.getBoundingClientRect();
      return {
        x: (event.clientX - box.left) * (canvas.width / box.width),
        y: (event.clientY - box.top) * (canvas.height / box.height),
      };
    }

    canvas.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      canvas.setPointerCapture(event.pointerId);
      drawing = true;
      var p = point(event);
      context.beginPath();
      context.moveTo(p.x, p.y);
      context.lineTo(p.x + 0.1, p.y + 0.1);
      context.stroke();
      drawn = true;
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drawing) return;
      event.preventDefault();
      var p = point(event);
      context.lineTo(p.x, p.y);
      context.stroke();
    });
    function finish() {
      if (!drawing) return;
      drawing = false;
      if (drawn) {
        field.value = canvas.toDataURL("image/png");
        changed(field);
      }
    }
    canvas.addEventListener("pointerup", finish);
    canvas.addEventListener("pointercancel", finish);
    canvas.addEventListener("pointerleave", finish);

    var clear = document.querySelector('[data-clear-for="' + canvas.dataset.signatureFor + '"]');
    if (clear) {
      clear.addEventListener("click", function () {
        context.clearRect(0, 0, canvas.width, canvas.height);
        field.value = "";
        drawn = false;
      });
    }
  });
})();
