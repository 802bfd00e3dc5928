// The people page: statistics per person from the box's journal (GET /api/people, /api/people/{name}).
// Shows what the box computed (firmware_host/core/history); nothing is counted here. Its texts:
// people.texts.json; t, el, translate, showError and request: common.js.
"use strict";

let titles = {};

function row(cells, head = false) {
  return el("tr", {}, ...cells.map(([text, numeric]) => el(head ? "th" : "td", numeric ? { class: "n" } : {}, text)));
}

function shown(value) { return value === null || value === undefined ? "–" : String(value); }

async function fetchJson(path) {
  const answer = await request(path);
  showError(answer.error);
  if (answer.error) return null;
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
