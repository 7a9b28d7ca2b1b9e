// The field's page (R1062): a teams CSV chosen from the disk is read into the paste box here,
// in the browser, and previewed as pasted rows are; the page's forms send text only. Without
// a script the chooser stays hidden and the rows are pasted.
"use strict";
(() => {
  const chooser = document.getElementById("teams-file-label");
  const file = document.getElementById("teams-file");
  const box = document.getElementById("teams");
  if (!chooser || !file || !box) return;
  chooser.hidden = false;
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (chosen) box.value = await chosen.text();
  });
})();
