// Slowfuse challenge form: only the fields that apply to the variant and the clock chosen are
// shown (minesweeper's bombs, bughouse's seats, the days or the Fischer preset). Without
// JavaScript every field shows, each group under its own heading, and the server reads only
// those that apply.
(function () {
  "use strict";

  var variant = document.getElementById("variant");
  var clock = document.getElementById("time_control");
  if (!variant || !clock) return;

  function fieldOf(id) {
    var input = document.getElementById(id);
    return input ? input.closest(".field") : null;
  }

  function show(element, on) {
    if (element) element.hidden = !on;
  }

  function update() {
    var kind = variant.value;
    show(document.getElementById("minesweeper-fields"), kind === "minesweeper");
    show(document.getElementById("bughouse-fields"), kind === "bughouse");
    // In bughouse the seat says the colour.
    show(fieldOf("color"), kind !== "bughouse");
    var timed = clock.value;
    show(fieldOf("days_per_move"), timed === "days");
    show(fieldOf("preset"), timed === "fischer");
    show(fieldOf("on_time"), timed !== "none");
  }

  variant.addEventListener("change", update);
  clock.addEventListener("change", update);
  update();
})();
