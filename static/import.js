// The import page: a chosen file is read into the text box (the form posts the text), and
// "Importing…" shows while the server reads the games.
(function () {
  "use strict";
  const form = document.getElementById("import-form");
  if (!form) return;
  const file = form.querySelector("[data-import-file]");
  const text = form.querySelector("textarea[name=pgn]");
  const progress = document.getElementById("import-progress");
  if (file && text) {
    file.addEventListener("change", function () {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      chosen.text().then(function (content) {
        text.value = content;
      });
    });
  }
  form.addEventListener("submit", function () {
    if (progress) progress.hidden = false;
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
  });
})();
