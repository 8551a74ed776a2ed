// Slowfuse information panel: one tab's panel shown at a time (chosen by a click, the arrow keys
// in the tab list, or the address's #panel-…), and the Share tab's copy buttons. Without
// JavaScript every panel shows, one under another, and the tabs are links to them.
(function () {
  "use strict";

  var list = document.getElementById("info-tabs");
  if (!list) return;
  var every = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
  var tabs = every.filter(function (t) { return t.hasAttribute("aria-controls"); });

  function panelOf(tab) { return document.getElementById(tab.getAttribute("aria-controls")); }

  function select(tab) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", String(on));
      var panel = panelOf(t);
      if (panel) panel.hidden = !on;
    });
    every.forEach(function (t) { t.tabIndex = t === tab ? 0 : -1; });
  }

  tabs.forEach(function (tab) {
    tab.addEventListener("click", function (e) {
      e.preventDefault();
      select(tab);
      history.replaceState(history.state, "", location.pathname + location.search + "#" + tab.getAttribute("aria-controls"));
      // As on SchemingMind, the Analysis Board tab opens the board itself, not a button to it.
      var open = document.getElementById("analysis-open");
      if (tab.getAttribute("aria-controls") === "panel-analysis" && open && !open.hidden) open.click();
    });
  });

  // Arrow keys move along the tabs (the Hide Comments toggle among them); Space acts as a click.
  list.addEventListener("keydown", function (e) {
    var at = every.indexOf(document.activeElement);
    if (at < 0) return;
    var next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = every[(at + 1) % every.length];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = every[(at - 1 + every.length) % every.length];
    else if (e.key === "Home") next = every[0];
    else if (e.key === "End") next = every[every.length - 1];
    else if (e.key === " ") { e.preventDefault(); every[at].click(); return; }
    if (!next) return;
    e.preventDefault();
    next.focus();
    if (next.hasAttribute("aria-controls")) select(next);
  });

  // The tab the address names; else the one whose panel holds what a refused form says (the
  // server marks it); else the first.
  var fromAddress = tabs.filter(function (t) { return "#" + t.getAttribute("aria-controls") === location.hash; })[0];
  var refused = tabs.filter(function (t) { var p = panelOf(t); return p && p.hasAttribute("data-opens-first"); })[0];
  select(fromAddress || refused || tabs[0]);
  list.closest(".info-panel").classList.add("tabs-ready");

  // ---------- Opening Book: the moves played from the position shown ----------
  var bookPanel = document.getElementById("panel-book");
  var bookBody = document.getElementById("book-body");
  var board = document.getElementById("board");
  var shareFen = document.getElementById("share-fen");
  var bookFen = shareFen ? shareFen.value : "";
  var bookShown = null; // the FEN the panel shows

  function cell(row, text, tag) {
    var c = document.createElement(tag || "td");
    c.textContent = text;
    row.appendChild(c);
    return c;
  }

  function drawBook(data) {
    bookBody.textContent = "";
    if (data.opening) {
      var name = document.createElement("p");
      name.className = "book-opening";
      var eco = document.createElement("strong");
      eco.textContent = data.opening.eco;
      name.appendChild(eco);
      name.appendChild(document.createTextNode(" " + data.opening.name));
      bookBody.appendChild(name);
    }
    var count = document.createElement("p");
    count.id = "book-games";
    count.textContent = data.games === 0
      ? "No finished game on this server has reached this position."
      : data.games + (data.games === 1 ? " finished game" : " finished games") + " reached this position.";
    bookBody.appendChild(count);
    if (data.games > 0) {
      var link = document.createElement("a");
      link.id = "book-search";
      link.href = "/search?variant=" + encodeURIComponent(bookPanel.dataset.variant) +
        "&status=finished&position=" + encodeURIComponent(data.fen);
      link.textContent = "Find them in the game database";
      var p = document.createElement("p");
      p.appendChild(link);
      bookBody.appendChild(p);
    }
    if (!data.moves.length) return;
    var table = document.createElement("table");
    table.className = "list book-table";
    var head = document.createElement("tr");
    ["Move", "Games", "White wins", "Draws", "Black wins"].forEach(function (t) { cell(head, t, "th"); });
    var thead = document.createElement("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement("tbody");
    data.moves.forEach(function (m) {
      var row = document.createElement("tr");
      row.dataset.uci = m.uci;
      cell(row, m.san);
      cell(row, String(m.games));
      cell(row, String(m.white));
      cell(row, String(m.draws));
      cell(row, String(m.black));
      body.appendChild(row);
    });
    table.appendChild(body);
    bookBody.appendChild(table);
  }

  function loadBook() {
    if (!bookPanel || bookPanel.hidden || !bookFen || bookShown === bookFen) return;
    var fen = bookFen;
    bookShown = fen;
    bookBody.textContent = "Looking up the book…";
    var url = "/api/v1/openings?variant=" + encodeURIComponent(bookPanel.dataset.variant) +
      "&fen=" + encodeURIComponent(fen);
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : r.json().then(function (b) { throw new Error(b.error); }); })
      .then(function (data) { if (fen === bookFen) drawBook(data); })
      .catch(function (err) {
        bookShown = null;
        bookBody.textContent = "The book could not be read: " + err.message;
      });
  }

  if (bookPanel && bookBody) {
    tabs.forEach(function (tab) { tab.addEventListener("click", loadBook); });
    list.addEventListener("keydown", function () { setTimeout(loadBook, 0); });
    if (board) {
      board.addEventListener("board:shown", function (e) {
        if (e.detail && e.detail.fen) bookFen = e.detail.fen;
        loadBook();
      });
    }
    loadBook();
  }

  // ---------- Share: copy buttons ----------
  var status = document.getElementById("copy-status");
  document.querySelectorAll(".copy-button").forEach(function (button) {
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    button.hidden = false;
    var label = button.textContent;
    function done(ok) {
      if (status) status.textContent = ok ? "Copied" : "Select the text and copy it with your keyboard";
      if (!ok) return;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 2000);
    }
    button.addEventListener("click", function () {
      var text = input.value;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { fallback(); });
      } else {
        fallback();
      }
      function fallback() {
        input.focus();
        input.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
        done(ok);
      }
    });
  });
})();
