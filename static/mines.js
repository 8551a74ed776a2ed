// Slowfuse minesweeper: the setup's counter follows the ticked squares, and no more squares
// than the player's bombs can be ticked (without JavaScript the form works the same; the server
// refuses too many). While navigate.js moves through the game, each position's marks are drawn
// from its ply: the reader's own bombs, the spent ones and the counts told to the reader by
// then, as the server sent them for this reader only.
(function () {
  "use strict";

  var form = document.getElementById("bombs-form");
  var counter = document.getElementById("bomb-counter");
  if (form && counter) {
    var max = parseInt(counter.dataset.max, 10) || 8;
    var update = function (event) {
      var ticked = form.querySelectorAll(".bomb-box:checked").length;
      if (ticked > max && event && event.target) {
        event.target.checked = false;
        ticked = max;
      }
      counter.textContent = ticked + " of " + max;
    };
    form.querySelectorAll(".bomb-box").forEach(function (box) { box.addEventListener("change", update); });
    update(null);
  }

  var board = document.querySelector(".board.mines-grid#board");
  if (!board) return;

  function mark(sq, cls, on) {
    var el = sq.querySelector("." + cls);
    if (on && !el) {
      el = document.createElement("span");
      el.className = cls;
      el.setAttribute("aria-hidden", "true");
      sq.appendChild(el);
    } else if (!on && el) {
      el.remove();
    }
    return el;
  }

  board.addEventListener("board:shown", function (e) {
    var mines = e.detail && e.detail.position && e.detail.position.mines;
    if (!mines) return;
    var counts = {};
    mines.counts.forEach(function (c) { counts[c[0]] = c[1]; });
    board.querySelectorAll(".sq").forEach(function (sq) {
      var name = sq.dataset.square;
      var bomb = mines.bombs.indexOf(name) >= 0;
      var spent = mines.spent.indexOf(name) >= 0;
      var count = counts[name];
      sq.classList.toggle("own-bomb", bomb);
      sq.classList.toggle("blast-spent", spent);
      mark(sq, "bomb-mark", bomb);
      var badge = mark(sq, "mine-count", count !== undefined);
      if (badge) badge.textContent = String(count);
      var piece = sq.querySelector(".piece");
      sq.setAttribute("aria-label", name + ", " + (piece ? piece.alt : "empty") +
        (bomb ? ", bomb" : "") + (spent ? ", spent bomb" : "") +
        (count !== undefined ? ", " + count + " bombs around" : ""));
    });
  });
})();
