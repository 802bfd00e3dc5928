// What every page of the box shares, loaded before the page's own script (the pages' head: TEMPLATE in
// firmware_host/web.py; each folder's pages.json names a page's scripts and texts): the page's texts (its
// data block #texts: {de: {key: text}, en: …}), the language they are shown in, and the helpers that build
// the page, show the box's refusals and ask the box for JSON.
"use strict";

const TEXT = JSON.parse(document.getElementById("texts").textContent);
const $ = (id) => document.getElementById(id);
let lang = (navigator.language || "de").startsWith("de") ? "de" : "en";

// The text of `key` in `lang` (the German one where it has none), each "{name}" filled from `fields`.
function t(key, fields = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) || TEXT.de[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(fields[k] ?? ""));
}

// A new element: its attributes ("class" is its class name), then its children (nodes, or text).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// The page in `lang`: the text of every [data-t] element, the placeholder of every [data-ph] field.
function translate() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-ph]")) node.placeholder = t(node.dataset.ph);
}

// What the page says to a refusal of the box: its text "e_<reason>", or the default one naming `reason`.
function refusal(reason, fields = {}) {
  const key = "e_" + reason;
  return TEXT.de[key] ? t(key, fields) : t("e_default", { r: reason });
}

// The refusal `reason` shown in #error; no reason hides it.
function showError(reason, fields = {}) {
  const box = $("error");
  if (!reason) { box.hidden = true; return; }
  box.textContent = refusal(reason, fields);
  box.hidden = false;
}

// The box's JSON answer to `path` (fetch `options`, with the page's cookies); an answer that is not JSON
// is {error: "http_<status>"}.
async function request(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  return response.json().catch(() => ({ error: "http_" + response.status }));
}

// POST `body` as JSON to `path`: the box's answer as `request` gives it.
function postJson(path, body) {
  return request(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}
