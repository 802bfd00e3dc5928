// The virtual box: polls /box/state, shows the frame, LED bar and sound; buttons drive the mock pins.
// Its texts: box.texts.json; t, translate and postJson: the table page's common.js (/static/common.js).
"use strict";

const KEYS = { s: "start", n: "next", b: "back", m: "menu", t: "turn", e: "encoder" };
lang = "de"; // the box's until its state says
let shownFrame = -1;
let heardSound = 0;
let audio = null;
let audioOn = false;
const down = new Set();

function translateBox() {
  translate();
  if (audioOn) $("audio").textContent = t("audio_on");
}

function pin(button, isDown) {
  if (isDown === down.has(button)) return;
  if (isDown) down.add(button); else down.delete(button);
  for (const el of document.querySelectorAll(`[data-button="${button}"]`)) el.classList.toggle("down", isDown);
  postJson("/box/pin", { button, down: isDown });
}

function wireKey(el) {
  const button = el.dataset.button;
  el.addEventListener("pointerdown", (e) => { e.preventDefault(); startAudio(); pin(button, true); });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) el.addEventListener(end, () => pin(button, false));
}

function buildButtons(names) {
  const row = $("buttons");
  if (row.childElementCount) return;
  for (const name of names.filter((n) => n !== "encoder")) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "key";
    el.dataset.button = name;
    el.textContent = name.toUpperCase();
    row.appendChild(el);
    wireKey(el);
  }
}

function buildBar(count) {
  const bar = $("bar");
  while (bar.childElementCount < count) {
    const led = document.createElement("div");
    led.className = "led";
    bar.appendChild(led);
  }
}

function startAudio() {
  if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
  if (audio.state === "suspended") audio.resume();
  audioOn = true;
  $("audio").textContent = t("audio_on");
}

function play(sound) {
  if (!audio || !audioOn) return;
  let at = audio.currentTime;
  const gain = audio.createGain();
  gain.gain.value = 0.08;
  gain.connect(audio.destination);
  let skip = sound.age;  // the part of the notes already over when the page heard of them
  for (const [hz, seconds] of sound.notes) {
    const left = seconds - Math.max(0, skip);
    skip -= seconds;
    if (left <= 0) continue;
    if (hz) {
      const osc = audio.createOscillator();
      osc.type = "square";
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(at);
      osc.stop(at + left);
    }
    at += left;
  }
}

function show(state) {
  if (state.lang !== lang) { lang = state.lang; translateBox(); }
  buildButtons(state.buttons);
  $("encoder").hidden = !state.encoder;
  buildBar(state.bar.length);
  state.bar.forEach((v, i) => { $("bar").children[i].style.opacity = String(0.08 + 0.92 * v); });
  if (state.frame !== shownFrame) {
    const img = $("oled");
    const next = new Image();
    const frame = state.frame;
    next.onload = () => {
      if (frame < Number(img.dataset.frame)) return;
      img.src = next.src;
      img.dataset.frame = String(frame);
    };
    next.src = `/box/frame.png?n=${frame}`;
    shownFrame = frame;
  }
  const sound = state.sound;
  const tone = sound && sound.notes.find(([hz]) => hz);
  $("sound").textContent = tone ? t("sound", { hz: Math.round(tone[0]) }) : "";
  if (sound && sound.seq !== heardSound) { heardSound = sound.seq; play(sound); }
}

async function poll() {
  try {
    const answer = await fetch("/box/state", { cache: "no-store" });
    if (answer.ok) show(await answer.json());
  } catch (e) { /* the simulator is gone or restarting: keep trying */ }
  setTimeout(poll, 100);
}

function keyOf(e) {
  if (e.target === $("line") || e.ctrlKey || e.metaKey || e.altKey) return null;
  return KEYS[e.key.toLowerCase()] || null;
}

document.addEventListener("keydown", (e) => {
  if (e.target === $("line")) return;
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    e.preventDefault();
    postJson("/box/turn", { steps: e.key === "ArrowRight" ? 1 : -1 });
    return;
  }
  const button = keyOf(e);
  if (button && !e.repeat) { startAudio(); pin(button, true); }
});
document.addEventListener("keyup", (e) => { const button = keyOf(e); if (button) pin(button, false); });
window.addEventListener("blur", () => { for (const button of [...down]) pin(button, false); });

$("ccw").addEventListener("click", () => postJson("/box/turn", { steps: -1 }));
$("cw").addEventListener("click", () => postJson("/box/turn", { steps: 1 }));
wireKey($("push"));
$("audio").addEventListener("click", startAudio);
$("typing").addEventListener("submit", (e) => {
  e.preventDefault();
  postJson("/box/type", { line: $("line").value });
  $("line").value = "";
});
translateBox();
poll();
