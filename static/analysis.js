// Slowfuse Analysis Board: an overlay over the game page where the logged-in user moves pieces
// freely from the position shown, by the variant's rules (the server's legal moves of each
// position), with variations, take-back and the FEN of the position. One tree per user and game,
// from the game's start, saved as you go to /games/{id}/analysis.json (PGN with variations) and
// read by its owner only.
(function () {
  "use strict";

  var panel = document.getElementById("panel-analysis");
  var openButton = document.getElementById("analysis-open");
  var overlay = document.getElementById("analysis-overlay");
  if (!panel || !openButton || !overlay || !window.fetch) return;

  var gameId = panel.dataset.game;
  var variant = panel.dataset.variant;
  var csrf = panel.dataset.csrf;
  var mainBoard = document.getElementById("board");
  var boardEl = document.getElementById("analysis-board");
  var movesEl = document.getElementById("analysis-moves");
  var fenField = document.getElementById("analysis-fen");
  var statusEl = document.getElementById("analysis-status");
  var chooser = document.getElementById("analysis-promotion");
  var pockets = {
    top: document.getElementById("analysis-pocket-top"),
    bottom: document.getElementById("analysis-pocket-bottom")
  };
  var buttons = {
    close: document.getElementById("analysis-close"),
    start: document.getElementById("analysis-start"),
    back: document.getElementById("analysis-back"),
    forward: document.getElementById("analysis-forward"),
    end: document.getElementById("analysis-end"),
    flip: document.getElementById("analysis-flip"),
    takeBack: document.getElementById("analysis-takeback")
  };

  var WORDS = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };
  var FILES = "abcdefgh";

  var nodes = null;      // [{ parent, uci, san, fen, comment, nags, children }]; 0 = the start
  var gameMoves = [];    // the game's own moves: [{ uci, san, fen }]
  var current = 0;
  var orientation = "white";
  var loading = null;
  var legalCache = {};   // FEN → promise of the legal moves there
  var selected = null;   // a square name, or "P@" for a pocket piece picked
  var press = null;      // { name, x, y } while a pointer is down on a piece
  var ghost = null;
  var saving = false, dirty = false;
  var opener = null;
  var focusName = null;  // the square that keeps the keyboard focus across redraws

  openButton.hidden = false;

  // ---------- reading a FEN ----------
  function placementOf(fen) {
    var board = fen.split(" ")[0];
    var cut = board.indexOf("[");
    return cut >= 0 ? board.substring(0, cut) : board;
  }

  function piecesOf(fen) {
    var pieces = {};
    var rows = placementOf(fen).split("/").slice(0, 8);
    rows.forEach(function (row, i) {
      var file = 0;
      for (var c = 0; c < row.length; c++) {
        var ch = row.charAt(c);
        if (ch === "~") continue;
        if (ch >= "1" && ch <= "8") { file += parseInt(ch, 10); continue; }
        pieces[FILES.charAt(file) + (8 - i)] = (ch === ch.toUpperCase() ? "w" : "b") + ch.toUpperCase();
        file += 1;
      }
    });
    return pieces;
  }

  // Crazyhouse pockets: "[QNPp]" after the placement, or a ninth rank.
  function pocketsOf(fen) {
    var board = fen.split(" ")[0];
    var letters = null;
    var open = board.indexOf("[");
    if (open >= 0) letters = board.substring(open + 1, board.indexOf("]", open));
    else if (board.split("/").length === 9) letters = board.split("/")[8];
    if (letters === null) return null;
    var out = { w: {}, b: {} };
    letters.split("").forEach(function (ch) {
      if (!WORDS[ch.toUpperCase()]) return;
      var side = ch === ch.toUpperCase() ? "w" : "b";
      out[side][ch.toUpperCase()] = (out[side][ch.toUpperCase()] || 0) + 1;
    });
    return out;
  }

  function turnOf(fen) { return fen.split(" ")[1] === "b" ? "b" : "w"; }
  function numberOf(fen) { return parseInt(fen.split(" ")[5], 10) || 1; }

  // ---------- the tree ----------
  function child(parent, uci) {
    var found = null;
    nodes[parent].children.forEach(function (c) { if (nodes[c].uci === uci) found = c; });
    return found;
  }

  function addNode(parent, move, first) {
    var existing = child(parent, move.uci);
    if (existing !== null) return existing;
    nodes.push({ parent: parent, uci: move.uci, san: move.san, fen: move.fen, comment: "", nags: [], children: [] });
    var index = nodes.length - 1;
    if (first) nodes[parent].children.unshift(index); else nodes[parent].children.push(index);
    return index;
  }

  // The game's own moves up to `ply` as the tree's main line (added where missing).
  function followGame(ply) {
    var at = 0;
    for (var i = 0; i < ply && i < gameMoves.length; i++) at = addNode(at, gameMoves[i], true);
    return at;
  }

  function load() {
    if (!loading) {
      loading = fetch("/games/" + gameId + "/analysis.json", { credentials: "same-origin" })
        .then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) throw new Error(body.error || "HTTP " + r.status);
            return body;
          });
        })
        .then(function (data) {
          nodes = data.nodes.map(function (n) {
            return { parent: n.parent, uci: n.uci, san: n.san, fen: n.fen, comment: n.comment || "", nags: n.nags || [], children: [] };
          });
          data.nodes.forEach(function (n, i) { nodes[i].children = (n.children || []).slice(); });
          gameMoves = data.game;
        });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }

  // The tree as PGN movetext with variations, as the server reads it.
  function movetext() {
    var tokens = [];
    function comment(i) {
      var text = (nodes[i].comment || "").replace(/}/g, ")").replace(/\s+/g, " ").trim();
      if (!text) return false;
      tokens.push("{ " + text + " }");
      return true;
    }
    function move(i, renumber) {
      var before = nodes[nodes[i].parent].fen;
      var n = numberOf(before);
      if (turnOf(before) === "w") tokens.push(n + ". " + nodes[i].san);
      else tokens.push(renumber ? n + "... " + nodes[i].san : nodes[i].san);
      nodes[i].nags.forEach(function (g) { tokens.push("$" + g); });
      return comment(i);
    }
    function line(at, renumber) {
      while (nodes[at].children.length) {
        var kids = nodes[at].children;
        renumber = move(kids[0], renumber);
        for (var k = 1; k < kids.length; k++) {
          tokens.push("(");
          line2(kids[k]);
          tokens.push(")");
          renumber = true;
        }
        at = kids[0];
      }
    }
    function line2(start) {
      var again = move(start, true);
      line(start, again);
    }
    var opening = comment(0);
    line(0, opening);
    tokens.push("*");
    return tokens.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")");
  }

  function isEmpty() { return nodes[0].children.length === 0 && !nodes[0].comment; }

  // ---------- saving as you go ----------
  function setStatus(text, failed) {
    statusEl.textContent = text;
    statusEl.classList.toggle("failed", !!failed);
  }

  function save() {
    if (saving) { dirty = true; return; }
    saving = true;
    dirty = false;
    setStatus("Saving…");
    var body = JSON.stringify({ pgn: isEmpty() ? "" : movetext() });
    fetch("/games/" + gameId + "/analysis.json", {
      method: "PUT",
      credentials: "same-origin",
      keepalive: body.length < 60000,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: body
    }).then(function (r) {
      if (r.ok) { setStatus("Saved"); return; }
      return r.json().then(function (b) { throw new Error(b.error || "HTTP " + r.status); });
    }).catch(function (err) {
      setStatus("Not saved: " + err.message, true);
    }).then(function () {
      saving = false;
      if (dirty) save();
    });
  }

  // ---------- legal moves of a position (the server's rules) ----------
  function legalMoves(fen) {
    if (!legalCache[fen]) {
      legalCache[fen] = fetch("/api/v1/positions/moves", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ variant: variant, fen: fen })
      }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      }).then(function (data) { return data.moves; });
      legalCache[fen].catch(function () { delete legalCache[fen]; });
    }
    return legalCache[fen];
  }

  // ---------- drawing ----------
  function pieceBase() { return (mainBoard && mainBoard.dataset.pieceBase) || "/static/pieces/"; }

  function pieceImage(code) {
    var img = document.createElement("img");
    img.className = "piece";
    img.src = pieceBase() + code + ".svg";
    img.alt = (code.charAt(0) === "w" ? "white " : "black ") + WORDS[code.charAt(1)];
    img.dataset.piece = code;
    img.draggable = false;
    return img;
  }

  function squareNames() {
    var names = [];
    for (var r = 0; r < 8; r++) {
      for (var f = 0; f < 8; f++) {
        names.push(orientation === "white" ? FILES.charAt(f) + (8 - r) : FILES.charAt(7 - f) + (r + 1));
      }
    }
    return names;
  }

  function lastSquares(node) {
    var uci = nodes[node].uci;
    if (!uci) return [];
    if (uci.indexOf("@") === 1) return [uci.substr(2, 2)];
    return [uci.substr(0, 2), uci.substr(2, 2)];
  }

  var laidOut = null; // the orientation the squares are laid out for

  function coordinate(kind, text) {
    var c = document.createElement("span");
    c.className = "coord " + kind;
    c.setAttribute("aria-hidden", "true"); // the square's name says it
    c.dataset.coord = text;
    return c;
  }

  // Lays the 64 squares out once per orientation; each redraw then changes only what differs,
  // so a square keeps its element (and the keyboard focus, and a drag under way).
  function layOut() {
    var hadFocus = boardEl.contains(document.activeElement);
    boardEl.textContent = "";
    var row = null;
    squareNames().forEach(function (name, i) {
      // The board is an ARIA grid of eight rows of eight cells.
      if (i % 8 === 0) {
        row = document.createElement("div");
        row.className = "board-row";
        row.setAttribute("role", "row");
        boardEl.appendChild(row);
      }
      var file = FILES.indexOf(name.charAt(0));
      var rank = parseInt(name.charAt(1), 10);
      var sq = document.createElement("div");
      sq.className = "sq " + ((file + rank) % 2 === 0 ? "light" : "dark");
      sq.dataset.sq = name;
      sq.setAttribute("role", "gridcell");
      sq.tabIndex = name === focusName || (!focusName && i === 0) ? 0 : -1;
      // Coordinates as on the game's board: ranks on the left edge, files along the bottom.
      if (!mainBoard || mainBoard.dataset.coordinates !== "false") {
        if (i % 8 === 0) sq.appendChild(coordinate("rank", name.charAt(1)));
        if (i >= 56) sq.appendChild(coordinate("file", name.charAt(0)));
      }
      row.appendChild(sq);
    });
    laidOut = orientation;
    var focused = hadFocus && focusName && boardEl.querySelector('[data-sq="' + focusName + '"]');
    if (focused) focused.focus();
  }

  function drawBoard() {
    var fen = nodes[current].fen;
    var pieces = piecesOf(fen);
    var last = lastSquares(current);
    if (mainBoard) boardEl.dataset.theme = mainBoard.dataset.theme || "green";
    boardEl.dataset.turn = turnOf(fen) === "w" ? "white" : "black";
    if (laidOut !== orientation) layOut();
    Array.prototype.forEach.call(boardEl.querySelectorAll("[data-sq]"), function (sq) {
      var name = sq.dataset.sq;
      sq.classList.toggle("last", last.indexOf(name) >= 0);
      sq.classList.toggle("selected", selected === name);
      sq.classList.remove("legal");
      var code = pieces[name] || "";
      var img = sq.querySelector("img");
      if ((img ? img.dataset.piece : "") !== code) {
        if (img) img.remove();
        if (code) sq.appendChild(pieceImage(code));
      } else if (img) {
        img.classList.remove("dragging");
      }
      sq.setAttribute("aria-label", name + ", " + (code ? (code.charAt(0) === "w" ? "white " : "black ") + WORDS[code.charAt(1)] : "empty"));
    });
    drawPockets(fen);
  }

  function drawPockets(fen) {
    var held = pocketsOf(fen);
    [["top", orientation === "white" ? "b" : "w"], ["bottom", orientation === "white" ? "w" : "b"]].forEach(function (pair) {
      var row = pockets[pair[0]];
      if (!row) return;
      row.textContent = "";
      row.hidden = !held;
      if (!held) return;
      var side = pair[1];
      ["Q", "R", "B", "N", "P"].forEach(function (letter) {
        var count = held[side][letter] || 0;
        if (!count) return;
        var button = document.createElement("button");
        button.type = "button";
        button.className = "pocket-piece";
        button.dataset.drop = side + letter;
        button.setAttribute("aria-label", (side === "w" ? "white " : "black ") + WORDS[letter] + " in hand, " + count);
        if (selected === letter + "@" && turnOf(fen) === side) button.classList.add("selected");
        button.appendChild(pieceImage(side + letter));
        if (count > 1) {
          var n = document.createElement("span");
          n.className = "pocket-count";
          n.textContent = String(count);
          button.appendChild(n);
        }
        row.appendChild(button);
      });
    });
  }

  function moveButton(i, text) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "an-move";
    b.dataset.node = String(i);
    b.textContent = text;
    if (i === current) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    return b;
  }

  function drawMoves() {
    movesEl.textContent = "";
    var out = movesEl;
    function commentOf(i, into) {
      if (!nodes[i].comment) return false;
      var c = document.createElement("span");
      c.className = "an-comment";
      c.textContent = nodes[i].comment;
      into.appendChild(c);
      into.appendChild(document.createTextNode(" "));
      return true;
    }
    function move(i, renumber, into) {
      var before = nodes[nodes[i].parent].fen;
      var n = numberOf(before);
      var text = turnOf(before) === "w" ? n + ". " + nodes[i].san : (renumber ? n + "… " + nodes[i].san : nodes[i].san);
      into.appendChild(moveButton(i, text));
      into.appendChild(document.createTextNode(" "));
      return commentOf(i, into);
    }
    function line(at, renumber, into) {
      while (nodes[at].children.length) {
        var kids = nodes[at].children;
        renumber = move(kids[0], renumber, into);
        for (var k = 1; k < kids.length; k++) {
          var v = document.createElement("span");
          v.className = "an-variation";
          var again = move(kids[k], true, v);
          line(kids[k], again, v);
          into.appendChild(v);
          renumber = true;
        }
        at = kids[0];
      }
    }
    var opening = commentOf(0, out);
    line(0, opening, out);
    if (!nodes[0].children.length) {
      var hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = "Move a piece to start your analysis.";
      out.appendChild(hint);
    }
    var now = movesEl.querySelector(".an-move.current");
    if (now && now.scrollIntoView) now.scrollIntoView({ block: "nearest" });
  }

  function render() {
    drawBoard();
    drawMoves();
    fenField.value = nodes[current].fen;
    buttons.start.disabled = buttons.back.disabled = buttons.takeBack.disabled = current === 0;
    buttons.forward.disabled = buttons.end.disabled = nodes[current].children.length === 0;
  }

  function go(node) {
    current = node;
    selected = null;
    chooser.hidden = true;
    render();
  }

  function mainEnd(node) {
    while (nodes[node].children.length) node = nodes[node].children[0];
    return node;
  }

  // ---------- moving ----------
  function play(move) {
    var existing = child(current, move.uci);
    current = addNode(current, move, false);
    selected = null;
    render();
    if (existing === null) save();
  }

  function choosePromotion(options) {
    chooser.textContent = "";
    options.forEach(function (m) {
      var role = m.uci.charAt(4).toUpperCase();
      var b = document.createElement("button");
      b.type = "button";
      b.className = "btn btn-small";
      b.appendChild(pieceImage(turnOf(nodes[current].fen) + role));
      b.setAttribute("aria-label", "Promote to " + WORDS[role]);
      b.addEventListener("click", function () { chooser.hidden = true; play(m); });
      chooser.appendChild(b);
    });
    chooser.hidden = false;
    chooser.querySelector("button").focus();
  }

  // Tries the move from `from` (a square, or "Q@" for a piece in hand) to `to`.
  function attempt(from, to) {
    var fen = nodes[current].fen;
    var at = current;
    return legalMoves(fen).then(function (moves) {
      if (at !== current) return;
      var options = moves.filter(function (m) { return m.uci.substr(0, from.length) === from && m.uci.substr(from.length, 2) === to; });
      if (!options.length && from.indexOf("@") < 0) {
        // The king onto its own rook castles, as on the game's board.
        var pieces = piecesOf(fen);
        var mover = pieces[from], onto = pieces[to];
        if (mover && onto && mover.charAt(1) === "K" && onto === mover.charAt(0) + "R") {
          var kingSide = FILES.indexOf(to.charAt(0)) > FILES.indexOf(from.charAt(0));
          options = moves.filter(function (m) {
            return m.uci.substr(0, 2) === from && /^O-O(-O)?/.test(m.san) && (m.san.indexOf("O-O-O") === 0) !== kingSide;
          });
        }
      }
      if (!options.length) {
        setStatus(from.indexOf("@") >= 0 ? "That piece cannot be dropped there." : "That move is not legal here.", true);
        selected = null;
        render();
        return;
      }
      if (options.length > 1) { choosePromotion(options); return; }
      play(options[0]);
    }, function () {
      setStatus("The legal moves could not be fetched: try again.", true);
    });
  }

  function mine(name) {
    var code = piecesOf(nodes[current].fen)[name];
    return !!code && code.charAt(0) === turnOf(nodes[current].fen);
  }

  function squareUnder(x, y) {
    var el = document.elementFromPoint(x, y);
    var sq = el && el.closest && el.closest("[data-sq]");
    return sq && boardEl.contains(sq) ? sq.dataset.sq : null;
  }

  function pick(name) {
    selected = name;
    render();
    legalMoves(nodes[current].fen).then(function (moves) {
      if (selected !== name) return;
      moves.forEach(function (m) {
        if (m.uci.substr(0, name.length) !== name) return;
        var sq = boardEl.querySelector('[data-sq="' + m.uci.substr(name.length, 2) + '"]');
        if (sq) sq.classList.add("legal");
      });
    });
  }

  boardEl.addEventListener("pointerdown", function (e) {
    var sq = e.target.closest("[data-sq]");
    if (!sq || e.button !== 0) return;
    var name = sq.dataset.sq;
    if (selected && selected !== name && !mine(name)) {
      e.preventDefault();
      attempt(selected, name);
      return;
    }
    if (!mine(name)) { if (selected) { selected = null; render(); } return; }
    e.preventDefault();
    press = { name: name, x: e.clientX, y: e.clientY, was: selected === name };
    if (!press.was) pick(name);
  });

  document.addEventListener("pointermove", function (e) {
    if (!press) return;
    if (!ghost && Math.abs(e.clientX - press.x) + Math.abs(e.clientY - press.y) < 6) return;
    if (!ghost) {
      var sq = boardEl.querySelector('[data-sq="' + press.name + '"]');
      var img = sq && sq.querySelector("img");
      if (!img) return;
      var size = sq.getBoundingClientRect().width;
      ghost = img.cloneNode(true);
      ghost.className = "drag-ghost";
      ghost.style.width = ghost.style.height = size + "px";
      document.body.appendChild(ghost);
      img.classList.add("dragging");
    }
    var half = parseFloat(ghost.style.width) / 2;
    ghost.style.left = (e.clientX - half) + "px";
    ghost.style.top = (e.clientY - half) + "px";
  });

  document.addEventListener("pointerup", function (e) {
    if (!press) return;
    var from = press.name;
    var dragged = !!ghost;
    var was = press.was;
    press = null;
    if (ghost) { ghost.remove(); ghost = null; }
    var to = squareUnder(e.clientX, e.clientY);
    if (dragged && to && to !== from) { attempt(from, to); return; }
    if (dragged) { render(); return; }
    if (was) { selected = null; render(); }
  });

  // Keys on a square: the arrows move between squares, Enter picks a piece, then its target.
  boardEl.addEventListener("keydown", function (e) {
    var sq = e.target.closest && e.target.closest("[data-sq]");
    if (!sq || e.ctrlKey || e.metaKey || e.altKey) return;
    var all = Array.prototype.slice.call(boardEl.querySelectorAll("[data-sq]"));
    var at = all.indexOf(sq);
    var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -8, ArrowDown: 8 }[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation();
      var to = at + step;
      if (to < 0 || to >= 64 || (Math.abs(step) === 1 && Math.floor(to / 8) !== Math.floor(at / 8))) return;
      sq.tabIndex = -1;
      all[to].tabIndex = 0;
      focusName = all[to].dataset.sq;
      all[to].focus();
      return;
    }
    if (e.key !== "Enter") return;
    e.preventDefault();
    var name = sq.dataset.sq;
    focusName = name;
    if (selected && selected !== name && !mine(name)) attempt(selected, name);
    else if (mine(name)) pick(name);
  });


  overlay.addEventListener("click", function (e) {
    var drop = e.target.closest(".pocket-piece[data-drop]");
    if (drop && drop.dataset.drop.charAt(0) === turnOf(nodes[current].fen)) {
      pick(drop.dataset.drop.charAt(1) + "@");
      return;
    }
    var move = e.target.closest(".an-move");
    if (move) go(parseInt(move.dataset.node, 10));
  });

  // ---------- the toolbar and keys ----------
  buttons.start.addEventListener("click", function () { go(0); });
  buttons.back.addEventListener("click", function () { if (current) go(nodes[current].parent); });
  buttons.forward.addEventListener("click", function () { if (nodes[current].children.length) go(nodes[current].children[0]); });
  buttons.end.addEventListener("click", function () { go(mainEnd(current)); });
  buttons.flip.addEventListener("click", function () {
    orientation = orientation === "white" ? "black" : "white";
    render();
  });
  buttons.takeBack.addEventListener("click", function () {
    if (!current) return;
    var parent = nodes[current].parent;
    nodes[parent].children = nodes[parent].children.filter(function (c) { return c !== current; });
    go(parent);
    save();
  });

  overlay.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { e.preventDefault(); close(); return; }
    var t = e.target;
    if (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
    var handled = true;
    if (e.key === "ArrowLeft") buttons.back.click();
    else if (e.key === "ArrowRight") buttons.forward.click();
    else if (e.key === "Home") buttons.start.click();
    else if (e.key === "End") buttons.end.click();
    else if (e.key === "f") buttons.flip.click();
    else handled = false;
    if (handled) e.preventDefault();
  });

  // ---------- opening and closing ----------
  function shownPly() {
    var toolbar = document.getElementById("nav-toolbar");
    return toolbar ? parseInt(toolbar.dataset.viewPly, 10) || 0 : 0;
  }

  // The page behind the open board: out of reach of the keyboard and screen readers (inert).
  function behind() {
    return Array.prototype.filter.call(
      document.querySelectorAll(".site-header, .site-footer, main > *"),
      function (e) { return e !== overlay; });
  }

  function open() {
    opener = document.activeElement;
    orientation = mainBoard && mainBoard.dataset.orientation === "black" ? "black" : "white";
    overlay.hidden = false;
    behind().forEach(function (e) { e.inert = true; });
    document.body.classList.add("analysis-open");
    setStatus("Loading your analysis…");
    load().then(function () {
      current = followGame(shownPly());
      setStatus(isEmpty() ? "Only you can see this analysis. It is saved as you go." : "Saved");
      render();
      buttons.close.focus();
    }, function (err) {
      setStatus("Your analysis could not be loaded: " + err.message, true);
    });
  }

  function close() {
    behind().forEach(function (e) { e.inert = false; });
    overlay.hidden = true;
    document.body.classList.remove("analysis-open");
    press = null;
    if (opener && opener.focus) opener.focus();
  }

  openButton.addEventListener("click", open);
  buttons.close.addEventListener("click", close);
})();
