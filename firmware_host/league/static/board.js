// The league's live board: every table's game, players, scores and sand timer; the evening's and the
// season's standings; the evening's games, each a link to its sheet. Fed by the league's WebSocket.
//
// Contract (docs/league-board.md): a table's message redraws that table's card only (in place), the
// changed cards and the running timers together every FRAME_MS; a card that cannot be drawn (or a table
// the league marked invalid) becomes a card that names the table and says what is wrong, and every other
// card, the standings and the games stay.
// `?tv=1` pages through the tables, the standings and tonight's games in large type (a café's TV).
"use strict";

const TEXT = {
  de: { evening: "Heute Abend", season: "Saison", recent: "Spiele heute Abend", table: "Tisch", game: "Spiel", games: "Spiele",
        played: "Sp.", wins: "Siege", average: "Schnitt", words: "Beste Wörter", rounds: "Beste Runden",
        online: "verbunden", offline: "getrennt", idle: "frei", round: "Runde", none: "Noch keine Spiele.",
        problem: "nicht wertbar", timer: "Sanduhr", scoreboard: "Punkte", bad: "Fehlerhafte Daten",
        badTables: "Fehlerhafte Tische", turns: "Züge", perTurn: "Ø Zug", longest: "Längster", thought: "Gesamt",
        tables: "Tische", of: "von", standings: "Tabelle" },
  en: { evening: "Tonight", season: "Season", recent: "Tonight's games", table: "Table", game: "game", games: "games",
        played: "pl.", wins: "wins", average: "avg", words: "Best words", rounds: "Best rounds",
        online: "connected", offline: "disconnected", idle: "free", round: "round", none: "No games yet.",
        problem: "does not score", timer: "Sand timer", scoreboard: "Scores", bad: "Malformed data",
        badTables: "Malformed tables", turns: "turns", perTurn: "avg turn", longest: "longest", thought: "total",
        tables: "Tables", of: "of", standings: "Standings" },
};

const TV = new URLSearchParams(location.search).get("tv") === "1";
const TV_PAGE_S = 10; // seconds each TV page stays
const TV_CARDS = 15; // cards on a TV page (5 × 3 at 1920×1080)
const GAMES_KEPT = 100; // the list of tonight's games keeps the newest this many
const FRAME_MS = 250; // changed cards and running timers are redrawn together this often: one layout each

const board = { lang: "de", offset: 0, tables: new Map(), cards: new Map(), names: [], dirty: new Map(),
                bad: new Map(), running: new Set(), titles: {}, timed: new Set(), games: [], standings: null,
                view: "evening", tvPage: 0, tvShown: new Set() };
const t = (key) => (TEXT[board.lang] || TEXT.de)[key];
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
};
const byName = (a, b) => a.localeCompare(b, undefined, { numeric: true });

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// milliseconds thought as m:ss, the seconds cut (as `wordtable stats` shows think time)
function thought(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function now() { return Date.now() / 1000 + board.offset; }

function timerText(live) {
  const timer = (live.state || {}).timer;
  if (!timer) return "";
  if (timer.running && live.deadline != null) return clock(live.deadline - now());
  if (timer.left != null) return clock(timer.left);
  return clock(timer.duration || 0);
}

// -- the tables' cards ------------------------------------------------------------------------------

function tableCard(live) {
  const state = live.state || {};
  const timer = state.timer || {};
  const card = el("div", { class: "inside" });
  card.append(el("h3", {}, `${t("table")} ${live.table}`,
                 el("span", { class: `dot ${live.online ? "online" : "offline"}` }, live.online ? "●" : "○")));
  const game = live.title || (state.mode === "scoreboard" ? t("scoreboard") : state.mode === "timer" ? t("timer") : t("idle"));
  card.append(el("p", { class: "game" }, String(game)));
  card.append(el("div", { class: `timer ${timer.running ? "running" : ""} ${timer.alarmed ? "alarmed" : ""}` },
                 timerText(live)));
  const timed = board.timed.has(state.game);
  const rows = el("table", { class: (state.players || []).length > 4 ? "players many" : "players" });
  for (const player of state.players || []) {
    const total = timed ? thought(player.total) : String(player.total);
    rows.append(el("tr", {}, el("td", {}, String(player.name)), el("td", { class: "num score" }, total)));
  }
  card.append(rows);
  if (live.invalid) throw new Error(live.invalid);
  return el("article", { class: `table ${live.online ? "" : "offline"}`, id: `table-${live.table}`,
                         "data-table": live.table }, card);
}

function badCard(name, why) {
  return el("article", { class: "table bad", id: `table-${name}`, "data-table": name },
            el("div", { class: "inside" }, el("h3", {}, `${t("table")} ${name}`),
               el("p", { class: "problem" }, t("bad")), el("p", { class: "why" }, String(why))));
}

// One card drawn on its own: whatever it holds, a failure stays in this card.
function drawCard(name) {
  const live = board.tables.get(name);
  let card;
  try {
    card = tableCard(live);
    board.bad.delete(name);
  } catch (error) {
    card = badCard(name, (error && error.message) || error);
    board.bad.set(name, card.querySelector(".why").textContent);
  }
  const timer = ((live.state || {}).timer) || {};
  if (timer.running && !board.bad.has(name)) board.running.add(name); else board.running.delete(name);
  return card;
}

// `old` made like `fresh` where they differ, in place (a card keeps its node: its grid is not laid out
// again); a node of another kind, or children of another count, are replaced.
function patch(old, fresh) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return;
  }
  for (const { name, value } of fresh.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  const before = old.childNodes, after = fresh.childNodes;
  const same = before.length === after.length &&
    [...before].every((node, i) => node.nodeType === after[i].nodeType && node.nodeName === after[i].nodeName);
  if (!same) { old.replaceChildren(...after); return; }
  for (let i = 0; i < before.length; i++) patch(before[i], after[i]);
}

function insertAt(name) {
  let low = 0, high = board.names.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (byName(board.names[mid], name) < 0) low = mid + 1; else high = mid;
  }
  board.names.splice(low, 0, name);
  return low;
}

// The names of the cards on the screen: the TV's page, or the cards of the full board in the window
// (cards have one height, so their tops rise with their order: two binary searches).
function onScreen() {
  if (TV) return board.tvShown;
  const names = board.names;
  const rect = (i) => board.cards.get(names[i]).getBoundingClientRect();
  const first = (test) => {
    let low = 0, high = names.length;
    while (low < high) { const mid = (low + high) >> 1; if (test(rect(mid))) high = mid; else low = mid + 1; }
    return low;
  };
  return new Set(names.slice(first((r) => r.bottom >= 0), first((r) => r.top > innerHeight)));
}

// A changed card off the screen is only judged (is it bad?) and stays due: it is redrawn when it comes
// on the screen, so the browser lays out what is seen, not every card of a thousand.
function flush(shown) {
  const box = document.getElementById("tables");
  for (const [name, judged] of board.dirty) {
    const old = board.cards.get(name);
    if (!board.tables.has(name)) {
      if (old) old.remove();
      board.cards.delete(name);
      board.bad.delete(name);
      board.running.delete(name);
      const at = board.names.indexOf(name);
      if (at >= 0) board.names.splice(at, 1);
      board.dirty.delete(name);
      continue;
    }
    if (old && !shown.has(name)) {
      if (!judged) { drawCard(name); board.dirty.set(name, true); }
      continue;
    }
    board.dirty.delete(name);
    const card = drawCard(name);
    if (old) {
      if (TV) card.hidden = old.hidden;
      patch(old, card);
      continue;
    }
    if (TV) card.hidden = !shown.has(name);
    const at = insertAt(name);
    box.insertBefore(card, board.cards.get(board.names[at + 1]) || null);
    board.cards.set(name, card);
  }
  drawBad();
}

function frame() {
  const shown = onScreen();
  if (board.dirty.size) flush(shown);
  tick(shown);
}

function drawAllTables() {
  const box = document.getElementById("tables");
  board.names = [...board.tables.keys()].sort(byName);
  board.cards.clear(); board.bad.clear(); board.running.clear(); board.dirty.clear();
  const cards = board.names.map((name) => { const card = drawCard(name); board.cards.set(name, card); return card; });
  if (TV) for (const card of cards) card.hidden = true;
  board.tvShown = new Set();
  box.replaceChildren(...cards);
  drawBad();
}

function drawBad() {
  const line = document.getElementById("bad");
  const names = [...board.bad.keys()].sort(byName);
  const text = names.length ? `${t("badTables")}: ${names.join(", ")}` : "";
  if (line.textContent === text) return; // an unchanged line lays nothing out again
  line.hidden = !names.length;
  line.textContent = text;
}

function tick(shown) {
  for (const name of board.running) {
    const card = board.cards.get(name);
    if (!card || !shown.has(name)) continue;
    const node = card.querySelector(".timer");
    const text = timerText(board.tables.get(name));
    if (node && node.textContent !== text) node.textContent = text;
  }
}

// -- standings and games ----------------------------------------------------------------------------

function standingPart(game, entry) {
  const part = el("div", { class: "standing", "data-game": game });
  part.append(el("h2", {}, `${board.titles[game] || game} · ${entry.games} ${t(entry.games === 1 ? "game" : "games")}`));
  const timed = entry.kind === "time";
  const heads = timed ? ["played", "turns", "perTurn", "longest", "thought"] : ["played", "wins", "average"];
  const table = el("table", {}, el("tr", {}, el("th", {}, ""), ...heads.map((key) => el("th", { class: "num" }, t(key)))));
  for (const row of entry.players) {
    const cells = timed
      ? [String(row.played), String(row.turns), row.average_ms == null ? "–" : thought(row.average_ms),
         thought(row.longest_ms), thought(row.total_ms)]
      : [String(row.played), String(row.wins), row.average.toFixed(1)];
    table.append(el("tr", {}, el("td", {}, String(row.player)), ...cells.map((cell) => el("td", { class: "num" }, cell))));
  }
  part.append(table);
  if (entry.best && entry.best.entries.length) {
    const best = el("ol", { class: "best" });
    for (const item of entry.best.entries.slice(0, 5)) {
      const label = entry.best.kind === "rounds" ? `${item.player}, ${t("round")} ${item.round}: ${item.entry}`
                                                 : `${item.entry} (${item.player})`;
      best.append(el("li", {}, el("a", { href: `/game/${encodeURIComponent(item.id)}` }, `${label} · ${item.points}`)));
    }
    part.append(el("p", { class: "best" }, t(entry.best.kind)), best);
  }
  return part;
}

function drawStandings() {
  document.getElementById("show-evening").textContent = t("evening");
  document.getElementById("show-season").textContent = t("season");
  document.getElementById("show-evening").className = board.view === "evening" ? "chosen" : "";
  document.getElementById("show-season").className = board.view === "season" ? "chosen" : "";
  const standings = (board.standings || {})[board.view] || {};
  const parts = [];
  for (const [game, entry] of Object.entries(standings)) {
    try { parts.push(standingPart(game, entry)); } catch (error) { console.error("standings", game, error); }
  }
  document.getElementById("standing-tables").replaceChildren(...parts);
  if (TV) showTvPage();
}

function gameItem(game) {
  const label = `${t("table")} ${game.table}: ${game.title} — ${(game.winners || []).join(", ")}`;
  const item = el("li", {}, el("a", { href: `/game/${encodeURIComponent(game.id)}`, class: "sheet-link" }, label));
  if (game.problem) item.append(" ", el("span", { class: "problem" }, t("problem")));
  return item;
}

function drawGames() {
  document.getElementById("recent-title").textContent = t("recent");
  const list = document.getElementById("games");
  const items = [];
  for (const game of board.games.slice(-GAMES_KEPT).reverse()) {
    try { items.push(gameItem(game)); } catch (error) { console.error("game", error); }
  }
  list.replaceChildren(...(items.length ? items : [el("li", { class: "none" }, t("none"))]));
}

function addGame(game) {
  board.games.push(game);
  if (board.games.length > GAMES_KEPT) board.games.shift();
  const list = document.getElementById("games");
  let item;
  try { item = gameItem(game); } catch (error) { console.error("game", error); return; }
  const none = list.querySelector(".none");
  if (none) none.remove();
  list.prepend(item);
  while (list.children.length > GAMES_KEPT) list.lastChild.remove();
}

// -- the TV: one page at a time -----------------------------------------------------------------------

function tvPages() {
  const pages = [];
  for (let first = 0; first < board.names.length; first += TV_CARDS) pages.push({ section: "tables", first });
  const standings = (board.standings || {}).evening || {};
  for (const game of Object.keys(standings)) pages.push({ section: "standings", game });
  pages.push({ section: "recent" });
  return pages;
}

function showTvPage() {
  const pages = tvPages();
  const page = pages[board.tvPage % pages.length];
  document.body.dataset.section = page.section;
  let label = t(page.section === "tables" ? "tables" : page.section === "standings" ? "standings" : "recent");
  const shown = new Set(page.section === "tables" ? board.names.slice(page.first, page.first + TV_CARDS) : []);
  for (const name of board.tvShown) if (!shown.has(name) && board.cards.has(name)) board.cards.get(name).hidden = true;
  for (const name of shown) board.cards.get(name).hidden = false;
  board.tvShown = shown;
  if (page.section === "tables") {
    label += ` ${page.first + 1}–${page.first + shown.size} ${t("of")} ${board.names.length}`;
  }
  for (const part of document.querySelectorAll("#standing-tables .standing")) {
    part.hidden = page.section !== "standings" || part.dataset.game !== page.game;
  }
  document.getElementById("page").textContent = label;
  frame();
}

function turnTvPage() {
  board.tvPage = (board.tvPage + 1) % tvPages().length;
  showTvPage();
}

// -- messages -----------------------------------------------------------------------------------------

function take(message) {
  if (typeof message.now === "number") board.offset = message.now - Date.now() / 1000;
  if (message.type === "hello") {
    board.lang = message.lang || "de";
    document.documentElement.lang = board.lang;
    document.getElementById("venue").textContent = message.venue;
    board.titles = message.titles || {};
    board.timed = new Set(message.timed || []);
    board.tables = new Map((message.tables || []).map((live) => [String(live.table), live]));
    board.games = message.games || [];
    board.standings = message.standings;
    drawAllTables(); drawStandings(); drawGames();
    if (TV) showTvPage();
  } else if (message.type === "table") {
    board.tables.set(String(message.table), message);
    board.dirty.set(String(message.table), false);
  } else if (message.type === "gone") {
    board.tables.delete(String(message.table));
    board.dirty.set(String(message.table), false);
  } else if (message.type === "game") {
    if (message.game) addGame(message.game);
  } else if (message.type === "standings") {
    board.standings = message.standings;
    drawStandings();
  }
}

function connect() {
  const link = document.getElementById("link");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { link.textContent = t("online"); link.className = "online"; };
  socket.onmessage = (event) => {
    try { take(JSON.parse(event.data)); } catch (error) { console.error("message", error); }
  };
  socket.onclose = () => { link.textContent = t("offline"); link.className = "offline"; setTimeout(connect, 1000); };
}

if (TV) document.body.classList.add("tv");
document.getElementById("show-evening").onclick = () => { board.view = "evening"; drawStandings(); };
document.getElementById("show-season").onclick = () => { board.view = "season"; drawStandings(); };
setInterval(frame, FRAME_MS);
if (TV) setInterval(turnTvPage, TV_PAGE_S * 1000);
connect();
