// The people page: statistics per person from the box's journal (GET /api/people, /api/people/{name}).
// Shows what the box computed (firmware_host/core/history); nothing is counted here.
"use strict";

const TEXT = {
  de: {
    title: "Wer spielt", back: "Zurück zum Tisch", people: "Personen", evenings: "Die letzten Abende",
    name: "Name", games: "Spiele", wins: "Siege", streak: "Serie", game: "Spiel", average: "Schnitt",
    best: "Bestes", best_word: "Bestes Wort", think: "Denkzeit (Zugzeit): {t} min", rivals: "Gegner",
    together: "{n} zusammen", score: "{a} : {b}", none: "Noch keine beendeten Spiele.",
    evening: "{d} · {n} Spiele", streak_line: "{n}. Sieg in Folge", all: "Alle Personen",
    e_no_seat: "Erst am Tisch einen Platz wählen.", e_no_person: "Diese Person hat noch kein Spiel beendet.",
    e_journal: "Das Journal ist nicht lesbar.", e_default: "Abgelehnt ({r}).",
  },
  en: {
    title: "Who plays", back: "Back to the table", people: "People", evenings: "The recent evenings",
    name: "Name", games: "Games", wins: "Wins", streak: "Streak", game: "Game", average: "Average",
    best: "Best", best_word: "Best word", think: "Think time (turn timer): {t} min", rivals: "Rivals",
    together: "{n} together", score: "{a} : {b}", none: "No finished games yet.",
    evening: "{d} · {n} games", streak_line: "{n} wins in a row", all: "Everyone",
    e_no_seat: "Pick a seat at the table first.", e_no_person: "This person has not finished a game yet.",
    e_journal: "The journal cannot be read.", e_default: "Refused ({r}).",
  },
};

const $ = (id) => document.getElementById(id);
let lang = (navigator.language || "de").startsWith("de") ? "de" : "en";
let titles = {};

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
}

function row(cells, head = false) {
  return el("tr", {}, ...cells.map(([text, numeric]) => el(head ? "th" : "td", numeric ? { class: "n" } : {}, text)));
}

function shown(value) { return value === null || value === undefined ? "–" : String(value); }

async function fetchJson(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  const answer = await response.json().catch(() => ({ error: "http_" + response.status }));
  $("error").hidden = !answer.error;
  if (answer.error) {
    $("error").textContent = TEXT.de["e_" + answer.error] ? t("e_" + answer.error) : t("e_default", { r: answer.error });
    return null;
  }
  if (answer.lang && answer.lang !== lang) { lang = answer.lang; translate(); }
  titles = answer.titles || titles;
  return answer;
}

function personLink(name) {
  const link = el("a", { href: "#" + encodeURIComponent(name) }, name);
  return link;
}

function showEvenings(list) {
  const box = $("evenings");
  box.hidden = !list.length;
  box.replaceChildren(el("h2", {}, t("evenings")), ...list.map((e) => el("p", {},
    el("b", {}, t("evening", { d: e.started.slice(0, 16).replace("T", " "), n: e.games.length })), el("br"),
    ...e.people.flatMap((name, i) => [i ? ", " : "", personLink(name), ` ${e.wins[name]}`]))));
}

async function showPeople() {
  const answer = await fetchJson("/api/people");
  if (!answer) return;
  $("person").hidden = true;
  const box = $("people");
  box.hidden = false;
  if (!answer.people.length) { box.replaceChildren(el("p", {}, t("none"))); showEvenings([]); return; }
  box.replaceChildren(el("h2", {}, t("people")), el("table", {},
    row([[t("name")], [t("games"), true], [t("wins"), true], [t("streak"), true]], true),
    ...answer.people.map((p) => el("tr", {}, el("td", {}, personLink(p.name)), el("td", { class: "n" }, p.played),
      el("td", { class: "n" }, p.won), el("td", { class: "n" }, p.streak)))));
  showEvenings(answer.evenings);
}

async function showPerson(name) {
  const answer = await fetchJson("/api/people/" + encodeURIComponent(name));
  if (!answer) return;
  $("people").hidden = true;
  const box = $("person");
  box.hidden = false;
  const scored = answer.games.filter((g) => g.think_time === null);
  const timed = answer.games.filter((g) => g.think_time !== null);
  const parts = [el("h2", {}, answer.name), el("p", {}, `${answer.played} ${t("games")} · ${answer.won} ${t("wins")}`
    + (answer.streak > 1 ? " · " + t("streak_line", { n: answer.streak }) : ""))];
  if (scored.length) {
    parts.push(el("table", {}, row([[t("game")], [t("games"), true], [t("wins"), true], [t("average"), true],
      [t("best"), true], [t("best_word")]], true), ...scored.map((g) => row([[titles[g.game] || g.game],
      [g.played, true], [g.with_winner ? g.won : "–", true], [shown(g.average), true], [shown(g.best_total), true],
      [g.best_word ? `${g.best_word.word} (${g.best_word.points})` : "–"]]))));
  }
  for (const g of timed) parts.push(el("p", {}, t("think", { t: g.think_time })));
  if (answer.rivals.length) {
    parts.push(el("h2", {}, t("rivals")), el("table", {}, ...answer.rivals.map((r) => el("tr", {},
      el("td", {}, personLink(r.name)), el("td", {}, t("together", { n: r.together })),
      el("td", { class: "n" }, t("score", { a: r.wins, b: r.their_wins }))))));
  }
  parts.push(el("p", {}, el("a", { href: "#" }, t("all"))));
  box.replaceChildren(...parts);
  showEvenings(answer.evenings);
}

function route() {
  const name = decodeURIComponent(location.hash.slice(1));
  if (name) showPerson(name); else showPeople();
}

document.addEventListener("DOMContentLoaded", () => {
  translate();
  window.addEventListener("hashchange", route);
  route();
});
