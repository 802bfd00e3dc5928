// The box's backup (firmware_host/page/backup_routes.py): download it, or upload one to restore. The box
// decides who may (the owner, in an owner session: /owner; the restore only while no game runs) and checks
// the file; without an owner session the page says how to get one (or to set the PIN on the box first).
// Its texts: backup.texts.json; t, translate, refusal and request: common.js.
"use strict";

translate();

async function gate() {
  const status = await request("/api/owner");
  const owner = Boolean(status.owner);
  $("forms").hidden = !owner;
  $("gate").hidden = owner;
  $("gatetext").textContent = t(status.pin === false ? "e_no_owner_pin" : "e_not_owner");
}

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

gate();
