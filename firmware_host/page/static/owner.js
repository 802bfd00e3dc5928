// The owner's page (firmware_host/page/owner.py): the owner PIN set on the box opens an owner session,
// which lists the owner's pages (the backup, the networks, the updates). Without a PIN it says how to set
// one on the box. Its texts: owner.texts.json; t, translate, showError, request, postJson: common.js.
"use strict";

translate();

async function show() {
  const status = await request("/api/owner");
  if (status.error) { showError(status.error); return; }
  $("nopin").hidden = status.pin;
  $("login").hidden = !status.pin || status.owner;
  $("owner").hidden = !status.owner;
  if (!status.owner) return;
  $("left").textContent = t("left", { m: Math.max(1, Math.round(status.left / 60)) });
  $("links").replaceChildren(...status.links.map((link) =>
    el("li", {}, el("a", { href: link.path }, lang === "de" ? link.de : link.en))));
}

$("pinform").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = await postJson("/api/owner", { pin: $("pin").value });
  $("pin").value = "";
  showError(body.error || "", { s: body.retry || 0 });
  await show();
});

$("leave").addEventListener("click", async () => {
  await postJson("/api/owner/leave", {});
  await show();
});

show();
