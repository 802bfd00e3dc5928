// The box's backup (firmware_host/page/backup_routes.py): download it, or upload one to restore. The box
// decides who may (a seated phone; the restore only while no game runs) and checks the file.
"use strict";

const TEXT = {
  de: {
    title: "Sicherung der Box", download: "Sicherung herunterladen", restore: "Sicherung einspielen",
    what: "Eine Datei mit allen Spielen, den Einstellungen, den Personen und den angelernten Karten.",
    restore_what: "Ersetzt die Daten der Box (die alten werden beiseitegelegt, nicht gelöscht). Nur wenn kein Spiel läuft.",
    send: "Einspielen", back: "Zurück zum Tisch", sending: "Wird geprüft …",
    done_restart: "Sicherung mit {n} Spielen angenommen: die Box startet neu und spielt sie ein.",
    done_later: "Sicherung mit {n} Spielen angenommen: sie wird beim nächsten Start der Box eingespielt.",
    e_no_seat: "Erst am Tisch einen Platz nehmen (Startseite).", e_game_running: "Erst das laufende Spiel beenden.",
    e_too_large: "Die Datei ist zu groß.", e_bad_backup: "Abgelehnt, nichts geändert: {m}",
    e_origin: "Fremde Seite.", e_default: "Abgelehnt ({r}).",
  },
  en: {
    title: "The box's backup", download: "Download the backup", restore: "Restore a backup",
    what: "One file with every game, the settings, the people and the enrolled cards.",
    restore_what: "Replaces the box's data (the old data is set aside, not deleted). Only while no game runs.",
    send: "Restore", back: "Back to the table", sending: "Checking …",
    done_restart: "Backup of {n} games taken: the box restarts and restores it.",
    done_later: "Backup of {n} games taken: it is restored at the box's next start.",
    e_no_seat: "Take a seat at the table first (start page).", e_game_running: "End the running game first.",
    e_too_large: "The file is too large.", e_bad_backup: "Refused, nothing changed: {m}",
    e_origin: "Foreign page.", e_default: "Refused ({r}).",
  },
};
const lang = (navigator.language || "de").startsWith("de") ? "de" : "en";

function t(key, fields = {}) {
  return (TEXT[lang][key] || key).replace(/\{(\w+)\}/g, (_, k) => String(fields[k] ?? ""));
}

document.documentElement.lang = lang;
for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);

document.getElementById("restore").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = document.getElementById("file").files[0];
  const answer = document.getElementById("answer");
  if (!file) return;
  answer.textContent = t("sending");
  const response = await fetch("/api/restore", {
    method: "POST", body: file, credentials: "same-origin", headers: { "Content-Type": "application/zip" },
  });
  const body = await response.json().catch(() => ({ error: "http_" + response.status }));
  if (body.error) {
    const key = "e_" + body.error;
    answer.textContent = TEXT[lang][key] ? t(key, { m: body.message || "" }) : t("e_default", { r: body.error });
    return;
  }
  answer.textContent = t(body.restart ? "done_restart" : "done_later", { n: body.games });
});
