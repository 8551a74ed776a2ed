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

  var fromAddress = tabs.filter(function (t) { return "#" + t.getAttribute("aria-controls") === location.hash; })[0];
  select(fromAddress || tabs[0]);
  list.closest(".info-panel").classList.add("tabs-ready");

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
