// The Activity's page: signs in (Discord's SDK inside Discord, the local table's handshake
// otherwise), opens the table's connection and draws every frame it is sent. A frame holds
// only what this viewer may see; moves are the engines' action texts, checked by the bot.

const TEXTS = {
  en: {
    connecting: "Connecting…", reconnecting: "Connection lost: reconnecting…",
    your_turn: "Your turn", waiting: "Waiting for {name}", watching: "You are watching",
    lobby: "Waiting for the host to start", round_over: "Round over", finished: "Match over",
    closed: "This table is closed", stock: "Stock", discard: "Discard", held: "In hand",
    trick: "Trick", trump: "Trump", turned: "Turned up", packs: "Packs", pile: "Pile",
    cards: "{n} cards", total: "{n} pts", away: "away", bot: "bot", left: "left",
    dealer: "dealer", seconds: "{n} s", log: "What happened", signed_out: "Could not sign in.",
    slot: "slot {n}",
  },
  fr: {
    connecting: "Connexion…", reconnecting: "Connexion perdue : reconnexion…",
    your_turn: "À vous de jouer", waiting: "On attend {name}", watching: "Vous regardez",
    lobby: "En attente du lancement", round_over: "Manche terminée", finished: "Partie terminée",
    closed: "Cette table est fermée", stock: "Pioche", discard: "Défausse", held: "En main",
    trick: "Levée", trump: "Atout", turned: "Retournée", packs: "Paquets", pile: "Talon",
    cards: "{n} cartes", total: "{n} pts", away: "absent", bot: "robot", left: "parti",
    dealer: "donneur", seconds: "{n} s", log: "Ce qui s'est passé", signed_out: "Connexion impossible.",
    slot: "case {n}",
  },
};

const state = { frame: null, language: "en", revealSeconds: 5, reveals: [], chosen: null, socket: null };
const $ = (id) => document.getElementById(id);

function t(key, values = {}) {
  const text = (TEXTS[state.language] || TEXTS.en)[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function cardImage(name, label) {
  return el("img", { src: `/cards/${name || "back"}.png`, alt: label || name || "🂠" });
}

// A card; clickable when a legal move names it (then a click plays or narrows the moves).
function card(name, { moves = [], label = null } = {}) {
  const alt = label || name || (state.language === "fr" ? "carte cachée" : "hidden card");
  if (!moves.length) return el("span", { class: "card" }, cardImage(name, alt));
  return el("button", { class: "card", type: "button", title: alt, onclick: () => choose(moves) }, cardImage(name, alt));
}

// ---------------------------------------------------------------- signing in and the link
async function exchange(code) {
  const answer = await fetch("/api/token", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }),
  });
  if (!answer.ok) throw new Error("the code was refused");
  return (await answer.json()).access_token;
}

async function signIn() {
  const params = new URLSearchParams(location.search);
  if (params.has("frame_id")) {  // opened by Discord: its SDK, then the bot's token exchange
    const { DiscordSDK } = await import("/static/vendor/discord-sdk.js");
    const { client_id } = await (await fetch("/api/config")).json();
    const sdk = new DiscordSDK(client_id);
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const token = await exchange(code);
    await sdk.commands.authenticate({ access_token: token });
    return { token, where: `instance=${encodeURIComponent(sdk.instanceId)}&channel=${encodeURIComponent(sdk.channelId)}` };
  }
  // opened by the local table: its page answers the same handshake
  const answer = await new Promise((resolve) => {
    window.addEventListener("message", (event) => {
      if (event.source === window.parent && event.data && event.data.type === "cardtable-code") resolve(event.data);
    });
    window.parent.postMessage({ type: "cardtable-authorize" }, "*");
  });
  const where = `instance=${encodeURIComponent(answer.instance)}&channel=${encodeURIComponent(answer.channel)}`;
  return { token: await exchange(answer.code), where };
}

const REFUSED = 4403;  // the server's close code for a page it does not let in

function connect(session, attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // back at the table it showed: the launch that chose it may be forgotten by then
  const shown = state.frame ? `&table=${state.frame.table.table}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws?${session.where}${shown}&token=${encodeURIComponent(session.token)}`);
  state.socket = socket;
  socket.onopen = () => { attempt = 0; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    state.socket = null;
    if (event.code === REFUSED) { $("who").textContent = ""; return; }  // its sentence shows
    $("who").textContent = t("reconnecting");
    setTimeout(() => connect(session, attempt + 1), Math.min(8000, 250 * 2 ** attempt));
  };
}

function receive(message) {
  if (message.type === "hello") {
    state.language = message.language;
    state.revealSeconds = message.reveal_seconds;
    document.documentElement.lang = message.language;
  } else if (message.type === "refused") {
    $("refusal").textContent = message.text;
  } else if (message.type === "table") {
    if (message.me) {
      const until = Date.now() + state.revealSeconds * 1000;
      for (const reveal of message.me.reveals) state.reveals.push({ ...reveal, until });
      if (message.me.reveals.length) setTimeout(draw, state.revealSeconds * 1000 + 50);
    }
    if (!state.frame || message.table.version !== state.frame.table.version) state.chosen = null;
    state.frame = message;
    draw();
  }
}

function send(action) {
  const table = state.frame.table;
  $("refusal").textContent = "";
  state.chosen = null;
  if (state.socket) state.socket.send(JSON.stringify({ act: action, round: table.round, version: table.version }));
}

// Several moves name the clicked thing: offer just those; one: play it.
function choose(moves) {
  if (moves.length === 1) send(moves[0]);
  else { state.chosen = moves; draw(); $("moves").querySelector("button")?.focus(); }
}

// ---------------------------------------------------------------- drawing a frame
function legal() { return (state.frame.me && state.frame.me.legal) || []; }
function naming(word) {
  const pattern = new RegExp(`(^|[ ;])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[ ;])`);
  return legal().filter((move) => pattern.test(move));
}

function shownReveal(seat, slot) {
  const now = Date.now();
  state.reveals = state.reveals.filter((reveal) => reveal.until > now);
  const found = state.reveals.find((r) => r.data && r.data.seat === seat && r.data.slot === slot && r.data.card);
  return found ? found.data.card : null;
}

function seatBox(info, table, view) {
  const marks = [];
  if (info.bot) marks.push(t("bot"));
  if (info.away) marks.push(t("away"));
  if (info.left) marks.push(t("left"));
  if (view && view.dealer === info.seat) marks.push(t("dealer"));
  const box = el("article", { class: "seat" + (table.to_act.includes(info.seat) ? " turn" : ""), "aria-label": info.name },
    el("h2", {}, el("span", {}, info.name), el("span", { class: "marks" }, [t("total", { n: table.totals[info.seat] ?? 0 }), ...marks].join(" · "))));
  const cards = el("div", { class: "cards" });
  const me = state.frame.me;
  if (table.game === "dutch" && view && view.grids) {
    const mine = me && me.seat === info.seat && me.view ? me.view.grids[info.seat] : null;
    view.grids[info.seat].forEach((slot, index) => {
      if (slot.empty) { cards.append(el("span", { class: "card gone" })); return; }
      const known = (mine && mine[index].card) || slot.card || shownReveal(info.seat, slot.slot);
      const moves = naming(String(slot.slot)).filter((m) => me && me.seat === info.seat ? true : m.includes(` ${info.seat} `) || m.endsWith(` ${info.seat}`));
      cards.append(el("span", { class: "slot" }, card(known, { moves, label: known || t("slot", { n: slot.slot }) }), String(slot.slot)));
    });
  } else if (view && view.hand_sizes) {
    const shown = view.shown_hands && view.shown_hands[info.seat];
    if (shown && shown.length) shown.forEach((name) => cards.append(card(name)));
    else if (!(me && me.seat === info.seat)) cards.append(el("span", {}, t("cards", { n: view.hand_sizes[info.seat] })));
  }
  box.append(cards);
  return box;
}

function pile(title, content) { return el("div", { class: "pile" }, content, el("span", {}, title)); }

function drawMiddle(table, view, mine) {
  const middle = $("middle");
  middle.replaceChildren();
  if (!view) return;
  if (table.game === "dutch") {
    middle.append(pile(`${t("stock")} (${view.stock})`, card(null, { moves: naming("draw") })));
    middle.append(pile(t("discard"), card(view.discard_top, { moves: naming("take") })));
    const held = mine && mine.held;
    if (held || view.held_from) middle.append(pile(t("held"), card(held, { moves: naming("discard") })));
  } else if (table.game === "euchre") {
    if (view.trump) middle.append(pile(t("trump"), el("strong", {}, view.trump)));
    else middle.append(pile(t("turned"), card(view.turned)));
    const trick = el("div", { class: "cards" });
    for (const [seat, name] of view.trick) trick.append(el("span", { class: "slot" }, card(name), table.seats[seat]?.name || ""));
    middle.append(pile(t("trick"), trick));
  } else if (table.game === "dame") {
    middle.append(pile(`${t("stock")} (${view.stock_size})`, card(null, { moves: naming("draw") })));
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    middle.append(pile(`${t("pile")} (${view.discard.length})`, card(top, { moves: naming("take") })));
    view.packs.forEach((packs, side) => {
      const row = el("div", { class: "cards" });
      for (const pack of packs) for (const name of pack.cards) row.append(card(name));
      if (packs.length) middle.append(pile(`${t("packs")} ${side + 1}`, row));
    });
  }
}

function drawMine(table, me) {
  const mine = $("mine");
  mine.replaceChildren();
  if (!me || !me.view || !me.view.hand) return;
  const row = el("div", { class: "cards" });
  for (const name of me.view.hand) row.append(card(name, { moves: naming(name) }));
  mine.append(row);
}

function drawMoves() {
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of state.chosen || legal()) moves.append(el("button", { type: "button", onclick: () => send(move) }, move));
}

function headline(table, me) {
  if (table.status === "lobby") return t("lobby");
  if (table.status === "round_over") return t("round_over");
  if (table.status === "finished") return t("finished");
  if (table.status === "closed") return t("closed");
  if (me && table.to_act.includes(me.seat)) return t("your_turn");
  const names = table.to_act.map((seat) => table.seats[seat]?.name).filter(Boolean).join(", ");
  return me ? t("waiting", { name: names }) : `${t("watching")} · ${t("waiting", { name: names })}`;
}

function draw() {
  if (!state.frame) return;
  const { table, me } = state.frame;
  const view = table.view;
  $("who").textContent = headline(table, me);
  $("seats").replaceChildren(...table.seats.map((info) => seatBox(info, table, view)));
  drawMiddle(table, view, me && me.view);
  drawMine(table, me);
  drawMoves();
  $("log").querySelector("summary").textContent = t("log");
  $("log").querySelector("ol").replaceChildren(...table.log.slice(-8).map((entry) => el("li", {}, [entry.kind, ...Object.values(entry.data || {})].join(" "))));
}

function tick() {
  const deadline = state.frame && (state.frame.table.deadline || state.frame.table.next_round_at);
  const left = deadline ? Math.max(0, Math.round(deadline - Date.now() / 1000)) : null;
  $("timer").textContent = left === null ? "" : t("seconds", { n: left });
}

async function main() {
  $("who").textContent = t("connecting");
  setInterval(tick, 1000);
  try {
    connect(await signIn());
  } catch (error) {
    $("who").textContent = t("signed_out");
    throw error;
  }
}

main();
