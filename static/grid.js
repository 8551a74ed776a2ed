// Slowfuse boards whose squares the keyboard reads but does not play (the bughouse boards and
// a minesweeper board drawn apart from the game board): each board is one stop of the Tab key, and the arrow keys move
// between its squares as they are drawn, as on the game's board. Without JavaScript the squares
// are read in order.
(function () {
  "use strict";

  document.querySelectorAll(".match-grid[role=grid], .mines-grid[role=grid]:not(#board)").forEach(function (grid) {
    var cells = Array.prototype.slice.call(grid.querySelectorAll("div.sq[role=gridcell]"));
    // The minesweeper setup's squares are the checkboxes of a form, each a stop of its own.
    if (cells.length !== 64) return;
    cells.forEach(function (cell, i) { cell.tabIndex = i === 0 ? 0 : -1; });
    grid.addEventListener("keydown", function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      var at = cells.indexOf(e.target);
      if (at < 0) return;
      var to = {
        ArrowLeft: at % 8 ? at - 1 : at,
        ArrowRight: at % 8 < 7 ? at + 1 : at,
        ArrowUp: at >= 8 ? at - 8 : at,
        ArrowDown: at < 56 ? at + 8 : at
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      cells[at].tabIndex = -1;
      cells[to].tabIndex = 0;
      cells[to].focus();
    });
  });
})();
