// Slowfuse bughouse match page: on the player's own board, a piece or a piece in hand is moved
// by dragging it to a square, or by clicking it and then the square. The move is written into
// the board's move box in UCI (e2e4, P@d5; a pawn reaching the last rank takes the piece chosen
// beside the box) and the form is sent once, with a busy indicator. Without JavaScript the
// move box alone plays.
(function () {
  "use strict";

  var grid = document.querySelector('.match-grid[data-can-move="true"]');
  if (!grid) return;
  var letter = grid.dataset.board;
  var form = document.getElementById("move-form-" + letter);
  var input = document.getElementById("move-input-" + letter);
  var action = document.getElementById("match-action");
  var promotion = document.getElementById("promotion-" + letter);
  if (!form || !input) return;
  var section = grid.closest(".match-board");
  var side = grid.dataset.turn === "black" ? "b" : "w";
  var selected = null; // a .sq holding the picked piece, or a .pocket-piece
  var press = null;    // { el, x, y, id } while a pointer is down on a piece of the side to move
  var ghost = null;
  var sent = false;

  form.addEventListener("submit", function (event) {
    if (sent) { event.preventDefault(); return; }
    sent = true;
    form.classList.add("busy");
    setTimeout(function () {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }, 0);
  });

  function isPocket(el) { return !!el && el.classList.contains("pocket-piece"); }
  function pieceCode(el) {
    if (isPocket(el)) return el.dataset.piece;
    var img = el && el.querySelector(".piece");
    return img ? img.dataset.piece : null;
  }
  function ownPiece(el) {
    var code = pieceCode(el);
    return !!code && code.charAt(0) === side;
  }
  function pickable(target) {
    var pocket = target.closest(".pocket-piece");
    if (pocket && section.contains(pocket) && ownPiece(pocket)) return pocket;
    var sq = target.closest(".sq");
    if (sq && grid.contains(sq) && ownPiece(sq)) return sq;
    return null;
  }
  function select(el) {
    if (selected) selected.classList.remove("selected");
    selected = el;
    if (el) el.classList.add("selected");
  }

  function play(from, sq) {
    var to = sq.dataset.square;
    var code = pieceCode(from);
    var uci;
    if (isPocket(from)) {
      uci = code.charAt(1).toUpperCase() + "@" + to;
    } else {
      var start = from.dataset.square;
      if (start === to) { select(null); return; }
      uci = start + to;
      var lastRank = side === "w" ? "8" : "1";
      if (code.charAt(1) === "P" && to.charAt(1) === lastRank) {
        uci += promotion ? promotion.value : "q";
      }
    }
    select(null);
    input.value = uci;
    if (action) action.value = "move";
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function squareAt(x, y) {
    var el = document.elementFromPoint(x, y);
    var sq = el && el.closest(".sq");
    return sq && grid.contains(sq) ? sq : null;
  }

  function endDrag() {
    if (ghost) { ghost.remove(); ghost = null; }
    press = null;
  }

  section.addEventListener("pointerdown", function (event) {
    if (sent || event.button !== 0) return;
    var el = pickable(event.target);
    if (!el) return;
    event.preventDefault();
    press = { el: el, x: event.clientX, y: event.clientY, id: event.pointerId };
  });

  document.addEventListener("pointermove", function (event) {
    if (!press || event.pointerId !== press.id) return;
    if (!ghost) {
      if (Math.abs(event.clientX - press.x) + Math.abs(event.clientY - press.y) < 6) return;
      var img = isPocket(press.el) ? press.el.querySelector("img") : press.el.querySelector(".piece");
      var size = grid.getBoundingClientRect().width / 8;
      ghost = img.cloneNode(true);
      ghost.className = "drag-ghost";
      ghost.style.width = size + "px";
      ghost.style.height = size + "px";
      document.body.appendChild(ghost);
    }
    var half = parseFloat(ghost.style.width) / 2;
    ghost.style.left = (event.clientX - half) + "px";
    ghost.style.top = (event.clientY - half) + "px";
  });

  document.addEventListener("pointerup", function (event) {
    if (!press || event.pointerId !== press.id) return;
    var from = press.el;
    var dragged = !!ghost;
    endDrag();
    if (dragged) {
      var sq = squareAt(event.clientX, event.clientY);
      if (sq) play(from, sq); else select(null);
      return;
    }
    // A click: pick the piece, or put it down again.
    select(selected === from ? null : from);
  });

  document.addEventListener("pointercancel", endDrag);

  grid.addEventListener("click", function (event) {
    if (!selected || sent) return;
    var sq = event.target.closest(".sq");
    if (!sq || sq === selected || pickable(event.target)) return;
    play(selected, sq);
  });
})();
