// The table page: shows the view the box sends for this phone's seat and sends what the stage asks.
// No game logic here: the box decides (see firmware_host/core/page_view.py).
"use strict";

const TEXT = {
  de: {
    join_title: "Am Tisch mitspielen", code_label: "Code vom Display", pick_seat: "Platz wählen:",
    name_ph: "oder Namen eingeben", join_name: "Los", waiting: "Am Tisch bestätigen: Menü → Handy-Seite → START …",
    your_word: "Dein Wort", send: "Senden", draft: "Dein Wort (verdeckt): {w}", no_draft: "Noch kein Wort",
    hidden: "Die Wörter bleiben verdeckt bis zum Alarm.", round: "Runde {r}", max: "höchstens {n}",
    written: "geschrieben", words: "Die Wörter", sheet: "Der Bogen", board: "Punktetafel", total: "Summe",
    vowels: "Vokale", bonus: "Bonus", offline: "Verbindung zum Tisch unterbrochen – verbinde neu …",
    e_code: "Falscher Code. (Er steht auf dem Display: NEXT lang drücken am Timer, oder Menü → Handy-Seite)", e_locked: "Zu viele falsche Codes: {s} s gesperrt.", e_bad_seat: "Diesen Platz gibt es nicht.",
    e_no_such_name: "Diesen Namen gibt es am Tisch nicht.", e_no_seat: "Erst einen Platz wählen.",
    e_not_your_seat: "Das ist nicht dein Platz.", e_slow_down: "Langsam – zu viele Eingaben.",
    e_claimed: "Ein anderes Handy fragt schon nach diesem Platz: erst antwortet der Tisch darauf.",
    e_bad_text: "Das Wort geht so nicht (höchstens 32 Zeichen).", e_origin: "Fremde Seite.", e_default: "Abgelehnt ({r}).",
    sent: "Gesendet.", leave: "Platz freigeben", ready: "bereit", paused: "Pause",
    won: "Gewonnen: {w}", best: "Das beste Mögliche", laid: "Gelegt", fields: "Bonusfelder",
    timer: "Sanduhr", start_pause: "Start/Pause", flip: "Umdrehen", reset: "Zurück auf voll",
    my_points: "Meine Punkte", points_ph: "z. B. +7 oder -3", add: "Buchen", name_new: "Neuer Name",
    rename: "Umbenennen", past: "Vergangene Spiele", sheet_of: "Bogen", download: "Herunterladen",
    open_game: "läuft noch", no_games: "Noch keine Spiele im Journal.", e_no_game: "Dieses Spiel gibt es nicht.",
    e_journal: "Das Journal ist nicht lesbar.", e_unscorable: "Dieses Spiel lässt sich nicht werten.",
    e_bad_command: "Diese Einstellung gibt es nicht.", breakdown: "Wort+Länge+grau", points: "Pkt.",
    e_full: "Der Tisch ist voll.",
    e_code_renewed: "Der Tisch hat einen neuen Code: den vom Display eingeben.",
    invite: "QR-Code für Neue zeigen", invite_close: "QR-Code ausblenden",
    invite_alt: "QR-Code und Code zum Mitspielen",
    people: "Wer spielt: Statistik",
    absent: "{name} spielt in diesem Spiel nicht mit.",
  },
  en: {
    join_title: "Join the table", code_label: "Code on the display", pick_seat: "Pick your seat:",
    name_ph: "or type your name", join_name: "Go", waiting: "Confirm at the box: menu → Phone page → START …",
    your_word: "Your word", send: "Send", draft: "Your word (hidden): {w}", no_draft: "No word yet",
    hidden: "Words stay hidden until the alarm.", round: "Round {r}", max: "at most {n}",
    written: "written", words: "The words", sheet: "The sheet", board: "Scoreboard", total: "Total",
    vowels: "Vowels", bonus: "Bonus", offline: "Lost the table – reconnecting …",
    e_code: "Wrong code. (It is on the display: hold NEXT on the timer, or menu → Phone page)", e_locked: "Too many wrong codes: locked for {s} s.", e_bad_seat: "No such seat.",
    e_no_such_name: "No player of that name at the table.", e_no_seat: "Pick a seat first.",
    e_not_your_seat: "That is not your seat.", e_slow_down: "Slow down – too many entries.",
    e_claimed: "Another phone is asking for this seat: the table answers that one first.",
    e_bad_text: "That word cannot be taken (32 characters at most).", e_origin: "Foreign page.", e_default: "Refused ({r}).",
    sent: "Sent.", leave: "Leave seat", ready: "ready", paused: "paused",
    won: "Winner: {w}", best: "The best possible", laid: "Laid down", fields: "Bonus fields",
    timer: "Sand timer", start_pause: "Start/pause", flip: "Flip", reset: "Back to full",
    my_points: "My points", points_ph: "e.g. +7 or -3", add: "Add", name_new: "New name",
    rename: "Rename", past: "Past games", sheet_of: "Sheet", download: "Download",
    open_game: "still open", no_games: "No games in the journal yet.", e_no_game: "No such game.",
    e_journal: "The journal cannot be read.", e_unscorable: "This game cannot be scored.",
    e_bad_command: "No such setting.", breakdown: "word+length+grey", points: "Pts",
    e_full: "The table is full.",
    e_code_renewed: "The table has a new code: type the one on the display.",
    invite: "Show the QR code to a newcomer", invite_close: "Hide the QR code",
    invite_alt: "QR code and code to join",
    people: "Who plays: statistics",
    absent: "{name} does not play in this game.",
  },
};

const $ = (id) => document.getElementById(id);
let lang = (navigator.language || "de").startsWith("de") ? "de" : "en";
let view = null;
let socket = null;
let retry = 500;
let deadline = null; // performance.now() milliseconds when the running timer ends
let duration = 60;

function t(key, fields = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) || TEXT.de[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(fields[k] ?? ""));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function translate() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-ph]")) node.placeholder = t(node.dataset.ph);
}

function showError(reason, fields = {}) {
  const box = $("error");
  if (!reason) { box.hidden = true; return; }
  const key = "e_" + reason;
  box.textContent = TEXT.de[key] ? t(key, fields) : t("e_default", { r: reason });
  box.hidden = false;
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { retry = 500; $("offline").hidden = true; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      const v = message.view;
      const timer = v.timer;
      if (timer.running && timer.deadline !== null) {
        deadline = performance.now() + (timer.deadline - message.now) * 1000;
      } else {
        deadline = null;
      }
      duration = timer.duration;
      render(v);
    } else if (message.type === "error") {
      if (message.reason === "code_renewed") $("code").value = "";
      showError(message.reason);
    } else if (message.type === "sent") {
      showError("");
    }
  };
  socket.onclose = () => {
    $("offline").textContent = t("offline");
    $("offline").hidden = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function tableCode() {
  const match = location.pathname.match(/^\/j\/([A-Za-z0-9]{1,16})$/);
  return match ? match[1].toUpperCase() : "";
}

async function join(body) {
  showError("");
  const response = await fetch("/api/join", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: $("code").value.trim(), ...body }), credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({ error: "http_" + response.status }));
  if (answer.error) { showError(answer.error, { s: answer.retry }); return; }
  if (socket) { socket.onclose = null; socket.close(); }
  connect();
}

function render(v) {
  view = v;
  if (v.lang && v.lang !== lang) { lang = v.lang; translate(); }
  const play = v.play || {};
  $("title").textContent = v.game_title || "wordtable";
  const mine = mineOf(v); // this phone's person: seated in the game open, or not playing in it
  $("me").hidden = !mine;
  $("me").textContent = mine ? (v.absent ? t("absent", { name: v.person_name }) : v.person_name || v.name) : "";
  $("join").hidden = mine || Boolean(v.waiting);
  $("waiting").hidden = v.waiting !== true;
  if (!mine) renderSeats(v.players);
  renderCard(play.card);
  renderEntry(v, play);
  $("message").hidden = !play.message;
  $("message").textContent = play.message || "";
  renderStatus(play);
  renderWinners(play.winners);
  renderLines("best", t("best"), play.best);
  renderLines("laid", t("laid"), play.laid);
  renderWritten(v.players, play.written);
  renderWords(play.words);
  renderSheet(play.sheet);
  renderTables(play.tables);
  renderBoard(v);
  renderControls(v);
  renderInvite(mine);
  $("notice").hidden = !v.notice || v.notice === play.message;
  $("notice").textContent = v.notice || "";
  $("screen").hidden = !v.screen;
  $("screen").textContent = v.screen || "";
  tick();
}

// The phone belongs to a person (the box resolves their seat in every game); a seat nobody named is its seat.
function mineOf(v) {
  return (v.seat !== null && v.seat !== undefined) || Boolean(v.absent);
}

function renderSeats(players) {
  const seats = $("seats");
  seats.replaceChildren(...players.map((name, i) => {
    const button = el("button", { type: "button", "data-seat": String(i) }, name);
    button.onclick = () => join({ seat: i });
    return button;
  }));
}

function renderCard(card) {
  $("card").hidden = !card;
  if (!card) return;
  $("card").replaceChildren(t("round", { r: card.round }), el("b", {}, card.letter), t("max", { n: card.max_length }));
}

// What the stage asks of this seat: the core's `entry` (label, hint, field, buttons whose `send` template
// gets the typed line for "{text}"); Das perfekte Wort's plain "word" ask has one send button.
let ask = null;

function renderEntry(v, play) {
  ask = v.seat === null ? null : play.entry || (play.asks === "word" ? { kind: "word", field: true } : null);
  const entry = $("entry");
  const wasHidden = entry.hidden;
  const before = entry.dataset.label || "";
  entry.hidden = !ask;
  if (!ask) return;
  const label = ask.label || t("your_word");
  entry.dataset.label = label;
  if (wasHidden || before !== label) $("word").value = "";
  $("asklabel").textContent = label;
  $("askhint").hidden = !ask.hint;
  $("askhint").textContent = ask.hint || "";
  $("word").inputMode = ask.kind === "number" ? "numeric" : "text";
  $("word").hidden = ask.field === false;
  const actions = ask.actions || [];
  $("send").hidden = actions.length > 0 || ask.field === false;
  $("actions").hidden = actions.length === 0;
  $("actions").replaceChildren(...actions.map((a, i) => {
    const button = el("button", { type: i === 0 ? "submit" : "button", "data-send": a.send }, a.label);
    if (i > 0) button.onclick = () => sendEntry(a.send);
    return button;
  }));
  const draft = $("draft");
  if (play.entry) {
    draft.hidden = true;
  } else if (play.draft !== undefined) {
    draft.hidden = false;
    draft.textContent = play.draft ? t("draft", { w: play.draft }) : t("no_draft") + " · " + t("hidden");
  } else {
    draft.hidden = true;
  }
}

function renderStatus(play) {
  const text = [play.round_text, play.status, play.result].filter(Boolean).join(" · ");
  $("status").hidden = !text;
  $("status").textContent = text;
}

function renderWinners(winners) {
  $("winners").hidden = !winners || winners.length === 0;
  $("winners").textContent = winners && winners.length ? "★ " + t("won", { w: winners.join(", ") }) : "";
}

function renderLines(id, title, lines) {
  const box = $(id);
  box.hidden = !lines || lines.length === 0;
  if (box.hidden) return;
  box.replaceChildren(el("h2", {}, title), ...lines.map((line) => el("p", {}, line)));
}

function cellNode(tag, value) {
  const plain = value !== null && typeof value === "object";
  const text = plain ? value.text : value;
  const mark = plain ? value.mark : "";
  const number = typeof text === "number";
  const node = el(tag, { class: number ? "n" : "" });
  node.append(mark ? el("span", { class: mark }, text) : document.createTextNode(String(text)));
  return node;
}

function renderTables(tables) {
  $("tables").replaceChildren(...(tables || []).map((table) => {
    const head = table.head && table.head.some(Boolean)
      ? [el("tr", {}, ...table.head.map((h) => el("th", {}, h)))] : [];
    const rows = table.rows.map((row) => el("tr", {}, ...row.map((value) => cellNode("td", value))));
    return el("section", { class: "sheet" }, el("h2", { class: table.mark }, table.title), el("table", {}, ...head, ...rows));
  }));
}

function renderWritten(players, written) {
  const box = $("written");
  box.hidden = !written;
  if (!written) return;
  box.replaceChildren(el("div", { class: "dots" },
    ...players.map((name, i) => el("span", {}, (written[i] ? "✔ " : "… ") + name))));
}

function renderWords(words) {
  const box = $("words");
  box.hidden = !words;
  if (!words) return;
  const rows = words.map((w) => el("tr", {},
    el("td", {}, w.name),
    el("td", { class: w.struck ? "struck word" : "word" }, w.entered ? (w.current || "–") : "…"),
    el("td", { class: "flag" }, (w.flags || []).join(" · "))));
  box.replaceChildren(el("h2", {}, t("words")), el("table", {}, ...rows));
}

function renderSheet(sheet) {
  const box = $("sheet");
  box.hidden = !sheet;
  if (!sheet) return;
  const parts = [el("h2", {}, t("sheet"))];
  for (const player of sheet) {
    const rows = player.rows.filter((r) => r.written || r.word).map((r) => el("tr", {},
      el("td", {}, r.round + " " + r.letter),
      el("td", { class: r.status === "struck" ? "struck" : "" }, r.word || r.written || "–"),
      el("td", { class: "n small" }, r.word ? `${r.valid}+${r.length}+${r.hits}` : ""),
      el("td", { class: "n" }, r.points)));
    rows.unshift(el("tr", {}, el("th", {}), el("th", {}), el("th", { class: "n small" }, t("breakdown")),
      el("th", { class: "n" }, t("points"))));
    rows.push(el("tr", {}, el("td", {}, t("vowels")), el("td", {}), el("td", {}), el("td", { class: "n" }, player.vowels)));
    rows.push(el("tr", {}, el("td", {}, t("bonus")), el("td", {}), el("td", {}), el("td", { class: "n" }, player.bonus)));
    rows.push(el("tr", { class: "winner" }, el("td", {}, t("total")), el("td", {}), el("td", {}),
      el("td", { class: "n" }, player.total)));
    parts.push(el("h2", { class: player.winner ? "winner" : "" }, player.name), el("table", {}, ...rows));
    const marked = (player.fields || []).filter((f) => f.mark !== "open");
    if (marked.length) {
      parts.push(el("div", { class: "fields", title: t("fields") },
        ...marked.map((f) => el("span", { class: f.mark }, f.field + (f.round ? " (" + f.round + ")" : "")))));
    }
  }
  box.replaceChildren(...parts);
}

function renderBoard(v) {
  const box = $("board");
  const show = !v.game;
  box.hidden = !show;
  if (!show) return;
  box.replaceChildren(el("h2", {}, t("board")), el("table", {},
    ...v.board.map((row) => el("tr", {}, el("td", {}, row.name), el("td", { class: "n" }, row.total)))));
}

function sendEntry(template) {
  if (!view || view.seat === null || !socket || socket.readyState !== WebSocket.OPEN) return;
  const text = template.replace("{text}", $("word").value.trim());
  socket.send(JSON.stringify({ type: "entry", seat: view.seat, text }));
}

function command(name, value) {
  if (!view || !mineOf(view) || !socket || socket.readyState !== WebSocket.OPEN) return;
  // a person's phone: the box takes the person's seat, whatever seat is sent
  socket.send(JSON.stringify({ type: "command", seat: view.seat ?? 0, command: name, value: String(value) }));
}

function options(select, entries) {
  const chosen = entries.find((e) => e[2]);
  select.replaceChildren(...entries.map(([key, label]) => el("option", { value: key }, label)));
  if (chosen) select.value = chosen[0];
}

// Without a game: the sand timer and the own seat on the free scoreboard; the menu's settings at any time
// (their titles and options are the box's menu, from the view).
function renderControls(v) {
  const seated = mineOf(v);
  const controls = v.controls || {};
  $("controls").hidden = !seated || !!v.game;
  $("past").hidden = !seated || !!v.game;
  if (!$("controls").hidden && controls.length) options($("length"), controls.length.options);
  const box = $("settings");
  box.hidden = !seated;
  if (!seated) return;
  const focused = document.activeElement && box.contains(document.activeElement);
  if (focused) return; // not while a choice is being made
  box.replaceChildren(...["lang", "volume", "warn"].filter((k) => controls[k]).map((k) => {
    const select = el("select", { "data-setting": k });
    options(select, controls[k].options);
    select.onchange = () => command(k, select.value);
    return el("label", { class: "setting" }, el("span", {}, controls[k].title), select);
  }));
}

// A seated phone shows the join QR (the box's, with the table code) to a newcomer; others cannot fetch it.
function renderInvite(seated) {
  $("invite").hidden = !seated;
  if (!seated) showInvite(false);
  $("inviteopen").textContent = t($("inviteqr").hidden ? "invite" : "invite_close");
  $("inviteqr").alt = t("invite_alt");
}

function showInvite(open) {
  const qr = $("inviteqr");
  if (open) qr.src = `/api/join-qr.svg?at=${Date.now()}`; // fetched anew: a renewed code shows at once
  else qr.removeAttribute("src");
  qr.hidden = !open;
  $("inviteopen").textContent = t(open ? "invite_close" : "invite");
}

async function pastGames() {
  const response = await fetch("/api/games", { credentials: "same-origin" });
  const answer = await response.json().catch(() => ({ error: "http_" + response.status }));
  if (answer.error) { showError(answer.error); return; }
  const list = $("pastlist");
  if (!answer.games.length) { list.replaceChildren(el("p", {}, t("no_games"))); return; }
  list.replaceChildren(el("table", {}, ...answer.games.map((g) => {
    const sheet = el("button", { type: "button", "data-game": String(g.id) }, t("sheet_of"));
    sheet.onclick = () => pastSheet(g.id);
    const link = el("a", { href: `/api/games/${g.id}/record`, download: "" }, t("download"));
    const bgstats = el("a", { href: `/api/games/${g.id}/bgstats` }, "BG Stats"); // its import dialog, on a phone with the app
    const who = g.finished ? (g.winner ? "★ " + g.winner : "") : t("open_game");
    return el("tr", {}, el("td", {}, `${g.title} · ${g.date.slice(0, 10)}`, el("br"), g.players.join(", "), el("br"), who),
      el("td", {}, sheet, el("br"), link, el("br"), bgstats));
  })));
}

async function pastSheet(id) {
  const response = await fetch(`/api/games/${id}`, { credentials: "same-origin" });
  const answer = await response.json().catch(() => ({ error: "http_" + response.status }));
  if (answer.error) { showError(answer.error); return; }
  $("pastsheet").hidden = false;
  $("pastsheet").textContent = `${answer.title}\n${answer.text}`;
}

function format(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  if (!view) return;
  const timer = view.timer;
  const left = deadline !== null ? (deadline - performance.now()) / 1000 : (timer.left ?? timer.duration);
  const shown = $("timer");
  shown.textContent = format(left);
  shown.classList.toggle("done", timer.alarmed || left <= 0);
  $("sand").style.transform = `scaleX(${Math.max(0, Math.min(1, left / (duration || 1)))})`;
}

function frame() {
  tick();
  if (deadline !== null) requestAnimationFrame(frame); else setTimeout(() => requestAnimationFrame(frame), 250);
}

document.addEventListener("DOMContentLoaded", () => {
  translate();
  $("code").value = tableCode();
  if (tableCode()) history.replaceState(null, "", "/"); // the code does not stay in the address bar
  $("byname").onsubmit = (event) => { event.preventDefault(); join({ name: $("name").value.trim() }); };
  $("entryform").onsubmit = (event) => {
    event.preventDefault();
    const first = ask && ask.actions && ask.actions.length ? ask.actions[0].send : "{text}";
    sendEntry(first);
  };
  for (const button of document.querySelectorAll("[data-command]")) {
    button.onclick = () => command(button.dataset.command, button.dataset.value);
  }
  $("length").onchange = () => command("length", $("length").value);
  $("pointsform").onsubmit = (event) => { event.preventDefault(); command("points", $("points").value.trim()); $("points").value = ""; };
  $("nameform").onsubmit = (event) => { event.preventDefault(); command("name", $("newname").value.trim()); };
  $("pastopen").onclick = pastGames;
  $("inviteopen").onclick = () => showInvite($("inviteqr").hidden);
  $("inviteqr").onerror = () => { if ($("inviteqr").getAttribute("src")) { showInvite(false); showError("no_seat"); } };
  connect();
  frame();
});
