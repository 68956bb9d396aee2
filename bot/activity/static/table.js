// The table as the viewer sees it, drawn from each frame: the seats around the felt, the
// cards (pictures the server serves; face down where hidden), the middle of the table, and
// the viewer's own hand. A move is played by picking its pieces (a card, a slot, the pile):
// each click narrows the legal moves, highlights what may complete them, and plays the move
// once only one is left and it is whole; a card may also be dragged onto a place (drag.js).
// Texts come from the server's catalogs (`texts`); a card in the server's words is a mark the
// page draws as the card's small picture (`worded`).

import { draggable, dragging } from "/static/drag.js";

export const state = {
  frame: null, language: "en", texts: {}, revealSeconds: 5, reveals: [], picked: [],
  send: () => {}, drawnVersion: null, lifted: null,
};
const $ = (id) => document.getElementById(id);
const REDUCED = matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---------------------------------------------------------------- texts
function plural(count, one, other) {
  const singular = state.language === "fr" ? count === 0 || count === 1 : count === 1;
  return (singular ? one : other).replace("#", String(count));
}

export function t(key, values = {}) {
  const template = state.texts[key] || key;
  return template.replace(/\{(\w+)(?::([^|}]*)\|([^}]*))?\}/g, (_, name, one, other) => {
    const value = values[name];
    if (one !== undefined) return typeof value === "number" ? plural(value, one, other) : `{${name}}`;
    return value === undefined || value === null ? `{${name}}` : String(value);
  });
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ---------------------------------------------------------------- cards
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const base = (name) => (name ? name.split("#")[0] : name); // a copy's name: "9H#1" -> "9H"
function spoken(name) {  // the picture's alternative text: "Q♠", "10♥", "Joker"
  const card = base(name);
  if (card === "JK") return "🃏";
  return card.slice(0, -1) + (SUITS[card.slice(-1)] || "");
}

// A card in the server's words: its name between two private-use characters (the server's
// `bot.render.card_text.marked`); `worded` draws each as an inline picture, its alt text the card.
const MARK = /\uE000((?:10|[2-9JQKA])[SHDC]|JK|back)\uE001/g;
export function worded(text) {
  const nodes = [];
  let at = 0;
  for (const found of text.matchAll(MARK)) {
    if (found.index > at) nodes.push(text.slice(at, found.index));
    const face = found[1];
    nodes.push(el("img", { class: "inline-card", src: `/cards/${face}.png`, alt: face === "back" ? t("hidden") : spoken(face), draggable: "false" }));
    at = found.index + found[0].length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

const DRAG = {  // what dragging a card does (drag.js)
  lift: (piece) => { state.lifted = piece; highlight(); },
  drop: (piece, target) => { state.lifted = null; dropped(piece, target); },
  pick: (piece, node) => { state.lifted = null; pick(piece, node); },
  settle: () => { state.lifted = null; highlight(); },
};

// A card's picture (its back when `name` is null); a button when `piece` names what it is
// in the moves, so a click (a tap, a key) picks it and a drag drops it.
function card(name, { piece = null, size = "", label = null, key = null } = {}) {
  const face = name ? base(name) : null;
  const alt = label || (face ? spoken(face) : t("hidden"));
  const picture = el("img", { src: `/cards/${face || "back"}.png`, alt, draggable: "false" });
  const attributes = {
    class: `card ${size}`.trim(), "data-card": face || "back", "data-key": key || (face ? `face:${name}` : null),
    "data-piece": piece, title: piece ? alt : null,
  };
  if (!piece || !state.frame || !state.frame.me) return el("span", attributes, picture);
  const button = el("button", { ...attributes, type: "button", "aria-label": alt }, picture);
  button.addEventListener("click", () => pick(piece, button));
  draggable(button, piece, DRAG);
  return button;
}

// ---------------------------------------------------------------- moves and their pieces
// The pieces a move names, all needed (`need`), and those a player may pick on the way (`also`).
function pieces(game, move, mySeat) {
  const words = move.split(" ");
  const head = words[0];
  const own = (slot) => `slot:${mySeat}:${slot}`;
  const other = (spot) => `slot:${spot}`;
  if (game === "dutch") {
    if (head === "peek") return { need: [own(words[1]), own(words[2])], also: [] };
    if (head === "draw") return { need: ["stock"], also: [] };
    if (head === "take") return { need: ["pile"], also: [] };
    if (head === "discard") return { need: ["pile"], also: ["held"] };
    if (head === "swap") return { need: [own(words[1])], also: ["held"] };
    if (head === "seven" || head === "match") return { need: [own(words[1])], also: head === "match" ? ["pile"] : [] };
    if (head === "look") return { need: [other(words[1])], also: [] };
    if (head === "jack") return { need: [own(words[1]), other(words[2])], also: [] };
    if (head === "nine") return { need: [words[1] === "drawn" ? "held" : own(words[1]), other(words[2])], also: [] };
  } else if (game === "euchre") {
    if (head === "play" || head === "discard") return { need: [`card:${words[1]}`], also: head === "play" ? ["trick"] : [] };
  } else if (game === "dame") {
    if (head === "draw") return { need: ["stock"], also: [] };
    if (head === "take") return { need: ["pile", ...words.slice(1).map((c) => `card:${c}`)], also: [] };
    if (head === "meld") return { need: words.slice(1).map((c) => `card:${c}`), also: [] };
    if (head === "add") return { need: [`pack:${words[1]}`, ...words.slice(2).map((c) => `card:${c}`)], also: [] };
    if (head === "discard") return { need: [`card:${words[1]}`, "pile"], also: [] };
  }
  return { need: [], also: [] };
}

function counts(list) {
  const found = new Map();
  for (const item of list) found.set(item, (found.get(item) || 0) + 1);
  return found;
}
function within(small, large) {
  const have = counts(large);
  for (const [item, n] of counts(small)) if ((have.get(item) || 0) < n) return false;
  return true;
}

function legal() { return (state.frame && state.frame.me && state.frame.me.legal) || []; }
function named(move) {
  const { table, me } = state.frame;
  return pieces(table.game, move, me ? me.seat : -1);
}
function candidates(picked) {
  if (!picked.length) return [];
  return legal().filter((move) => {
    const { need, also } = named(move);
    return need.length && within(picked, [...need, ...also]);
  });
}
const whole = (move, picked) => within(named(move).need, picked);

// The move a piece (or a card dropped on a place) plays when the rules would refuse every
// legal one: sent anyway, so the bot answers why in one sentence, as the messages do.
function natural(picked) {
  const { table, me } = state.frame;
  const view = (me && me.view) || {};
  const cardOf = (piece) => (piece && piece.startsWith("card:") ? piece.slice(5) : null);
  const card = picked.map(cardOf).find(Boolean);
  if (table.game === "euchre" && card) return `${view.phase === "discard" ? "discard" : "play"} ${card}`;
  if (table.game === "dame") {
    if (card && picked.includes("pile")) return `discard ${card}`;
    if (picked.length === 1 && picked[0] === "stock") return "draw";
  }
  if (table.game === "dutch") {
    if (picked.length === 1 && picked[0] === "stock") return "draw";
    if (picked.length === 1 && picked[0] === "pile") return view.held ? "discard" : "take";
  }
  return null;
}

// A click picks a piece, or puts back one already picked (a card raised in the hand).
function pick(piece, node = null) {
  if (node && node.classList.contains("picked")) {
    const at = state.picked.lastIndexOf(piece);
    state.picked = state.picked.filter((_, index) => index !== at);
    draw();
    return;
  }
  choose([...state.picked, piece], piece);
}

function dropped(source, target) {
  if (source && target && source !== target) choose([source, target], target, true);
}

function choose(picked, last, dropping = false) {
  let found = candidates(picked);
  if (!found.length && picked.length > 1 && !dropping) { picked = [last]; found = candidates(picked); }
  if (!found.length) {
    const move = natural(picked);
    state.picked = [];
    if (move) state.send(move);
    else draw();
    return;
  }
  const done = found.filter((move) => whole(move, picked));
  if (found.length === 1 && done.length === 1) { state.picked = []; state.send(done[0]); return; }
  const instead = dropping && !done.length ? natural(picked) : null;  // a drop means one move
  if (dropping && (done.length === 1 || instead)) { state.picked = []; state.send(done.length ? done[0] : instead); return; }
  state.picked = picked;
  draw();
}

// ---------------------------------------------------------------- seats
function position(seat, n, mySeat) {
  const offset = (seat - mySeat + n) % n;
  if (offset === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return offset === 1 ? "left" : "right";
  if (n === 4) return ["bottom", "left", "top", "right"][offset];
  return "top";
}

function marks(info, table, view) {
  const found = [];
  if (info.host) found.push(t("host"));
  if (info.bot) found.push(t("bot"));
  if (info.away) found.push(t("away"));
  if (info.left) found.push(t("left"));
  if (view && view.dealer === info.seat) found.push(t("dealer"));
  if (view && view.announced && view.announced[info.seat]) found.push(t("knocked"));
  if (view && view.sitting_out === info.seat) found.push(t("sits_out"));
  return found.map((mark) => el("span", { class: "mark" }, mark));
}

function revealed(seat, slot) {
  const now = Date.now();
  const found = state.reveals.find((r) => r.until > now && r.data && r.data.seat === seat && r.data.slot === slot && r.data.card);
  return found || null;
}

function dutchGrid(info, table, view, me) {
  const grid = el("div", { class: "grid", "data-row": "" });
  const mine = me && me.view && me.view.grids ? me.view.grids[info.seat] : null;
  view.grids[info.seat].forEach((slot, index) => {
    const piece = `slot:${info.seat}:${slot.slot}`;
    if (slot.empty) { grid.append(el("span", { class: "card gone" })); return; }
    const reveal = revealed(info.seat, slot.slot);
    const known = (mine && mine[index] && mine[index].card) || slot.card || (reveal && reveal.data.card);
    const label = known ? `${spoken(known)} · ${t("slot", { n: slot.slot })}` : t("slot", { n: slot.slot });
    const shown = card(known, { piece: me ? piece : null, label, key: piece });
    if (reveal) {
      shown.classList.add("revealed");
      shown.append(el("span", { class: "countdown", "data-until": String(reveal.until) }, t("seconds", { n: Math.ceil((reveal.until - Date.now()) / 1000) })));
    }
    grid.append(el("span", { class: "slot" }, shown, el("span", { class: "slot-no" }, String(slot.slot))));
  });
  return grid;
}

function fan(count) {  // a seat's hidden hand: its backs, fanned, and how many
  const row = el("div", { class: "fan", "aria-label": t("cards", { n: count }) });
  for (let i = 0; i < Math.min(count, 13); i += 1) row.append(card(null, { size: "small", key: `fan:${i}` }));
  return el("div", { class: "hidden-hand" }, row, el("span", { class: "count" }, t("cards", { n: count })));
}

function seatBox(info, table, view, me) {
  const turn = table.to_act.includes(info.seat) && table.status === "playing";
  const box = el("article", { class: `seat${turn ? " turn" : ""}${me && me.seat === info.seat ? " me" : ""}`, "aria-label": info.name, "data-seat": String(info.seat) },
    el("header", {}, el("span", { class: "name" }, info.name), el("span", { class: "total" }, t("points", { n: table.totals[info.seat] ?? 0 })),
      turn ? el("span", { class: "clock", "aria-live": "off" }) : null),
    el("div", { class: "marks" }, ...marks(info, table, view)));
  if (!view) return box;
  if (table.game === "dutch" && view.grids) box.append(dutchGrid(info, table, view, me));
  else if (view.hand_sizes && !(me && me.seat === info.seat)) {
    const shown = view.shown_hands && view.shown_hands[info.seat];
    if (shown && shown.length) box.append(el("div", { class: "cards" }, ...shown.map((name) => card(name, { size: "small" }))));
    else box.append(fan(view.hand_sizes[info.seat]));
  } else if (view.hand_sizes) box.append(el("span", { class: "count" }, t("cards", { n: view.hand_sizes[info.seat] })));
  return box;
}

// ---------------------------------------------------------------- the middle of the table
function pile(title, ...content) { return el("div", { class: "pile" }, ...content, el("span", { class: "caption" }, title)); }
function teamName(table, team) {
  const seats = table.seats.filter((info) => info.seat % 2 === team);
  return seats.length === 2 ? t("team", { first: seats[0].name, second: seats[1].name }) : seats.map((s) => s.name).join(", ");
}
const mine = () => state.frame.me;

function dutchMiddle(table, view) {
  const me = mine();
  const held = me && me.view ? me.view.held : view.held;
  const out = [
    pile(`${t("stock")} · ${view.stock}`, card(null, { piece: "stock", key: "stock" })),
    pile(`${t("discard")} · ${view.discard_size}`, card(view.discard_top, { piece: "pile", key: "pile" })),
  ];
  if (held || view.held_from) {
    const holder = table.seats[view.turn]?.name || "";
    out.push(pile(`${t("held")} · ${holder}`, card(held, { piece: me && me.seat === view.turn ? "held" : null, key: "held" })));
  }
  return out;
}

function euchreMiddle(table, view, mySeat) {
  const out = [];
  if (view.trump) {
    const maker = table.seats[view.maker]?.name || "";
    out.push(el("div", { class: "trump" }, el("span", { class: `suit suit-${view.trump}`, "aria-label": t("trump") }, SUITS[view.trump]),
      el("span", { class: "caption" }, `${t("trump")} · ${t("maker", { name: maker })}${view.alone ? ` (${t("alone")})` : ""}`)));
  } else if (view.turned && !view.picked_up) out.push(pile(t("turned"), card(view.turned)));
  const n = table.seats.length;
  const trick = el("div", { class: "trick", "data-piece": "trick", "aria-label": t("trick") });
  for (const [seat, name] of view.trick) {
    trick.append(el("span", { class: `played at-${position(seat, n, mySeat)}` }, card(name), el("span", { class: "who" }, table.seats[seat]?.name || "")));
  }
  out.push(trick);
  const score = (team) => `${teamName(table, team)}: ${t("points", { n: table.totals[team] ?? 0 })}, ${t("tricks").toLowerCase()} ${view.tricks_won[team]}`;
  out.push(el("div", { class: "scoreboard" }, el("div", {}, score(0)), el("div", {}, score(1))));
  return out;
}

function dameMiddle(table, view, mySeat) {
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const out = [
    pile(`${t("stock")} · ${view.stock_size}`, card(null, { piece: "stock", key: "stock" })),
    pile(`${t("pile")} · ${view.discard.length}`, card(top, { piece: "pile", key: "pile" })),
  ];
  const myTeam = mySeat >= 0 ? mySeat % 2 : -1;
  view.packs.forEach((packs, team) => {
    const row = el("div", { class: "packs" });
    for (const pack of packs) {
      const piece = team === myTeam ? `pack:${pack.rank}` : null;
      const fanned = el("div", { class: "pack", title: `${pack.rank} · ${t("points", { n: pack.points })}` },
        ...pack.cards.map((name) => card(name, { size: "small" })));
      if (piece && mine()) {
        const open = el("button", { type: "button", class: "pack-button", "data-piece": piece, "aria-label": `${t("packs", { team: pack.rank })}` }, fanned);
        open.addEventListener("click", () => pick(piece, open));
        row.append(open);
      } else row.append(fanned);
    }
    if (!packs.length) row.append(el("span", { class: "caption" }, t("no_packs")));
    const points = view.points && view.points[team] !== undefined ? ` · ${t("points", { n: view.points[team] })}` : "";
    out.push(el("div", { class: "team-packs" }, el("span", { class: "caption" }, t("packs", { team: teamName(table, team) }) + points), row));
  });
  return out;
}

// ---------------------------------------------------------------- drawing a frame
function headline(table, me) {
  if (table.status === "lobby") return t("lobby");
  if (table.status === "round_over") return t("round_over");
  if (table.status === "finished") return t("finished");
  if (table.status === "closed") return t("closed");
  if (me && table.to_act.includes(me.seat)) return t("your_turn");
  const names = table.to_act.map((seat) => table.seats[seat]?.name).filter(Boolean).join(", ");
  return me ? t("waiting", { name: names }) : `${t("watching")} · ${t("waiting", { name: names })}`;
}

function drawResults(table) {  // between rounds and at the end: what each seat scored
  const last = table.last_round;
  const results = $("results");
  results.hidden = !(last && (table.status === "round_over" || table.status === "finished"));
  if (results.hidden) return;
  const rows = table.seats.map((info) => el("tr", {}, el("th", {}, info.name),
    el("td", {}, `${last.points[info.seat] >= 0 ? "+" : ""}${last.points[info.seat]}`),
    el("td", {}, t("points", { n: last.totals[info.seat] ?? 0 }))));
  results.replaceChildren(el("caption", {}, t("results", { n: last.round + 1 })), ...rows);
}

function drawMoves(me) {
  const moves = $("moves");
  const labels = (me && me.labels) || {};
  const label = (move) => labels[move] || move;
  const shown = state.picked.length ? candidates(state.picked) : legal().filter((move) => !named(move).need.length);
  const buttons = shown.map((move) => el("button", { type: "button", class: whole(move, state.picked) && state.picked.length ? "ready" : "", "data-move": move, onclick: () => { state.picked = []; state.send(move); } }, ...worded(label(move))));
  if (state.picked.length) buttons.push(el("button", { type: "button", class: "cancel", onclick: () => { state.picked = []; draw(); } }, t("cancel")));
  moves.replaceChildren(...buttons);
  $("hint").textContent = state.picked.length ? t("pick_more") : "";
}

// What is picked glows, and where it may go; a lifted card (dragged), where it may be dropped.
function highlight() {
  const lifted = state.lifted && dragging() ? [state.lifted] : null;
  const picked = new Set(lifted || state.picked);
  const targets = new Set();
  for (const move of candidates(lifted || state.picked)) {
    const { need, also } = named(move);
    for (const piece of [...need, ...also]) if (!picked.has(piece) || piece.startsWith("card:")) targets.add(piece);
  }
  const playable = new Set();  // nothing picked yet: what starts a legal move
  if (!state.picked.length) for (const move of legal()) for (const piece of named(move).need) playable.add(piece);
  const pickedCards = counts(lifted ? [] : state.picked);
  for (const node of document.querySelectorAll("[data-piece]")) {
    const piece = node.dataset.piece;
    let chosen = false;
    if (pickedCards.get(piece)) { chosen = true; pickedCards.set(piece, pickedCards.get(piece) - 1); }
    node.classList.toggle("picked", chosen);
    node.classList.toggle("target", !chosen && targets.has(piece));
    node.classList.toggle("playable", playable.has(piece));
  }
}

// Where each face-up card was before the redraw: it slides from there (FLIP), and a card
// that was not on the table turns over as it appears.
function positions() {
  const found = new Map();
  for (const node of document.querySelectorAll("#table [data-key]")) found.set(`${node.dataset.key}|${node.dataset.card}`, node.getBoundingClientRect());
  const faces = new Map();
  for (const node of document.querySelectorAll("#table [data-card]")) {
    if (node.dataset.card !== "back" && !faces.has(node.dataset.card)) faces.set(node.dataset.card, node.getBoundingClientRect());
  }
  return { found, faces };
}

function animate(before) {
  if (REDUCED || !before) return;
  for (const node of document.querySelectorAll("#table [data-card]")) {
    const key = `${node.dataset.key}|${node.dataset.card}`;
    if (before.found.has(key)) continue;  // the same card in the same place: it stays still
    const from = node.dataset.card !== "back" && before.faces.get(node.dataset.card);
    const to = node.getBoundingClientRect();
    if (from && (Math.abs(from.left - to.left) > 2 || Math.abs(from.top - to.top) > 2)) {
      node.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }],
        { duration: 320, easing: "ease-out" });
    } else if (node.dataset.key) {
      node.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: 260, easing: "ease-out" });
    }
  }
}

export function draw() {
  if (!state.frame) return;
  const { table, me } = state.frame;
  const view = table.view || (table.last_round && table.last_round.view);  // between rounds: the last, face up
  const changed = state.drawnVersion !== null && state.drawnVersion !== table.version;
  const before = changed ? positions() : null;
  const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("[data-piece], [data-move]") : null;
  const refocus = focused ? (focused.dataset.piece ? `[data-piece="${focused.dataset.piece}"]` : `[data-move="${focused.dataset.move}"]`) : null;
  state.drawnVersion = table.version;
  document.body.dataset.game = table.game;
  document.body.dataset.version = String(table.version);
  $("who").textContent = headline(table, me);
  $("round").textContent = table.round !== null && table.round !== undefined
    ? `${t("round", { n: table.round + 1 })} · ${t("target", { n: table.target })}` : "";
  $("say").replaceChildren(...worded((table.words && table.words.status) || ""));
  const mySeat = me ? me.seat : 0;
  const areas = { top: [], left: [], right: [], bottom: [] };
  for (const info of table.seats) areas[position(info.seat, table.seats.length, mySeat)].push(seatBox(info, table, view, me));
  for (const [area, boxes] of Object.entries(areas)) $(`seats-${area}`).replaceChildren(...boxes);
  let middle = [];
  if (view && table.game === "dutch") middle = dutchMiddle(table, view);
  else if (view && table.game === "euchre") middle = euchreMiddle(table, view, mySeat);
  else if (view && table.game === "dame") middle = dameMiddle(table, view, me ? me.seat : -1);
  $("middle").replaceChildren(...middle);
  const hand = $("hand");
  const cards = (me && me.view && me.view.hand) || [];
  hand.hidden = !cards.length;
  $("hand-cards").replaceChildren(...cards.map((name, index) => card(name, { piece: `card:${base(name)}`, size: "big", key: `hand:${name}:${index}` })));
  drawResults(table);
  drawMoves(me);
  highlight();
  $("log-title").textContent = t("log");
  $("log-lines").replaceChildren(...((table.words && table.words.lines) || []).map((line) => el("li", {}, ...worded(line))));
  animate(before);
  if (refocus) (document.querySelector(`#table button${refocus}`) || document.querySelector("#moves button, #hand-cards button"))?.focus();
  tick();
}

export function tick() {
  if (!state.frame) return;
  const table = state.frame.table;
  const deadline = table.status === "round_over" ? table.next_round_at : table.deadline;
  const left = deadline ? Math.max(0, Math.ceil(deadline - Date.now() / 1000)) : null;
  const words = left === null ? "" : table.status === "round_over" ? t("next_round", { n: left }) : t("seconds", { n: left });
  $("timer").textContent = words;
  for (const clock of document.querySelectorAll(".seat .clock")) clock.textContent = left === null ? "" : t("seconds", { n: left });
  let expired = false;
  for (const badge of document.querySelectorAll(".countdown")) {
    const rest = Math.ceil((Number(badge.dataset.until) - Date.now()) / 1000);
    if (rest <= 0) expired = true;
    else badge.textContent = t("seconds", { n: rest });
  }
  if (expired) { state.reveals = state.reveals.filter((r) => r.until > Date.now()); draw(); }
}

// Arrows move between the cards of a row (and the moves), Escape drops what was picked.
export function keys(event) {
  if (event.key === "Escape" && state.picked.length) { state.picked = []; draw(); return; }
  const arrows = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(event.key in arrows) || !event.target.closest) return;
  const row = event.target.closest("#hand-cards, .grid, #middle, #moves, .packs, .seats-area");
  if (!row) return;
  const buttons = [...row.querySelectorAll("button")];
  const at = buttons.indexOf(event.target.closest("button"));
  if (at < 0) return;
  event.preventDefault();
  buttons[(at + arrows[event.key] + buttons.length) % buttons.length].focus();
}
