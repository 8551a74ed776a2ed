// The Engine Analysis tab: while the analysis is queued or running, its progress is read from
// the API every few seconds and the tab is drawn anew from the server's page when it is done
// (nothing else on the page is touched, so nothing typed is lost). Clicking the graph or a move
// of the analysis shows that position through the navigation toolbar, without reloading; the
// row of the ply shown is marked. Without this script the links load the page at that ply.
(function () {
  "use strict";
  var panel = document.getElementById("panel-engine");
  if (!panel) return;
  var gameId = panel.dataset.game;

  function waiting() {
    var s = panel.dataset.status;
    return s === "queued" || s === "running";
  }

  // ---------- progress ----------
  function poll() {
    if (!waiting()) return;
    fetch("/api/v1/games/" + gameId + "/analysis/engine", { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (a) {
        if (!a) return setTimeout(poll, 10000);
        var done = document.getElementById("engine-done");
        if (done) done.textContent = String(a.done_positions);
        var bar = document.getElementById("engine-progress");
        if (bar) { bar.max = a.positions; bar.value = a.done_positions; bar.textContent = a.progress + "%"; }
        if (a.status === "done" || a.status === "failed") return redraw();
        setTimeout(poll, 2000);
      }, function () { setTimeout(poll, 10000); });
  }

  // The finished tab as the server draws it, for the ply shown now.
  function redraw() {
    fetch(location.pathname + location.search, { headers: { Accept: "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("panel-engine");
        if (!fresh) return;
        panel.innerHTML = fresh.innerHTML;
        panel.dataset.status = fresh.dataset.status;
        bind();
      });
  }

  // ---------- following the board ----------
  function plyOf(a) {
    var m = /[?&]ply=(\d+)/.exec(a.getAttribute("href") || "");
    return m ? parseInt(m[1], 10) : null;
  }

  // The move list's own link for `ply`, which the navigation toolbar follows without a reload.
  function moveLink(ply) {
    var links = document.querySelectorAll(".movelist a");
    for (var i = 0; i < links.length; i++) {
      if (plyOf(links[i]) === ply) return links[i];
    }
    return null;
  }

  function bind() {
    panel.querySelectorAll('a[href*="?ply="]').forEach(function (a) {
      a.addEventListener("click", function (e) {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        var ply = plyOf(a);
        var own = ply === null ? null : moveLink(ply);
        // The start position has no move of its own: the toolbar's first button shows it.
        if (ply === 0) own = document.getElementById("nav-start");
        if (!own) return;
        e.preventDefault();
        own.click();
      });
    });
  }

  function mark(ply) {
    panel.querySelectorAll(".engine-moves tr[id^='engine-ply-']").forEach(function (tr) {
      if (tr.id === "engine-ply-" + ply) tr.setAttribute("aria-current", "true");
      else tr.removeAttribute("aria-current");
    });
    var line = panel.querySelector(".graph-shown");
    var point = panel.querySelector('.eval-graph a[data-ply="' + ply + '"]');
    if (line && point) {
      line.setAttribute("x1", point.dataset.x);
      line.setAttribute("x2", point.dataset.x);
    }
  }

  var board = document.getElementById("board");
  if (board) board.addEventListener("board:shown", function (e) { mark(e.detail.ply); });

  bind();
  if (waiting()) setTimeout(poll, 2000);
})();
