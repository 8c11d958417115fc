// The card table of `spellpress play`: draws the table the server describes (its observation),
// offers the legal moves on the cards they use, and lets the bots move after a short pause.
"use strict";

const token = document.querySelector('meta[name="spellpress-token"]').content;
const key = document.body.dataset.key || "";  // a remote seat's secret (its link), sent with every request
const seatHeaders = key ? {"X-Spellpress-Seat": key} : {};
const getJson = async (url) => (await fetch(url, {headers: seatHeaders})).json();
const $ = (id) => document.getElementById(id);
let view = null;           // the server's last answer
let shownViewer = null;    // hot-seat: the seat whose cards are on screen
let botTimer = null;
let replayStep = null;     // a step number while replaying
let selected = null;       // "component/card" of the card clicked last
let clock = null;          // a race: the seconds the human has been looking, shown as they run
let roundsSeen = null;     // the round summaries already shown
let hovered = null;        // the card under the pointer: Z shows it at actual size
const sizes = JSON.parse(document.body.dataset.sizes || "{}");  // component -> [width, height] in mm

function zoom(card) {
  const box = $("zoom"), img = box.querySelector("img");
  const size = sizes[card.component];
  img.src = faceUrl(card);
  img.style.width = size ? `${size[0]}mm` : "63.5mm";
  img.dataset.card = refKey(card);
  box.hidden = false;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const refKey = (card) => `${card.component}/${card.card}`;
const faceUrl = (card) => `/face/${encodeURIComponent(card.component)}/${encodeURIComponent(card.card)}.png`;
const seatName = (seat) => {
  const s = view && view.seats ? view.seats[seat] : null;
  const joined = s && s.kind === "remote" && view.joined && !view.joined.includes(seat) ? ", not joined yet" : "";
  return `Seat ${seat + 1}` + (s ? ` (${seat === view.viewer && s.kind !== "heuristic" ? "you" : s.label}${joined})` : "");
};

async function post(url, data = {}) {
  const response = await fetch(url, {method: "POST", body: JSON.stringify(data),
    headers: {"Content-Type": "application/json", "X-Spellpress-Token": token, ...seatHeaders}});
  const body = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  return {ok: response.ok, status: response.status, body};
}

function cardImg(card, size, clickable) {
  const img = el("img", {class: `card ${size}`, src: faceUrl(card), alt: card.card, "data-card": refKey(card),
                         draggable: "false", title: "Z: actual size"});
  img.addEventListener("mouseenter", () => { hovered = card; });
  img.addEventListener("mouseleave", () => { if (hovered === card) hovered = null; });
  img.addEventListener("contextmenu", (event) => { event.preventDefault(); zoom(card); });  // right click, long press
  if (clickable) {
    const moves = movesOn(card);
    if (moves.length) {
      img.classList.add("playable");
      img.addEventListener("click", () => cardClicked(card, img));
    }
  }
  return img;
}

function backImg(component, size) {
  return el("img", {class: `card back ${size}`, src: `/back/${encodeURIComponent(component)}.png`, alt: "a face-down card"});
}

function movesOn(card) {
  if (!view || !view.human_turn || replayStep !== null) return [];
  const key = refKey(card);
  return view.moves.filter((m) => m.cards.some((c) => refKey(c) === key));
}

function zoneNode(zone, size, clickable) {
  const node = el("div", {class: `zone ${zone.kind}`, "data-zone": zone.name});
  node.append(el("div", {class: "label", text: zone.label + (zone.note ? ` · ${zone.note}` : "")}));
  const cards = el("div", {class: "cards"});
  if (zone.kind === "pile") {
    const top = zone.cards[zone.cards.length - 1];
    if (top) cards.append(cardImg(top, size, clickable));
    else if (zone.hidden) cards.append(backImg(zone.back, size));
    else cards.append(el("div", {class: `card empty ${size}`}));
    const count = zone.cards.length + zone.hidden;
    cards.append(el("span", {class: "count", text: String(count)}));
    if (count > 1) cards.classList.add("stacked");
  } else {
    zone.cards.forEach((card) => cards.append(cardImg(card, size, clickable)));
    const backs = Math.min(zone.hidden, 12);
    for (let i = 0; i < backs; i++) cards.append(backImg(zone.back, size));
    if (zone.hidden) cards.append(el("span", {class: "count", text: String(zone.hidden)}));
    if (!zone.cards.length && !zone.hidden) cards.append(el("div", {class: `card empty ${size}`}));
  }
  node.append(cards);
  return node;
}

function fan(zone) {
  const node = el("div", {class: "zone hand fan", "data-zone": zone.name});
  node.append(el("div", {class: "label", text: zone.label}));
  const cards = el("div", {class: "cards"});
  const n = zone.cards.length;
  zone.cards.forEach((card, i) => {
    const img = cardImg(card, "large", true);
    const angle = n > 1 ? (i - (n - 1) / 2) * Math.min(4, 24 / n) : 0;
    img.style.setProperty("--angle", `${angle}deg`);
    img.style.setProperty("--lift", `${Math.abs(angle) * 0.8}px`);
    if (selected === refKey(card)) img.classList.add("selected");
    cards.append(img);
  });
  node.append(cards);
  return node;
}

function fitFan(node) {
  // overlap the cards more as the hand grows, so that the fan never leaves its area
  const cards = [...node.querySelectorAll(".cards .card")];
  if (cards.length < 2) return;
  const width = cards[0].offsetWidth || 132;  // unrotated
  const room = node.parentElement.clientWidth - 64;
  const step = Math.max(12, Math.min(width * 0.74, (room - width) / (cards.length - 1)));
  cards.slice(1).forEach((img) => { img.style.marginLeft = `${step - width}px`; });
}

function render() {
  const obs = view.observation;
  const viewer = replayStep !== null ? view.viewer : view.viewer;
  const table = $("table");
  table.replaceChildren();
  // opponents along the top, each with their zones
  const seats = el("div", {class: "opponents"});
  for (let seat = 0; seat < obs.scores.length; seat++) {
    if (seat === viewer) continue;
    const box = el("section", {class: "seat" + (obs.to_move === seat ? " to-move" : ""), "data-seat": String(seat)});
    box.append(el("h2", {text: `${seatName(seat)} · ${obs.scores[seat]}`}));
    obs.zones.filter((z) => z.owner === seat).forEach((z) => box.append(zoneNode(z, "small", false)));
    seats.append(box);
  }
  table.append(seats);
  const middle = el("div", {class: "middle"});
  obs.zones.filter((z) => z.owner === null).forEach((z) => middle.append(zoneNode(z, "medium", true)));
  table.append(middle);
  const facts = el("ul", {class: "facts"});
  obs.facts.forEach((f) => facts.append(el("li", {text: f})));
  table.append(facts);
  // the viewer's own cards along the bottom
  const mine = $("hand-area");
  mine.replaceChildren();
  const head = el("h2", {class: obs.to_move === viewer ? "to-move" : "", text: `${seatName(viewer)} · ${obs.scores[viewer]}`});
  mine.append(head);
  const own = el("div", {class: "own"});
  obs.zones.filter((z) => z.owner === viewer).forEach((z) => {
    own.append(z.kind === "hand" && z.cards.length ? fan(z) : zoneNode(z, "medium", true));
  });
  mine.append(own);
  own.querySelectorAll(".fan").forEach(fitFan);
  renderControls();
  renderLog();
}

function renderControls() {
  const moves = $("moves");
  moves.replaceChildren();
  const playing = replayStep === null && view.human_turn && !view.over;
  $("word-form").hidden = !(playing && view.takes_word);
  $("undo").disabled = !(view.undo && replayStep === null);
  if (!playing) return;
  let shown = view.moves;
  if (selected) shown = view.moves.filter((m) => m.cards.some((c) => refKey(c) === selected));
  else if (view.moves.length > 8) {  // many moves: buttons for those no card stands for, the rest on their cards
    shown = view.moves.filter((m) => !m.cards.length);
  }
  if (selected) moves.append(el("p", {class: "hint", text: "Moves with that card:"}));
  else if (view.moves.length > shown.length) {
    const or = view.takes_word ? ", or type a word" : "";
    moves.append(el("p", {class: "hint", text: `Click a card for its moves${or}: ${view.moves.length}${view.more_moves ? "+" : ""} moves in all.`}));
  } else if (view.takes_word && !shown.length) {
    moves.append(el("p", {class: "hint", text: "Type a word."}));
  }
  shown.slice(0, 40).forEach((m) => moves.append(el("button", {type: "button", class: "move", "data-move": String(m.i),
    text: m.text, onclick: () => playMove(m.i)})));
  if (selected) moves.append(el("button", {type: "button", class: "move cancel", text: "Other moves",
    onclick: () => { selected = null; render(); }}));
}

function renderLog() {
  const list = $("log-lines");
  list.replaceChildren();
  list.start = view.log_start || 1;
  (view.log || []).forEach((line) => list.append(el("li", {text: line})));
  $("log").scrollTop = $("log").scrollHeight;
  const status = $("status");
  if (replayStep !== null) status.textContent = "Replay";
  else if (view.over) status.textContent = "Game over";
  else if (view.human_turn) status.textContent = `${seatName(view.to_move)}: your move`;
  else if (view.waiting) status.textContent = `${seatName(view.to_move)} is choosing…`;
  else if (view.to_move !== null) status.textContent = `${seatName(view.to_move)} is thinking…`;
  clearInterval(clock);
  if (view.race && view.human_turn && replayStep === null && !view.over) {  // the time counts: show it running
    const started = performance.now(), text = status.textContent;
    clock = setInterval(() => { status.textContent = `${text} · ${((performance.now() - started) / 1000).toFixed(1)} s`; }, 100);
  }
}

function cardClicked(card, img) {
  const moves = movesOn(card);
  if (moves.length === 1) {
    flyToTable(img);
    playMove(moves[0].i);
    return;
  }
  selected = refKey(card);
  render();
}

function flyToTable(img) {
  const middle = document.querySelector(".middle");
  if (!middle || !img.animate) return;
  const from = img.getBoundingClientRect();
  const to = middle.getBoundingClientRect();
  const ghost = img.cloneNode();
  ghost.classList.add("flying");
  Object.assign(ghost.style, {left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`});
  document.body.append(ghost);
  ghost.animate([{transform: "translate(0, 0)"},
                 {transform: `translate(${to.left + to.width / 2 - from.left - from.width / 2}px, ${to.top + 20 - from.top}px) scale(0.7)`}],
                {duration: 350, easing: "ease-in"});
  setTimeout(() => ghost.remove(), 360);
}

async function playMove(index) {
  const answer = await post("/api/move", {move: index, step: view.step, games: view.games});
  selected = null;
  accept(answer);
}

async function playWord(word) {
  const answer = await post("/api/move", {word, step: view.step, games: view.games});
  if (!answer.ok && answer.body.choices) {
    selected = null;
    $("word-message").textContent = answer.body.error;
    const moves = $("moves");
    moves.replaceChildren();
    answer.body.choices.forEach((m) => {
      moves.append(el("button", {type: "button", class: "move", "data-move": String(m.i), text: m.text,
                                 onclick: async () => accept(await post("/api/move", {word, choice: m.i, step: view.step, games: view.games}))}));
    });
    return;
  }
  if (!answer.ok) {
    $("word-message").textContent = answer.body.error === "not a legal word here"
      ? `${word.toUpperCase()}: not a legal word here` : answer.body.error;
    $("word-message").className = "error";
    return;
  }
  $("word").value = "";
  accept(answer);
}

function accept(answer) {
  if (answer.ok) {
    $("word-message").textContent = "";
    view = answer.body;
  } else if (answer.body.view) {
    view = answer.body.view;
  } else {
    $("word-message").textContent = answer.body.error || "refused";
    $("word-message").className = "error";
    return;
  }
  show();
}

function show() {
  if (replayStep !== null) return;
  const humans = view.seats.filter((s) => s.kind === "human").length;
  if (humans > 1 && view.human_turn && shownViewer !== null && shownViewer !== view.viewer) {
    $("curtain-text").textContent = `${seatName(view.viewer)}'s turn: pass the screen.`;
    $("curtain").hidden = false;
    $("table").replaceChildren();
    $("hand-area").replaceChildren();
    return;
  }
  shownViewer = view.viewer;
  render();
  showRound();
  showEnd();
  scheduleBot();
}

const signed = (points) => (points > 0 ? `+${points}` : String(points));

function itemList(items, seat, withRound) {
  const list = el("ul", {class: "items", "data-seat": String(seat)});
  items.filter((it) => it[withRound ? 1 : 0] === seat).forEach((it) => {
    const [round, , points, why] = withRound ? it : [null, ...it];
    list.append(el("li", {"data-points": String(points),
      text: `${round !== null && round !== undefined ? `round ${round} · ` : ""}${why} ${signed(points)}`}));
  });
  return list;
}

function showRound() {
  // the end of a round: each seat's words (or plays), points and bonuses, and the scores after it
  const rounds = view.rounds || [];
  if (roundsSeen === null) roundsSeen = rounds.length;  // a page opened mid-game shows the next one
  if (rounds.length <= roundsSeen || view.over) { roundsSeen = rounds.length; return; }
  roundsSeen = rounds.length;
  const r = rounds[rounds.length - 1];
  const rows = r.scores.map((score, seat) => {
    const total = r.items.filter((it) => it[0] === seat).reduce((sum, it) => sum + it[1], 0);
    return el("tr", {}, el("th", {text: seatName(seat)}), el("td", {}, itemList(r.items, seat, false)),
              el("td", {class: "total", text: signed(total)}), el("td", {class: "score", text: String(score)}));
  });
  const box = el("div", {class: "round-box"}, el("h2", {text: `Round ${r.round}`}),
    el("table", {class: "round-scores"}, el("tr", {}, el("th"), el("th", {text: "plays and bonuses"}),
       el("th", {text: "round"}), el("th", {text: "score"})), ...rows),
    el("button", {type: "button", id: "round-close", text: "Continue", onclick: () => { $("round").hidden = true; }}));
  $("round").replaceChildren(box);
  $("round").hidden = false;
}

function showEnd() {
  const end = $("end");
  if (!view.over) { end.hidden = true; return; }
  const o = view.over;
  const best = o.winners.map((s) => seatName(s)).join(" and ");
  const rows = o.scores.map((score, seat) => el("tr", {class: o.winners.includes(seat) ? "winner" : ""},
    el("td", {text: seatName(seat)}), el("td", {text: String(score)})));
  const box = el("div", {class: "end-box"},
    el("h2", {text: o.stalled ? "The game stalled" : `${best} ${o.winners.length > 1 ? "win" : "wins"}`}),
    el("table", {class: "scores"}, ...rows));
  if (o.items && o.items.length) {  // where every point came from
    const where = el("div", {class: "where"}, el("h3", {text: "Where the points came from"}));
    o.scores.forEach((score, seat) => where.append(el("details", {open: ""},
      el("summary", {text: `${seatName(seat)}: ${score}`}), itemList(o.items, seat, true))));
    box.append(where);
  }
  if (o.decisions) {
    box.append(el("p", {text: `The heuristic would have made the same move ${o.agreed} of ${o.decisions} times.`}));
    if (o.differences.length) {
      const list = el("ul", {class: "differences"});
      o.differences.forEach((d) => list.append(el("li", {text: `you: ${d.chosen} · heuristic: ${d.heuristic}`})));
      box.append(list);
    }
  }
  if (o.record) box.append(el("p", {class: "record", text: `Saved as ${o.record}`}));
  box.append(el("button", {type: "button", id: "again", text: "New game", onclick: newGame}),
             el("button", {type: "button", text: "Replay it", onclick: () => startReplay(0)}),
             el("button", {type: "button", text: "Look at the table", onclick: () => { end.hidden = true; }}));
  end.replaceChildren(box);
  end.hidden = false;
}

function scheduleBot() {
  clearTimeout(botTimer);
  if (view.over || view.human_turn || view.waiting || view.to_move === null || replayStep !== null) return;
  const step = view.step, games = view.games;
  botTimer = setTimeout(async () => {
    if (!view || view.step !== step || view.games !== games) return;
    accept(await post("/api/step", {step, games}));
  }, view.pause * 1000);
}

async function newGame() {
  clearTimeout(botTimer);
  selected = null;
  shownViewer = null;
  replayStep = null;
  $("replay-bar").hidden = true;
  accept(await post("/api/new", {}));
}

async function startReplay(step) {
  clearTimeout(botTimer);
  $("end").hidden = true;
  $("replay-bar").hidden = false;
  const response = await fetch(`/api/replay?step=${step}`);
  const r = await response.json();
  replayStep = r.step;
  const seats = view ? view.seats : null;
  view = Object.assign({}, view || {}, {observation: r.observation, viewer: r.viewer, human_turn: false,
                                        moves: [], log: r.last ? [`last move: ${r.last}`] : [], seats});
  view.over = null;
  $("replay-step").textContent = `move ${r.step} of ${r.steps}`;
  $("replay-step").dataset.steps = String(r.steps);
  render();
}

async function leaveReplay() {
  replayStep = null;
  $("replay-bar").hidden = true;
  view = await getJson("/api/state");
  show();
}

function listen() {
  // server push: another seat moved (a remote person, or a bot stepped by another page)
  const events = new EventSource(key ? `/api/events?seat=${encodeURIComponent(key)}` : "/api/events");
  events.onmessage = async () => {
    if (replayStep !== null || !view) return;
    const fresh = await getJson("/api/state");
    if (fresh.error || (fresh.step === view.step && fresh.games === view.games && !fresh.waiting === !view.waiting)) return;
    view = fresh;
    show();
  };
}

async function load() {
  view = await getJson("/api/state");
  listen();
  if (document.body.dataset.mode === "replay") { startReplay(0); return; }
  show();
}

$("word-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const word = $("word").value.trim();
  if (word) playWord(word);
});
$("undo").addEventListener("click", async () => {
  const button = $("undo");
  if (button.disabled) return;
  button.disabled = true;  // one request at a time: a double click undoes once
  selected = null;
  try { accept(await post("/api/undo", {step: view.step, games: view.games})); }
  finally { button.disabled = !(view.undo && replayStep === null); }
});
$("new").addEventListener("click", newGame);
$("replay").addEventListener("click", () => startReplay(0));
$("back").addEventListener("click", () => startReplay(Math.max(0, replayStep - 1)));
$("forward").addEventListener("click", () => startReplay(replayStep + 1));
$("leave").addEventListener("click", leaveReplay);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") $("zoom").hidden = true;
  else if ((event.key === "z" || event.key === "Z") && hovered && document.activeElement !== $("word")) zoom(hovered);
});
$("zoom").addEventListener("click", () => { $("zoom").hidden = true; });
window.addEventListener("resize", () => document.querySelectorAll("#hand-area .fan").forEach(fitFan));
$("curtain-go").addEventListener("click", () => { $("curtain").hidden = true; shownViewer = view.viewer; show(); });
load();
