// The public page (/public): read again every 30 s for the latest tables and standings, but
// never under someone typing a search (a reload would take the letters away). Without
// JavaScript the page works the same; it is read again by Search or the browser's reload.
"use strict";
(() => {
  const RELOAD_MS = 30000;
  const box = document.getElementById("q");
  const typing = () =>
    box !== null && (document.activeElement === box || box.value !== box.defaultValue);
  setInterval(() => {
    if (!typing() && !document.hidden) {
      location.reload();
    }
  }, RELOAD_MS);
})();
