// The league's live board: every table's game, players, scores and sand timer; the evening's and the
// season's standings; the evening's games, each a link to its sheet. Fed by the league's WebSocket.
"use strict";

const TEXT = {
  de: { evening: "Heute Abend", season: "Saison", recent: "Spiele heute Abend", table: "Tisch", game: "Spiel", games: "Spiele",
        played: "Sp.", wins: "Siege", average: "Schnitt", words: "Beste Wörter", rounds: "Beste Runden",
        online: "verbunden", offline: "getrennt", idle: "frei", round: "Runde", none: "Noch keine Spiele.",
        problem: "nicht wertbar", timer: "Sanduhr", scoreboard: "Punkte" },
  en: { evening: "Tonight", season: "Season", recent: "Tonight's games", table: "Table", game: "game", games: "games",
        played: "pl.", wins: "wins", average: "avg", words: "Best words", rounds: "Best rounds",
        online: "connected", offline: "disconnected", idle: "free", round: "round", none: "No games yet.",
        problem: "does not score", timer: "Sand timer", scoreboard: "Scores" },
};

const board = { lang: "de", offset: 0, tables: new Map(), titles: {}, games: [], standings: null, view: "evening" };
const t = (key) => (TEXT[board.lang] || TEXT.de)[key];
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
};

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
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

function tableCard(live) {
  const state = live.state || {};
  const timer = state.timer || {};
  const card = el("article", { class: `table ${live.online ? "" : "offline"}`, id: `table-${live.table}`,
                               "data-table": live.table });
  card.append(el("h3", {}, `${t("table")} ${live.table}`,
                 el("span", { class: `dot ${live.online ? "online" : "offline"}` }, live.online ? "●" : "○")));
  const game = live.title || (state.mode === "scoreboard" ? t("scoreboard") : state.mode === "timer" ? t("timer") : t("idle"));
  card.append(el("p", { class: "game" }, game));
  card.append(el("div", { class: `timer ${timer.running ? "running" : ""} ${timer.alarmed ? "alarmed" : ""}` },
                 timerText(live)));
  const rows = el("table", { class: "players" });
  for (const player of state.players || []) {
    rows.append(el("tr", {}, el("td", {}, player.name), el("td", { class: "num score" }, String(player.total))));
  }
  card.append(rows);
  return card;
}

function drawTables() {
  const box = document.getElementById("tables");
  const names = [...board.tables.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  box.replaceChildren(...names.map((name) => tableCard(board.tables.get(name))));
}

function tick() {
  for (const [name, live] of board.tables) {
    const node = document.querySelector(`#table-${CSS.escape(name)} .timer`);
    if (node) node.textContent = timerText(live);
  }
}

function drawStandings() {
  document.getElementById("show-evening").textContent = t("evening");
  document.getElementById("show-season").textContent = t("season");
  document.getElementById("show-evening").className = board.view === "evening" ? "chosen" : "";
  document.getElementById("show-season").className = board.view === "season" ? "chosen" : "";
  const box = document.getElementById("standing-tables");
  const standings = (board.standings || {})[board.view] || {};
  const parts = [];
  for (const [game, entry] of Object.entries(standings)) {
    const part = el("div", { class: "standing", "data-game": game });
    part.append(el("h2", {}, `${board.titles[game] || game} · ${entry.games} ${t(entry.games === 1 ? "game" : "games")}`));
    const table = el("table", {}, el("tr", {}, el("th", {}, ""), el("th", { class: "num" }, t("played")),
                     el("th", { class: "num" }, t("wins")), el("th", { class: "num" }, t("average"))));
    for (const row of entry.players) {
      table.append(el("tr", {}, el("td", {}, row.player), el("td", { class: "num" }, String(row.played)),
                      el("td", { class: "num" }, String(row.wins)), el("td", { class: "num" }, row.average.toFixed(1))));
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
    parts.push(part);
  }
  box.replaceChildren(...parts);
}

function drawGames() {
  document.getElementById("recent-title").textContent = t("recent");
  const list = document.getElementById("games");
  if (!board.games.length) { list.replaceChildren(el("li", {}, t("none"))); return; }
  list.replaceChildren(...board.games.slice().reverse().map((game) => {
    const label = `${t("table")} ${game.table}: ${game.title} — ${(game.winners || []).join(", ")}`;
    const item = el("li", {}, el("a", { href: `/game/${encodeURIComponent(game.id)}`, class: "sheet-link" }, label));
    if (game.problem) item.append(" ", el("span", { class: "problem" }, t("problem")));
    return item;
  }));
}

function take(message) {
  if (typeof message.now === "number") board.offset = message.now - Date.now() / 1000;
  if (message.type === "hello") {
    board.lang = message.lang || "de";
    document.documentElement.lang = board.lang;
    document.getElementById("venue").textContent = message.venue;
    board.titles = message.titles || {};
    board.tables = new Map(message.tables.map((live) => [live.table, live]));
    board.games = message.games || [];
    board.standings = message.standings;
    drawTables(); drawStandings(); drawGames();
  } else if (message.type === "table") {
    board.tables.set(message.table, message);
    drawTables();
  } else if (message.type === "gone") {
    board.tables.delete(message.table);
    drawTables();
  } else if (message.type === "game") {
    if (message.game) board.games.push(message.game);
    drawGames();
  } else if (message.type === "standings") {
    board.standings = message.standings;
    drawStandings();
  }
}

function connect() {
  const link = document.getElementById("link");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { link.textContent = t("online"); link.className = "online"; };
  socket.onmessage = (event) => take(JSON.parse(event.data));
  socket.onclose = () => { link.textContent = t("offline"); link.className = "offline"; setTimeout(connect, 1000); };
}

document.getElementById("show-evening").onclick = () => { board.view = "evening"; drawStandings(); };
document.getElementById("show-season").onclick = () => { board.view = "season"; drawStandings(); };
setInterval(tick, 200);
connect();
