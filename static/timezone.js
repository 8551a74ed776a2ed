// Fills a form's hidden time_zone field with the browser's time zone (an IANA name such as
// Europe/Berlin), so that a new account's mails show times as the player reads them. Without
// script the field stays empty and the account starts in UTC.
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  document.querySelectorAll("input[name=time_zone]").forEach(function (input) {
    if (!input.value) {
      input.value = zone;
    }
  });
})();
