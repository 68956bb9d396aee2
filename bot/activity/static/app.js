// The Activity's page: signs in (Discord's SDK inside Discord, the local table's handshake
// otherwise), opens the table's connection and draws every frame it is sent. A frame holds
// only what this viewer may see; moves are the engines' action texts, checked by the bot.

import { draw, keys, state, t, tick } from "/static/table.js";

const $ = (id) => document.getElementById(id);

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
    state.texts = message.texts;
    state.revealSeconds = message.reveal_seconds;
    document.documentElement.lang = message.language;
  } else if (message.type === "refused") {
    $("refusal").textContent = message.text;
    $("refusal").dataset.key = message.key;
  } else if (message.type === "table") {
    if (message.me) {
      const until = Date.now() + state.revealSeconds * 1000;
      for (const reveal of message.me.reveals) state.reveals.push({ ...reveal, until });
    }
    if (!state.frame || message.table.version !== state.frame.table.version) state.picked = [];
    state.frame = message;
    draw();
  }
}

function send(action) {
  const table = state.frame.table;
  if (state.socket) {  // else closed for good (its sentence stays shown), or reconnecting
    $("refusal").textContent = "";
    $("refusal").dataset.key = "";
  }
  state.picked = [];
  if (state.socket) state.socket.send(JSON.stringify({ act: action, round: table.round, version: table.version }));
  draw();
}

// The page's texts before signing in, in the browser's language (the viewer's, once known).
async function texts() {
  const language = (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
  state.language = language;
  try {
    state.texts = await (await fetch(`/api/texts/${language}`)).json();
  } catch {
    state.texts = {};
  }
}

async function main() {
  state.send = send;
  document.addEventListener("keydown", keys);
  setInterval(tick, 250);
  await texts();
  $("who").textContent = t("connecting");
  try {
    connect(await signIn());
  } catch (error) {
    $("who").textContent = t("signed_out");
    throw error;
  }
}

main();
