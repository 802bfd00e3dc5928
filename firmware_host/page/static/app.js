// The table page: shows the view the box sends for this phone's seat and sends what the stage asks.
// No game logic here: the box decides (see firmware_host/core/page_view.py). Its texts: app.texts.json;
// t, el, translate, showError and request: common.js.
"use strict";

let view = null;
let socket = null;
let retry = 500;
let deadline = null; // performance.now() milliseconds when the running timer ends
let duration = 60;

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
  const answer = await postJson("/api/join", { code: $("code").value.trim(), ...body });
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
  renderLines("best", play.best_title || t("best"), play.best);
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
  renderAtTable(v, play);
  renderClock(v, play);
  keepAwake(Boolean(v.game));
  tick();
}

// What the box is busy with that this phone has no part in (its menu, a game being set up), in words; while
// a game is set up also the seats chosen so far.
function renderAtTable(v, play) {
  $("attable").hidden = !v.at_table;
  $("attable").textContent = v.at_table || "";
  const setup = play.stage === "setup" && v.players.length > 0;
  $("setup").hidden = !setup;
  if (setup) {
    $("setup").replaceChildren(el("h2", {}, t("players")),
      el("ol", {}, ...v.players.map((name, i) => el("li", {}, i === 0 ? t("starts", { name }) : name))));
  }
}

// The sand timer shows without a game, and in a game that runs it (Das perfekte Wort's minute, Zugzeit's
// turn: the view's `sand`) or once it was started, unless the game says it is done with it (`sand` false);
// a turn clock names the player whose clock it is
// (`clock_of`) and counts on below zero.
function renderClock(v, play) {
  const timer = v.timer;
  const used = timer.running || timer.alarmed || (timer.left !== null && timer.left < timer.duration);
  $("clock").hidden = Boolean(v.game) && (play.sand === false || (!play.sand && !used));
  $("clockname").hidden = !play.clock_of;
  $("clockname").textContent = play.clock_of ? t("clock_of", { name: play.clock_of }) : "";
}

// The screen stays on while a game runs (the minute, a turn): a wake lock, taken again when the page shows
// again (the browser drops it when the page is hidden).
let wakeLock = null;
let wantAwake = false;

async function keepAwake(on) {
  wantAwake = on;
  if (!on) {
    if (wakeLock) { const lock = wakeLock; wakeLock = null; lock.release().catch(() => {}); }
    return;
  }
  if (wakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch (error) {
    wakeLock = null; // refused (battery saver, no user gesture yet): the next view asks again
  }
}

document.addEventListener("visibilitychange", () => { if (wantAwake) keepAwake(true); });

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
  entry.classList.toggle("turn", Boolean(ask && ask.kind === "turn"));
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
  $("tables").replaceChildren(...(tables || []).filter((table) => table.rows.length > 0).map((table) => {
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
    rows.unshift(el("tr", {}, el("th", {}), el("th", {}), el("th", {}), el("th", { class: "n" }, t("points"))));
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
  if (sheet.some((player) => player.rows.some((r) => r.word))) parts.push(el("p", { class: "legend" }, t("breakdown")));
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
  const answer = await request("/api/games");
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
  const answer = await request(`/api/games/${id}`);
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
  const over = Boolean(view.play && view.play.clock_of) && left < 0; // a turn clock counts on past its zero
  shown.textContent = over ? "−" + format(-left) : format(left);
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
