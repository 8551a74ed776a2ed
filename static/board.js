// Slowfuse board: progressive enhancement for the server-rendered game page.
// Drag-and-drop or click-click moves fill #move-input with UCI and submit #action-form;
// any submit of #action-form shows a busy indicator and cannot be sent twice.
(function () {
  "use strict";

  var form = document.getElementById("action-form");
  if (!form) return;

  // ---------- submitting… indicator ----------
  function submitButtons() {
    return form.querySelectorAll('button:not([type]), button[type="submit"], input[type="submit"]');
  }

  form.addEventListener("submit", function (event) {
    if (form.classList.contains("busy")) {
      event.preventDefault();
      return;
    }
    form.classList.add("busy");
    // Disable after the browser has built the form data, so the clicked button's name/value is sent.
    setTimeout(function () {
      if (event.defaultPrevented) {
        form.classList.remove("busy");
        return;
      }
      submitButtons().forEach(function (b) { b.disabled = true; });
    }, 0);
  });

  // Coming back with the browser's Back button may restore a busy page from cache.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    form.classList.remove("busy");
    submitButtons().forEach(function (b) { b.disabled = false; });
  });

  // ---------- moving pieces ----------
  // The board of a player in the game; pieces move only while the last ply is shown
  // (navigate.js moves through the game without reloading and keeps data-movable true there).
  var board = document.querySelector('.board[data-can-move="true"]');
  var moveInput = document.getElementById("move-input");
  var actionSelect = document.getElementById("action-select");
  if (!board || !moveInput || !actionSelect) return;

  // The side whose pieces may be picked: the side to move, and in conditional mode
  // whichever side is to move after the moves already written into the move box.
  var side = board.dataset.turn === "black" ? "b" : "w";
  var myTurn = board.dataset.myTurn === "true";
  function conditionalMode() { return actionSelect.value === "conditional_move"; }
  var selected = null;   // .sq element holding the picked piece, or a .pocket-piece to drop
  var press = null;      // { sq, x, y, id, wasSelected } while a pointer is down on own piece
  var ghost = null;      // floating image while dragging
  var hover = null;      // .sq under the dragged piece
  var locked = false;    // a move was sent or the promotion chooser is open

  function isPocket(el) { return !!el && el.classList.contains("pocket-piece"); }
  function pieceOf(sq) {
    if (!sq) return null;
    return isPocket(sq) ? sq.querySelector("img") : sq.querySelector(".piece");
  }
  function codeOf(sq) {
    if (isPocket(sq)) return sq.dataset.piece || "";
    var p = pieceOf(sq);
    return p ? p.dataset.piece || "" : "";
  }
  function isMine(sq) { return codeOf(sq).charAt(0) === side; }
  function squareAt(x, y) {
    var el = document.elementFromPoint(x, y);
    var sq = el && el.closest(".sq");
    return sq && board.contains(sq) ? sq : null;
  }

  // The legal moves of the position (sent with the page when it is your move), e.g. "e2e4 P@e4".
  var legal = board.dataset.legal ? board.dataset.legal.split(" ") : null;

  // The squares the piece on (or in hand as) `from` may go to.
  function targetsOf(from) {
    if (!legal) return [];
    var prefix = isPocket(from) ? codeOf(from).charAt(1) + "@" : from.dataset.square;
    return legal
      .filter(function (uci) { return uci.indexOf(prefix) === 0; })
      .map(function (uci) { return uci.substr(prefix.length, 2); });
  }

  function isLegal(from, to) {
    return !legal || conditionalMode() || targetsOf(from).indexOf(to.dataset.square) >= 0;
  }

  function showTargets(from) {
    board.querySelectorAll(".sq.legal").forEach(function (sq) { sq.classList.remove("legal", "legal-capture"); });
    if (!from || conditionalMode()) return;
    targetsOf(from).forEach(function (name) {
      var sq = board.querySelector('.sq[data-square="' + name + '"]');
      if (!sq) return;
      sq.classList.add("legal");
      if (pieceOf(sq)) sq.classList.add("legal-capture");
    });
  }

  function select(sq) {
    if (selected) selected.classList.remove("selected");
    selected = sq;
    if (sq) sq.classList.add("selected");
    showTargets(sq);
  }

  function setHover(sq) {
    if (hover === sq) return;
    if (hover) hover.classList.remove("target");
    hover = sq;
    if (hover) hover.classList.add("target");
  }

  function endDrag() {
    if (ghost) ghost.remove();
    ghost = null;
    setHover(null);
    if (press) {
      var p = pieceOf(press.sq);
      if (p) p.classList.remove("dragging");
    }
    press = null;
  }

  function startDrag(e) {
    var p = pieceOf(press.sq);
    var size = board.querySelector(".sq").getBoundingClientRect().width;
    ghost = p.cloneNode(false);
    ghost.removeAttribute("data-piece");
    ghost.classList.add("drag-ghost");
    ghost.style.width = ghost.style.height = size + "px";
    document.body.appendChild(ghost);
    p.classList.add("dragging");
    moveGhost(e);
  }

  function moveGhost(e) {
    var size = parseFloat(ghost.style.width);
    ghost.style.left = e.clientX - size / 2 + "px";
    ghost.style.top = e.clientY - size / 2 + "px";
    var sq = squareAt(e.clientX, e.clientY);
    setHover(sq && sq !== press.sq ? sq : null);
  }

  function isPromotion(from, to) {
    if (isPocket(from) || codeOf(from).charAt(1) !== "P") return false;
    var rank = to.dataset.square.charAt(1);
    return (side === "w" && rank === "8") || (side === "b" && rank === "1");
  }

  function tryMove(from, to) {
    // A move the rules refuse is not sent: the piece goes back.
    if (!isLegal(from, to)) {
      select(null);
      return;
    }
    if (isPromotion(from, to)) {
      choosePromotion(from, to);
    } else {
      send(from, to, "");
    }
  }

  function send(from, to, promo) {
    // A drop from the pocket is written as the rules read it: N@f3, P@e4.
    var uci = isPocket(from)
      ? codeOf(from).charAt(1) + "@" + to.dataset.square
      : from.dataset.square + to.dataset.square + promo;
    if (conditionalMode()) {
      // Write the move into the lines being built; Continue saves them.
      select(null);
      moveInput.value = (moveInput.value.trim() + " " + uci).trim();
      var moved = pieceOf(from);
      var taken = pieceOf(to);
      if (moved) {
        if (taken) taken.remove();
        to.appendChild(moved);
      }
      side = side === "w" ? "b" : "w";
      return;
    }
    locked = true;
    select(null);
    moveInput.value = uci;
    actionSelect.value = "move";
    // Show the move at once while the server answers.
    var p = pieceOf(from);
    var old = pieceOf(to);
    if (isPocket(from)) {
      var dropped = document.createElement("img");
      dropped.className = "piece";
      dropped.src = p.getAttribute("src");
      dropped.alt = "";
      dropped.dataset.piece = codeOf(from);
      to.insertBefore(dropped, to.firstChild);
    } else if (p && !isMine(to)) {
      if (old) old.remove();
      to.appendChild(p);
    }
    var primary = form.querySelector('.btn-primary[type="submit"], button.btn-primary:not([type])');
    if (typeof form.requestSubmit === "function") {
      if (primary) form.requestSubmit(primary); else form.requestSubmit();
    } else {
      form.classList.add("busy");
      form.submit();
    }
  }

  function choosePromotion(from, to) {
    locked = true;
    var src = pieceOf(from).getAttribute("src");
    var chooser = document.createElement("div");
    chooser.className = "promo-chooser";
    chooser.setAttribute("role", "group");
    chooser.setAttribute("aria-label", "Promote to");
    var names = { q: "queen", r: "rook", b: "bishop", n: "knight" };
    ["q", "r", "b", "n"].forEach(function (letter) {
      var b = document.createElement("button");
      b.type = "button";
      b.title = names[letter];
      var img = document.createElement("img");
      img.src = src.replace(/[wb]P\.svg(\?.*)?$/, side + letter.toUpperCase() + ".svg");
      img.alt = names[letter];
      b.appendChild(img);
      b.addEventListener("click", function (ev) {
        ev.stopPropagation();
        close();
        send(from, to, letter);
      });
      chooser.appendChild(b);
    });
    function close() {
      chooser.remove();
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onOutside, true);
      locked = false;
    }
    function onKey(ev) { if (ev.key === "Escape") { close(); select(null); } }
    function onOutside(ev) {
      if (!chooser.contains(ev.target)) { ev.stopPropagation(); ev.preventDefault(); close(); select(null); }
    }
    board.appendChild(chooser);
    // Place the chooser over the target square, kept inside the board.
    var br = board.getBoundingClientRect();
    var tr = to.getBoundingClientRect();
    var left = Math.min(Math.max(0, tr.left - br.left), br.width - chooser.offsetWidth);
    var top = Math.min(Math.max(0, tr.top - br.top), br.height - chooser.offsetHeight);
    chooser.style.left = Math.max(0, left) + "px";
    chooser.style.top = Math.max(0, top) + "px";
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onOutside, true);
    chooser.querySelector("button").focus();
  }

  // The keyboard: Enter or Space on a square picks the piece there, or moves the picked piece
  // (or the piece in hand) to it; a second time on the same piece puts it down.
  board.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var sq = e.target.closest && e.target.closest(".sq");
    if (!sq || !board.contains(sq)) return;
    e.preventDefault();
    if (locked || board.dataset.movable !== "true") return;
    if (!myTurn && !conditionalMode()) return;
    if (isPocket(selected) && pieceOf(sq) && !isMine(sq)) select(null);
    else if (isMine(sq)) select(selected === sq ? null : sq);
    else if (selected) tryMove(selected, sq);
  });

  board.addEventListener("pointerdown", function (e) {
    if (locked || press || (e.pointerType === "mouse" && e.button !== 0)) return;
    if (board.dataset.movable !== "true") return;
    if (!myTurn && !conditionalMode()) return;
    var sq = e.target.closest(".sq");
    if (!sq || !board.contains(sq)) return;
    if (isPocket(selected) && pieceOf(sq) && !isMine(sq)) {
      // A piece in hand goes only onto an empty square.
      e.preventDefault();
      select(null);
    } else if (isMine(sq)) {
      e.preventDefault();
      press = { sq: sq, x: e.clientX, y: e.clientY, id: e.pointerId, wasSelected: selected === sq };
      select(sq);
      try { board.setPointerCapture(e.pointerId); } catch (err) { /* capture is optional */ }
    } else if (selected) {
      e.preventDefault();
      tryMove(selected, sq);
    }
  });

  function onPointerMove(e) {
    if (!press || e.pointerId !== press.id) return;
    if (!ghost) {
      if (Math.abs(e.clientX - press.x) + Math.abs(e.clientY - press.y) < 6) return;
      startDrag(e);
    }
    e.preventDefault();
    moveGhost(e);
  }

  function onPointerUp(e) {
    if (!press || e.pointerId !== press.id) return;
    var from = press.sq;
    if (ghost) {
      var to = squareAt(e.clientX, e.clientY);
      endDrag();
      // A king dropped on its own rook is castling (Chess960 style); other own squares cancel.
      var castle = to && codeOf(from).charAt(1) === "K" && codeOf(to) === side + "R";
      if (isPocket(from)) {
        if (to && !pieceOf(to)) tryMove(from, to);
      } else if (to && to !== from && (!isMine(to) || castle)) {
        tryMove(from, to);
      }
    } else {
      var wasSelected = press.wasSelected;
      endDrag();
      if (wasSelected) select(null); // second click on the same piece puts it down
    }
  }

  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);

  // ---------- pieces in hand (crazyhouse): dragged or clicked onto an empty square ----------
  document.querySelectorAll(".pocket-piece").forEach(function (piece) {
    piece.addEventListener("pointerdown", function (e) {
      if (locked || press || (e.pointerType === "mouse" && e.button !== 0)) return;
      if (board.dataset.movable !== "true" || !myTurn || conditionalMode()) return;
      if (codeOf(piece).charAt(0) !== side) return;
      e.preventDefault();
      press = { sq: piece, x: e.clientX, y: e.clientY, id: e.pointerId, wasSelected: selected === piece };
      select(piece);
      try { piece.setPointerCapture(e.pointerId); } catch (err) { /* capture is optional */ }
    });
    piece.addEventListener("pointermove", onPointerMove);
    piece.addEventListener("pointerup", onPointerUp);
    piece.addEventListener("pointercancel", endDrag);
    piece.addEventListener("dragstart", function (e) { e.preventDefault(); });
  });

  board.addEventListener("pointercancel", endDrag);
  board.addEventListener("board:shown", function () { endDrag(); select(null); });
  board.addEventListener("lostpointercapture", function (e) {
    if (press && ghost && e.pointerId === press.id) endDrag();
  });
  board.addEventListener("dragstart", function (e) { e.preventDefault(); });
})();
