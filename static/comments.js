// The "Hide Comments" tab without a reload: the link still works without JavaScript (it stores
// the choice and draws the page again); here it toggles a class at once and stores the choice in
// the background. The tab is selected while comments are hidden. When the comments were not
// drawn, the link simply loads them.
(function () {
  "use strict";
  function init() {
    var link = document.getElementById("comments-toggle");
    if (!link) return;
    var panel = link.closest(".info-panel") || document.body;
    var saving = Promise.resolve(); // the stores in flight, in order
    var clicks = 0;
    link.addEventListener("click", function (event) {
      if (link.getAttribute("data-rendered") !== "yes") return;
      event.preventDefault();
      var hide = !panel.classList.contains("comments-hidden");
      panel.classList.toggle("comments-hidden", hide);
      var url = new URL(link.href, window.location.href);
      url.searchParams.set("comments", hide ? "hide" : "show");
      // One request after the other, so that quick clicks are stored in the order made.
      var store = url.toString();
      var click = ++clicks;
      link.dataset.stored = "no";
      saving = saving.then(function () {
        return fetch(store, { credentials: "same-origin" }).catch(function () {});
      }).then(function () {
        if (click === clicks) link.dataset.stored = "yes"; // the last click is stored
      });
      url.searchParams.set("comments", hide ? "show" : "hide");
      link.href = url.pathname + url.search;
      link.setAttribute("aria-selected", String(hide));
      link.title = hide ? "Comments are hidden: show them" : "Hide the comments in the move list";
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
