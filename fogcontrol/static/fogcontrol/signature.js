// A signature box: drawing on the canvas fills the hidden field named by data-for with a PNG data
// URL (C4 rosters), which the server re-encodes before keeping it.
document.querySelectorAll("canvas.signature-pad").forEach(function (canvas) {
  var field = document.getElementById(canvas.dataset.for);
  var context = canvas.getContext("2d");
  var drawing = false;
  context.lineWidth = 3;
  context.lineCap = "round";
  function point(event) {
    var box = canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }
  canvas.addEventListener("pointerdown", function (event) {
    drawing = true;
    context.beginPath();
    context.moveTo.apply(context, point(event));
  });
  canvas.addEventListener("pointermove", function (event) {
    if (!drawing) return;
    context.lineTo.apply(context, point(event));
    context.stroke();
  });
  ["pointerup", "pointerleave"].forEach(function (name) {
    canvas.addEventListener(name, function () {
      if (drawing) field.value = canvas.toDataURL("image/png");
      drawing = false;
    });
  });
  var clear = document.querySelector('[data-clear-signature="' + canvas.dataset.for + '"]');
  if (clear) clear.addEventListener("click", function () {
    context.clearRect(0, 0, canvas.width, canvas.height);
    field.value = "";
  });
});
