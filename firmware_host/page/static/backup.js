// The box's backup (firmware_host/page/backup_routes.py): download it, or upload one to restore. The box
// decides who may (a seated phone; the restore only while no game runs) and checks the file. Its texts:
// backup.texts.json; t, translate, refusal and request: common.js.
"use strict";

translate();

$("restore").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("file").files[0];
  const answer = $("answer");
  if (!file) return;
  answer.textContent = t("sending");
  const body = await request("/api/restore", { method: "POST", body: file, headers: { "Content-Type": "application/zip" } });
  if (body.error) { answer.textContent = refusal(body.error, { m: body.message || "" }); return; }
  answer.textContent = t(body.restart ? "done_restart" : "done_later", { n: body.games });
});
