// Slowfuse navigation: moving through a game without reloading the page (the toolbar, the move
// list, the keys), flipping the board, animating to the end, and the board settings kept in the
// browser. The positions come from /games/{id}/plies.json, fetched once on first use; without
// JavaScript (or if that fetch fails) the toolbar's links load ?ply=N as before.
(function () {
  "use strict";

  var toolbar = document.getElementById("nav-toolbar");
  var board = document.getElementById("board");
  if (!toolbar || !board) return;

  var gameId = board.dataset.game;
  var lastPly = parseInt(toolbar.dataset.lastPly, 10) || 0;
  var shown = parseInt(toolbar.dataset.viewPly, 10) || 0;
  var canMove = board.dataset.canMove === "true";
  var flipped = new URLSearchParams(location.search).get("flip") === "1";
  var plies = null;     // the positions, once fetched
  var loading = null;   // the fetch in flight
  var timer = null;     // the animation's interval
  var WORDS = { P: "pawn", N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };

  var buttons = {
    settings: document.getElementById("nav-settings"),
    start: document.getElementById("nav-start"),
    prev: document.getElementById("nav-prev"),
    next: document.getElementById("nav-next"),
    last: document.getElementById("nav-last"),
    flip: document.getElementById("nav-flip"),
    animate: document.getElementById("nav-animate"),
    stop: document.getElementById("nav-stop")
  };
  toolbar.querySelectorAll(".nav-js").forEach(function (b) { b.hidden = false; });

  // ---------- board settings: the viewer's preferences, saved as they change ----------
  // Logged in, they come with the page and go to the server; a visitor's stay in this browser.
  var panel = document.getElementById("board-settings");
  var prefsForm = document.getElementById("preferences-form");
  var onServer = board.dataset.savedPreferences === "true";
  var prefs = {
    board_theme: board.dataset.theme || "green",
    piece_set: board.dataset.pieceSet || "classic",
    coordinates: board.dataset.coordinates !== "false",
    board_3d: board.classList.contains("board-3d"),
    animation_ms: parseInt(board.dataset.animationMs, 10)
  };
  if (isNaN(prefs.animation_ms)) prefs.animation_ms = 700;
  var settings = { speed: prefs.animation_ms };
  if (!onServer) {
    try {
      var kept = JSON.parse(localStorage.getItem("slowfuse.board") || "{}");
      ["board_theme", "piece_set", "coordinates", "board_3d", "animation_ms"].forEach(function (k) {
        if (kept[k] !== undefined) prefs[k] = kept[k];
      });
    } catch (err) { /* private mode or damaged: the defaults */ }
  }

  function pieceBase(set) {
    return set === "flat" || set === "letters" ? "/static/pieces/" + set + "/" : "/static/pieces/";
  }

  function applyPreferences() {
    board.dataset.theme = prefs.board_theme;
    board.classList.toggle("board-3d", !!prefs.board_3d);
    settings.speed = prefs.animation_ms;
    if (board.dataset.pieceSet !== prefs.piece_set) {
      board.dataset.pieceSet = prefs.piece_set;
      board.dataset.pieceBase = pieceBase(prefs.piece_set);
      document.querySelectorAll(".board .piece, .pocket-piece img").forEach(function (img) {
        var code = img.dataset.piece || img.parentNode.dataset.piece;
        if (code) img.src = board.dataset.pieceBase + code + ".svg";
      });
    }
    if (board.dataset.coordinates !== String(!!prefs.coordinates)) {
      board.dataset.coordinates = String(!!prefs.coordinates);
      drawCoordinates();
    }
  }

  // The form's fields as they stand.
  function readForm() {
    var f = prefsForm.elements;
    prefs.board_theme = f.board_theme.value;
    prefs.piece_set = f.piece_set.value;
    prefs.animation_ms = parseInt(f.animation_ms.value, 10) || 0;
    prefs.coordinates = f.coordinates.checked;
    prefs.board_3d = f.board_3d.checked;
    var confirmField = document.getElementById("confirm-field");
    if (confirmField && f.confirm_moves) confirmField.value = f.confirm_moves.checked ? "ask" : "no";
    var thenField = document.getElementById("then-field");
    if (thenField && f.next_game_after_move) thenField.value = f.next_game_after_move.checked ? "next" : "stay";
    if (f.always_white) {
      var want = f.always_white.checked ? "white" : (board.dataset.ownSide || "white");
      flipped = false;
      if (want !== orientation()) flip(true);
      updateLinks();
    }
  }

  function fillForm() {
    var f = prefsForm.elements;
    f.board_theme.value = prefs.board_theme;
    f.piece_set.value = prefs.piece_set;
    f.coordinates.checked = !!prefs.coordinates;
    f.board_3d.checked = !!prefs.board_3d;
    if (!Array.prototype.some.call(f.animation_ms.options, function (o) { return o.value === String(prefs.animation_ms); })) {
      prefs.animation_ms = 700;
    }
    f.animation_ms.value = String(prefs.animation_ms);
  }

  if (prefsForm) {
    var status = document.getElementById("settings-status");
    var save = prefsForm.querySelector(".settings-save");
    if (save) save.hidden = true; // each change is saved at once
    if (!onServer) fillForm();
    prefsForm.addEventListener("submit", function (e) { e.preventDefault(); });
    prefsForm.addEventListener("change", function () {
      readForm();
      applyPreferences();
      if (!onServer) {
        try { localStorage.setItem("slowfuse.board", JSON.stringify(prefs)); } catch (err) { /* not kept */ }
        return;
      }
      if (status) status.textContent = "Saving…";
      fetch(prefsForm.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Accept": "application/json" },
        body: new URLSearchParams(new FormData(prefsForm))
      }).then(function (r) {
        if (r.ok) { if (status) status.textContent = "Saved"; return; }
        return r.json().then(function (body) { throw new Error(body.error || ("HTTP " + r.status)); });
      }).catch(function (err) {
        if (status) status.textContent = "Not saved: " + err.message;
      });
    });
  }
  if (buttons.settings && panel) {
    buttons.settings.addEventListener("click", function () {
      panel.hidden = !panel.hidden;
      buttons.settings.setAttribute("aria-expanded", String(!panel.hidden));
      var first = panel.querySelector("select, input:not([type=hidden])");
      if (!panel.hidden && first) first.focus();
    });
  }

  // ---------- the board ----------
  function squares() { return Array.prototype.slice.call(board.querySelectorAll(".sq")); }
  function squareEl(name) { return board.querySelector('.sq[data-square="' + name + '"]'); }

  // The 64 pieces of a FEN placement by square name, e.g. { e1: "wK", … }.
  function readPlacement(placement) {
    var pieces = {};
    placement.split("/").forEach(function (row, i) {
      var rank = 8 - i;
      var file = 0;
      for (var c = 0; c < row.length; c++) {
        var ch = row.charAt(c);
        if (ch >= "1" && ch <= "8") { file += parseInt(ch, 10); continue; }
        var color = ch === ch.toUpperCase() ? "w" : "b";
        pieces["abcdefgh".charAt(file) + rank] = color + ch.toUpperCase();
        file += 1;
      }
    });
    return pieces;
  }

  function setPiece(sq, code) {
    var old = sq.querySelector(".piece");
    if ((old ? old.dataset.piece : "") === (code || "")) return;
    sq.setAttribute("aria-label", sq.dataset.square + ", " +
      (code ? (code.charAt(0) === "w" ? "white " : "black ") + WORDS[code.charAt(1)] : "empty"));
    if (old) old.remove();
    if (!code) return;
    var img = document.createElement("img");
    img.className = "piece";
    img.src = board.dataset.pieceBase + code + ".svg";
    img.alt = (code.charAt(0) === "w" ? "white " : "black ") + WORDS[code.charAt(1)];
    img.dataset.piece = code;
    img.draggable = false;
    sq.insertBefore(img, sq.firstChild);
  }

  function drawCoordinates() {
    board.querySelectorAll(".coord").forEach(function (c) { c.remove(); });
    if (!prefs.coordinates) return;
    squares().forEach(function (sq, i) {
      var name = sq.dataset.square;
      if (i % 8 === 0) {
        var r = document.createElement("span");
        r.className = "coord rank";
        r.setAttribute("aria-hidden", "true");
        r.dataset.coord = name.charAt(1);
        sq.appendChild(r);
      }
      if (i >= 56) {
        var f = document.createElement("span");
        f.className = "coord file";
        f.setAttribute("aria-hidden", "true");
        f.dataset.coord = name.charAt(0);
        sq.appendChild(f);
      }
    });
  }

  function orientation() { return board.dataset.orientation === "black" ? "black" : "white"; }

  // Turns the board round; `preference` when the side comes from a setting rather than Flip.
  function flip(preference) {
    var white = orientation() === "black";
    var ordered = squares().sort(function (a, b) { return order(a) - order(b); });
    function order(sq) {
      var file = sq.dataset.square.charCodeAt(0) - 97;
      var rank = parseInt(sq.dataset.square.charAt(1), 10) - 1;
      return white ? (7 - rank) * 8 + file : rank * 8 + (7 - file);
    }
    // Eight squares to each row of the grid, in their new order.
    var rows = board.querySelectorAll(".board-row");
    ordered.forEach(function (sq, i) { (rows[Math.floor(i / 8)] || board).appendChild(sq); });
    board.dataset.orientation = white ? "white" : "black";
    // The pockets change sides with the board: the far side's above it.
    var above = document.querySelector('.pocket[data-pocket-of="' + (white ? "black" : "white") + '"]');
    var below = document.querySelector('.pocket[data-pocket-of="' + (white ? "white" : "black") + '"]');
    if (above && below) {
      board.parentNode.insertBefore(above, board);
      board.parentNode.insertBefore(below, board.nextSibling);
    }
    if (!preference) flipped = !flipped;
    drawCoordinates();
    updateLinks();
  }

  function blast(names) {
    names.forEach(function (name) {
      var sq = squareEl(name);
      if (!sq) return;
      sq.classList.remove("blast");
      void sq.offsetWidth; // restart the animation
      sq.classList.add("blast");
      setTimeout(function () { sq.classList.remove("blast"); }, 900);
    });
  }

  // A pocket drawn again from its letters in FEN order, e.g. "QNPP".
  function drawPocket(color, letters) {
    var row = document.querySelector('.pocket[data-pocket-of="' + color + '"]');
    if (!row) return;
    var counts = {};
    letters.split("").forEach(function (l) { counts[l] = (counts[l] || 0) + 1; });
    var old = {};
    row.querySelectorAll(".pocket-piece").forEach(function (el) { old[el.dataset.piece] = el; });
    var prefix = color === "white" ? "w" : "b";
    ["Q", "R", "B", "N", "P"].forEach(function (letter) {
      var code = prefix + letter;
      var el = old[code];
      var n = counts[letter] || 0;
      if (!n) { if (el) el.remove(); return; }
      if (!el) {
        el = document.createElement("span");
        el.className = "pocket-piece";
        el.dataset.piece = code;
        el.dataset.pocket = color;
        el.tabIndex = -1;
        var img = document.createElement("img");
        img.src = board.dataset.pieceBase + code + ".svg";
        img.alt = "";
        img.draggable = false;
        var badge = document.createElement("span");
        badge.className = "pocket-count";
        badge.setAttribute("aria-hidden", "true");
        el.appendChild(img);
        el.appendChild(badge);
      }
      el.dataset.count = String(n);
      el.setAttribute("aria-label", color + " " + WORDS[letter] + " in hand, " + n);
      el.querySelector(".pocket-count").textContent = String(n);
      row.appendChild(el); // strongest first, as the server draws them
    });
  }

  function drawPly(p, animate) {
    var pieces = readPlacement(p.board);
    var last = p.last || [];
    squares().forEach(function (sq) {
      var name = sq.dataset.square;
      setPiece(sq, pieces[name]);
      sq.classList.toggle("last", last.indexOf(name) >= 0);
      sq.classList.toggle("check", p.check === name);
      sq.classList.toggle("exploded", p.exploded.indexOf(name) >= 0);
      sq.classList.remove("selected", "target");
    });
    if (animate && p.exploded.length) blast(p.exploded);
    var material = document.getElementById("material");
    if (material && typeof p.material === "string") material.textContent = p.material;
    if (p.pockets) {
      drawPocket("white", p.pockets.white);
      drawPocket("black", p.pockets.black);
    }
    var pockets = document.getElementById("pockets");
    if (pockets && p.pockets) {
      var spaced = function (s) { return s ? s.split("").join(" ") : "nothing"; };
      pockets.textContent = "In hand — White: " + spaced(p.pockets.white) + "; Black: " + spaced(p.pockets.black);
    }
  }

  // ---------- where the page stands ----------
  function query(ply) { return "?ply=" + ply + (flipped ? "&flip=1" : ""); }

  function updateLinks() {
    var base = "/games/" + gameId;
    buttons.start.href = base + query(0);
    buttons.prev.href = base + query(Math.max(0, shown - 1));
    buttons.next.href = base + query(Math.min(lastPly, shown + 1));
    buttons.last.href = base + query(lastPly);
    buttons.flip.href = base + "?ply=" + shown + (flipped ? "" : "&flip=1");
    var fen = document.getElementById("fen-link");
    if (fen) fen.href = base + ".fen?ply=" + shown;
    // The Share tab's pictures of the position shown, their other options kept.
    ["svg-link", "png-link"].forEach(function (id) {
      var picture = document.getElementById(id);
      if (!picture) return;
      var url = new URL(picture.getAttribute("href"), location.href);
      url.searchParams.set("ply", String(shown));
      picture.setAttribute("href", url.pathname + url.search);
    });
    var shareFen = document.getElementById("share-fen");
    if (shareFen && plies && plies[shown]) shareFen.value = plies[shown].fen;
    history.replaceState(history.state, "", base + query(shown) + location.hash);
  }

  function fetchPlies() {
    if (!loading) {
      toolbar.classList.add("loading");
      loading = fetch("/games/" + gameId + "/plies.json", { credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (data) { plies = data.plies; })
        .finally(function () { toolbar.classList.remove("loading"); });
    }
    return loading;
  }

  function show(ply, animate) {
    ply = Math.max(0, Math.min(lastPly, ply));
    if (!plies) {
      return fetchPlies().then(function () { show(ply, animate); }, function () {
        location.href = "/games/" + gameId + query(ply); // the server draws it instead
      });
    }
    var p = plies[ply];
    if (!p) return;
    shown = ply;
    drawPly(p, animate);
    toolbar.dataset.viewPly = String(ply);
    var label = document.getElementById("nav-ply");
    if (label) label.textContent = "ply " + ply + " of " + lastPly;
    document.querySelectorAll(".movelist a").forEach(function (a) {
      var current = plyOf(a) === ply;
      a.classList.toggle("current", current);
      if (current) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
    board.dataset.movable = canMove && ply === lastPly ? "true" : "false";
    // The position goes with the event: a board of another kind draws its own marks from it.
    board.dispatchEvent(new CustomEvent("board:shown", { detail: { ply: ply, fen: p.fen, position: p } }));
    updateLinks();
  }

  // ---------- animation ----------
  function stopAnimation() {
    if (timer) clearInterval(timer);
    timer = null;
    buttons.animate.disabled = false;
    buttons.stop.disabled = true;
    toolbar.classList.remove("animating");
  }

  function animate() {
    stopAnimation();
    var from = shown >= lastPly ? 0 : shown;
    buttons.animate.disabled = true;
    buttons.stop.disabled = false;
    toolbar.classList.add("animating");
    if (settings.speed <= 0) { // no animation: straight to the end
      stopAnimation();
      show(lastPly, true);
      return;
    }
    Promise.resolve(show(from, false)).then(function () {
      if (buttons.stop.disabled) return; // stopped meanwhile
      timer = setInterval(function () {
        if (shown >= lastPly) { stopAnimation(); return; }
        show(shown + 1, true);
        if (shown >= lastPly) stopAnimation();
      }, settings.speed);
    });
  }

  // ---------- the keyboard on the board: arrows move between squares as they are drawn ----------
  board.addEventListener("keydown", function (e) {
    var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -8, ArrowDown: 8 }[e.key];
    var sq = e.target.closest && e.target.closest(".sq");
    if (!step || !sq || e.ctrlKey || e.metaKey || e.altKey) return;
    var all = squares();
    var at = all.indexOf(sq);
    var to = at + step;
    if (to < 0 || to >= 64 || (Math.abs(step) === 1 && Math.floor(to / 8) !== Math.floor(at / 8))) return;
    e.preventDefault();
    sq.tabIndex = -1;
    all[to].tabIndex = 0;
    all[to].focus();
  });

  // ---------- input ----------
  function plainClick(e) { return e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey; }

  // The four steps, one path for the toolbar and the keys: each says where it goes, and a step
  // forward plays the blast of the move it reaches.
  var steps = {
    start: function () { return 0; },
    prev: function () { return shown - 1; },
    next: function () { return shown + 1; },
    last: function () { return lastPly; }
  };
  function step(name) {
    stopAnimation();
    show(steps[name](), name === "next");
  }
  ["start", "prev", "next", "last"].forEach(function (name) {
    buttons[name].addEventListener("click", function (e) {
      if (!plainClick(e)) return;
      e.preventDefault();
      step(name);
    });
  });
  buttons.flip.addEventListener("click", function (e) {
    if (!plainClick(e)) return;
    e.preventDefault();
    flip();
  });
  buttons.animate.addEventListener("click", animate);
  buttons.stop.addEventListener("click", stopAnimation);
  // Links styled as buttons answer Space as buttons do.
  [buttons.start, buttons.prev, buttons.next, buttons.last, buttons.flip].forEach(function (a) {
    a.addEventListener("keydown", function (e) {
      if (e.key === " ") { e.preventDefault(); a.click(); }
    });
  });

  // A move in the list links to its ply (?ply=N), read from the link itself.
  function plyOf(a) { return parseInt(new URLSearchParams(a.search).get("ply"), 10); }
  document.querySelectorAll(".movelist a").forEach(function (a) {
    var ply = plyOf(a);
    a.addEventListener("click", function (e) {
      if (!plainClick(e)) return;
      e.preventDefault();
      stopAnimation();
      show(ply, true);
    });
  });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || (t.closest && t.closest('.sq, .promo-chooser, [role="tablist"]')))) return;
    var name = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "last" }[e.key];
    if (e.key === "f" || e.key === "F") { e.preventDefault(); flip(); return; }
    if (e.key === "Escape" && panel && !panel.hidden) { panel.hidden = true; return; }
    if (!name) return;
    e.preventDefault();
    step(name);
  });

  // Fetch the positions when the browser is idle, so the first step is instant.
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 300); };
  if (lastPly > 0) idle(function () { fetchPlies().catch(function () { /* links still work */ }); });

  // The blast of the move shown, played once when the page opens on it.
  var cleared = board.querySelectorAll(".sq.exploded");
  if (cleared.length) {
    blast(Array.prototype.map.call(cleared, function (sq) { return sq.dataset.square; }));
  }
  if (!onServer) applyPreferences();
})();
