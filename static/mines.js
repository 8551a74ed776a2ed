// Slowfuse minesweeper setup: the counter follows the ticked squares, and no more squares than
// the player's bombs can be ticked. Without JavaScript the form works the same; the server
// refuses too many.
(function () {
  "use strict";
  var form = document.getElementById("bombs-form");
  var counter = document.getElementById("bomb-counter");
  if (!form || !counter) return;
  var max = parseInt(counter.dataset.max, 10) || 8;
  var boxes = form.querySelectorAll(".bomb-box");
  function update(event) {
    var ticked = form.querySelectorAll(".bomb-box:checked").length;
    if (ticked > max && event && event.target) {
      event.target.checked = false;
      ticked = max;
    }
    counter.textContent = ticked + " of " + max;
  }
  boxes.forEach(function (box) { box.addEventListener("change", update); });
  update(null);
})();
