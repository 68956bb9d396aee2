// The local table's page: a small Discord-like client for one of the four local users.
// It shows what the server sends for this user (never another user's ephemeral message),
// turns commands, clicks and choices into interactions, and refreshes when told to.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const userNumber = Number(params.get("user") || "1");
  const pageOpened = Date.now(); // ephemeral messages from before this visit are gone, as on Discord
  const dismissed = new Set();
  const STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };
  const SUB_COMMAND = 1, SUB_COMMAND_GROUP = 2;
  const IS_COMPONENTS_V2 = 1 << 15;
  const TYPE_NAMES = { 3: "text", 4: "integer", 5: "true/false", 6: "member", 10: "number" };

  const state = {
    me: null, users: [], bot: null, channels: [], commands: [], channelId: params.get("channel"),
    rendered: new Map(), // message id -> { key, element }
    commandsKey: "",
    flatCommands: [], chosen: null, menuIndex: 0,
  };
  // The page's own words (Discord's client texts), in the user's language.
  const TEXTS = {
    fr: {
      "Only you can see this": "Vous seul·e pouvez voir ceci",
      "Dismiss message": "Ignorer le message",
      "used a command": "a utilisé une commande",
      "is thinking…": "réfléchit…",
      "This interaction failed": "Cette interaction a échoué",
      "Message #{channel} — type / for the bot's commands":
        "Écrire dans #{channel} — tapez / pour les commandes du bot",
      "Playing as": "Vous êtes",
      "Text channels": "Salons textuels",
      "Reconnecting…": "Reconnexion…",
      "Commands": "Commandes",
      "(edited)": "(modifié)",
      "No command matches.": "Aucune commande ne correspond.",
      "{option} is required.": "{option} est obligatoire.",
      "Welcome to #{channel}!": "Bienvenue dans #{channel} !",
      "Type / below to see the bot's commands.": "Tapez / ci-dessous pour voir les commandes du bot.",
      "open thread": "ouvrir le fil",
      "thread": "fil",
      "Send": "Envoyer",
      "Make a selection": "Faites un choix",
      "(default)": "(par défaut)",
      "choose…": "choisir…",
      "Channels": "Salons",
      "Close the Activity": "Fermer l'activité",
      "integer": "nombre entier",
      "number": "nombre",
      "text": "texte",
      "value": "valeur",
      "true": "vrai",
      "false": "faux",
    },
  };
  function t(text, values = {}) {
    const locale = state.me ? state.me.locale.split("-")[0] : "en";
    const table = TEXTS[locale] || {};
    const found = table[text] || text;
    return found.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
  }
  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // ------------------------------------------------------------------ server calls
  async function getJson(url) {
    const response = await fetch(url, { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  async function postJson(url, payload) {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  // ------------------------------------------------------------------ refreshing
  let refreshing = null, again = false;
  function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      try {
        do {
          again = false;
          await load();
        } while (again);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  async function load() {
    const body = await getJson(`/page/state?user=${userNumber}`);
    Object.assign(state, {
      me: body.me, users: body.users, bot: body.bot, channels: body.channels,
    });
    const commandsKey = `${state.me.locale}\n${JSON.stringify(body.commands)}`;
    if (commandsKey !== state.commandsKey) { // names shown in the user's language
      state.commandsKey = commandsKey;
      state.commands = body.commands;
      state.flatCommands = flatten(body.commands);
    }
    if (!state.channels.some((c) => c.id === state.channelId)) state.channelId = body.default_channel_id;
    renderShell(body);
    document.body.dataset.me = state.me.id;
    const messages = await getJson(
      `/page/channels/${state.channelId}/messages?user=${userNumber}`);
    renderMessages(messages);
    document.body.dataset.ready = "true";
  }

  // ------------------------------------------------------------------ live updates
  let socket = null, retry = 250;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/page/events?user=${userNumber}`);
    socket.onopen = () => {
      retry = 250;
      $("connection").hidden = true;
      $("connection").textContent = t("Reconnecting…");
      document.body.dataset.locked = "false";
      document.body.dataset.connected = "true";
      refresh().catch(showError);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "changed") refresh().catch(showError);
    };
    socket.onclose = () => {
      document.body.dataset.connected = "false";
      $("connection").hidden = false;
      explainClosed();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 3000);
    };
  }

  // A table started again has a new secret: until its new address is opened (in any tab of
  // this browser, which sets the cookie), the page says so instead of "Reconnecting…".
  async function explainClosed() {
    try {
      const response = await fetch(`/page/state?user=${userNumber}`, { cache: "no-store" });
      if (response.status !== 403) return;
      const body = await response.json();
      $("connection").textContent = body.error;
      document.body.dataset.locked = "true";
    } catch (error) {
      // the table is not running: "Reconnecting…" says it
    }
  }

  // ------------------------------------------------------------------ shell
  function renderShell(body) {
    document.title = `${body.guild.name} — ${state.me.global_name}`;
    $("guild-name").textContent = body.guild.name;
    const icon = $("guild-icon");
    icon.textContent = body.guild.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 3);
    icon.title = body.guild.name;
    renderChannels();
    const switcher = $("user-switch");
    switcher.replaceChildren(...state.users.map((user) => {
      const option = el("option", "", `${user.global_name} (${user.number})`);
      option.value = user.number;
      option.selected = user.number === userNumber;
      return option;
    }));
    const avatar = $("me-avatar");
    avatar.textContent = state.me.global_name[0];
    avatar.style.background = colourOf(state.me.id);
    const locales = $("locale-switch");
    locales.replaceChildren(...body.locales.map((locale) => {
      const option = el("option", "", locale === "fr" ? "Français" : "English");
      option.value = locale;
      option.selected = locale === state.me.locale;
      return option;
    }));
    const channel = state.channels.find((c) => c.id === state.channelId);
    $("channel-name").textContent = channel ? channel.name : "";
    $("channel-hint").textContent = channel && channel.thread ? t("thread") : "";
    $("command-input").placeholder = t("Message #{channel} — type / for the bot's commands",
      { channel: channel ? channel.name : "" });
    $("command-send").textContent = t("Send");
    $("connection").textContent = t("Reconnecting…");
    document.querySelector(".switch-label").textContent = t("Playing as");
    $("channels-toggle").setAttribute("aria-label", t("Channels"));
    Markdown.locale = state.me.locale;
  }

  function renderChannels() {
    const list = $("channels");
    const parents = state.channels.filter((c) => !c.thread).sort((a, b) => a.position - b.position);
    const nodes = [el("div", "channel-group", t("Text channels"))];
    for (const parent of parents) {
      nodes.push(channelLink(parent, false));
      for (const thread of state.channels.filter((c) => c.thread && c.parent_id === parent.id)) {
        nodes.push(channelLink(thread, true));
      }
    }
    list.replaceChildren(...nodes);
  }

  function channelLink(channel, isThread) {
    const link = el("a", `channel${isThread ? " thread" : ""}${
      channel.id === state.channelId ? " active" : ""}`);
    link.href = `?user=${userNumber}&channel=${channel.id}`;
    link.dataset.channelId = channel.id;
    link.setAttribute("role", "listitem");
    link.append(el("span", "channel-mark", isThread ? "↳" : "#"), el("span", "", channel.name));
    link.addEventListener("click", (event) => {
      event.preventDefault();
      openChannel(channel.id);
    });
    return link;
  }

  // At phone width the channels and switchers are a drawer over the chat (app.css).
  function showChannels(open) {
    $("app").classList.toggle("channels-open", open);
    $("channels-toggle").setAttribute("aria-expanded", String(open));
  }

  function openChannel(channelId) {
    showChannels(false);
    state.channelId = channelId;
    history.replaceState(null, "", `?user=${userNumber}&channel=${channelId}`);
    state.rendered.clear();
    $("messages").replaceChildren();
    refresh().catch(showError);
  }

  // ------------------------------------------------------------------ messages
  function visibleHere(message) {
    if (!message.ephemeral_owner) return true;
    return !dismissed.has(message.id) && Date.parse(message.timestamp) >= pageOpened - 1000;
  }

  let stickToBottom = true; // follow new messages unless the user scrolled up to read
  let userScrolls = false; // the user touched the list since it was last at its bottom
  function renderMessages(messages) {
    const list = $("messages");
    const wanted = [];
    for (const raw of messages) {
      const message = withOwner(raw);
      if (!visibleHere(message)) continue;
      wanted.push(message.id);
      // A render depends on the message and on the page's language: a load that was under
      // way when the user switched language must not leave words of the old one cached.
      const key = `${state.me.locale}\n${JSON.stringify(message)}`;
      const known = state.rendered.get(message.id);
      if (known && known.key === key) continue;
      const element = messageElement(message);
      if (known) known.element.replaceWith(element);
      state.rendered.set(message.id, { key, element });
    }
    for (const [id, known] of state.rendered) {
      if (!wanted.includes(id)) {
        known.element.remove();
        state.rendered.delete(id);
      }
    }
    // Keep the order of the server (ids grow with time).
    const ordered = wanted.map((id) => state.rendered.get(id).element);
    ordered.forEach((element, index) => {
      if (list.children[index] !== element) list.insertBefore(element, list.children[index] || null);
    });
    if (!wanted.length) {
      list.replaceChildren(emptyChannel());
      state.rendered.clear();
    } else if (list.querySelector(".empty-channel")) {
      list.querySelector(".empty-channel").remove();
    }
    if (stickToBottom) list.scrollTop = list.scrollHeight;
  }

  function emptyChannel() {
    const box = el("div", "empty-channel");
    const channel = state.channels.find((c) => c.id === state.channelId);
    box.append(el("div", "empty-title", t("Welcome to #{channel}!", { channel: channel ? channel.name : "" })),
      el("div", "empty-text", t("Type / below to see the bot's commands.")));
    return box;
  }

  function withOwner(message) {
    const ephemeral = (Number(message.flags) & 64) !== 0;
    const owner = message.interaction_metadata && message.interaction_metadata.user;
    return { ...message, ephemeral_owner: ephemeral && owner ? owner.id : null };
  }

  function nameOf(id) {
    const user = state.users.find((u) => u.id === id);
    if (user) return user.global_name;
    if (state.bot && state.bot.id === id) return state.bot.global_name;
    return null;
  }

  function channelName(id) {
    const channel = state.channels.find((c) => c.id === id);
    return channel ? channel.name : null;
  }

  const LOOKUP = { user: nameOf, channel: channelName };

  function colourOf(id) {
    const palette = ["#5865f2", "#eb459e", "#57f287", "#fee75c", "#ed4245", "#3ba55c", "#faa61a"];
    let sum = 0;
    for (const c of String(id)) sum = (sum * 31 + c.charCodeAt(0)) % 9973;
    return palette[sum % palette.length];
  }

  function messageElement(message) {
    const box = el("article", `message${message.ephemeral_owner ? " ephemeral" : ""}`);
    box.dataset.messageId = message.id;
    if (message.ephemeral_owner) box.dataset.ephemeralOwner = message.ephemeral_owner;
    const meta = message.interaction_metadata;
    if (meta && meta.user && meta.type === 2) {
      const reply = el("div", "reply-line");
            reply.append(el("span", "reply-name", nameOf(meta.user.id) || meta.user.username),
        el("span", "", ` ${t("used a command")}`));
      box.append(reply);
    }
    const avatar = el("div", "avatar", (message.author.global_name || message.author.username)[0]);
    avatar.style.background = colourOf(message.author.id);
    const body = el("div", "message-body");
    const head = el("div", "message-head");
    head.append(el("span", "author", message.author.global_name || message.author.username));
    if (message.author.bot) head.append(el("span", "app-tag", "APP"));
    const time = el("time", "stamp", new Date(message.timestamp).toLocaleTimeString([],
      { hour: "2-digit", minute: "2-digit" }));
    time.dateTime = message.timestamp;
    head.append(time);
    body.append(head);
    if (message.loading) {
      body.append(el("div", "thinking", `${message.author.global_name} ${t("is thinking…")}`));
    }
    if (message.content) {
      const content = el("div", "content");
      content.innerHTML = Markdown.render(message.content, LOOKUP);
      if (message.edited_timestamp) content.append(el("span", "edited", ` ${t("(edited)")}`));
      body.append(content);
    }
    for (const embed of message.embeds || []) body.append(embedElement(embed, message));
    if (isComponentsV2(message)) {
      // A Components V2 message shows its files only where its components place them.
      for (const component of message.components || []) {
        const shown = layoutElement(message, component);
        if (shown) body.append(shown);
      }
    } else {
      for (const file of looseImages(message)) body.append(fileImage(file));
      for (const file of otherFiles(message)) body.append(fileLink(file));
      for (const row of message.components || []) body.append(rowElement(message, row));
    }
    const thread = state.channels.find((c) => c.thread && c.id === message.id);
    if (thread) body.append(threadLink(thread));
    if (message.ephemeral_owner) body.append(ephemeralNote(message));
    const line = el("div", "message-line");
    line.append(avatar, body);
    box.append(line);
    return box;
  }

  function threadLink(thread) {
    const link = el("button", "thread-link");
    link.type = "button";
    link.append(el("span", "", "🧵 "), el("strong", "", thread.name), el("span", "", ` — ${t("open thread")}`));
    link.addEventListener("click", () => openChannel(thread.id));
    return link;
  }

  function ephemeralNote(message) {
    const note = el("div", "ephemeral-note");
    note.append(el("span", "eye", "👁"), el("span", "", ` ${t("Only you can see this")} · `));
    const dismiss = el("button", "link-button", t("Dismiss message"));
    dismiss.type = "button";
    dismiss.addEventListener("click", () => {
      dismissed.add(message.id);
      refresh().catch(showError);
    });
    note.append(dismiss);
    return note;
  }

  // A file a message carries, as the page reads it (only users who see the message may).
  function fileUrl(file) {
    return `${file.url}?user=${userNumber}`;
  }

  // An embed's `attachment://name` is the message's file of that name, as Discord shows it.
  function resolved(message, url) {
    if (!url || !url.startsWith("attachment://")) return url;
    const name = url.slice("attachment://".length);
    const file = (message.attachments || []).find((a) => a.filename === name);
    return file ? fileUrl(file) : "";
  }

  // Pictures the message carries that no embed shows: below the message, as Discord does.
  function looseImages(message) {
    const used = new Set();
    for (const embed of message.embeds || []) {
      for (const part of [embed.image, embed.thumbnail]) {
        if (part && part.url && part.url.startsWith("attachment://")) {
          used.add(part.url.slice("attachment://".length));
        }
      }
    }
    return (message.attachments || []).filter(
      (a) => (a.content_type || "").startsWith("image/") && !used.has(a.filename));
  }

  // Files that are no pictures (a hand record): a box with the file's name to download it,
  // as Discord shows them.
  function otherFiles(message) {
    return (message.attachments || []).filter((a) => !(a.content_type || "").startsWith("image/"));
  }

  function fileLink(file) {
    const box = el("div", "attachment-file");
    box.append(el("span", "file-icon", "📄"));
    const link = el("a", "file-name", file.filename);
    link.href = fileUrl(file);
    link.download = file.filename;
    const size = el("span", "file-size", sizeText(file.size || 0));
    const words = el("div", "file-words");
    words.append(link, size);
    box.append(words);
    return box;
  }

  function sizeText(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }

  function fileImage(file) {
    const image = el("img", "attachment-image");
    image.src = fileUrl(file);
    image.alt = file.filename;
    return image;
  }

  function embedElement(embed, message) {
    const box = el("div", "embed");
    box.style.borderLeftColor = embed.color !== undefined && embed.color !== null
      ? `#${Number(embed.color).toString(16).padStart(6, "0")}` : "#1e1f22";
    const grid = el("div", "embed-grid");
    if (embed.author && embed.author.name) grid.append(el("div", "embed-author", embed.author.name));
    if (embed.title) {
      const title = el("div", "embed-title");
      title.innerHTML = Markdown.render(embed.title, LOOKUP);
      grid.append(title);
    }
    if (embed.description) {
      const description = el("div", "embed-description");
      description.innerHTML = Markdown.render(embed.description, LOOKUP);
      grid.append(description);
    }
    if (embed.fields && embed.fields.length) {
      const fields = el("div", "embed-fields");
      for (const field of embed.fields) {
        const box = el("div", `embed-field${field.inline ? " inline" : ""}`);
        const name = el("div", "field-name");
        name.innerHTML = Markdown.render(field.name, LOOKUP);
        const value = el("div", "field-value");
        value.innerHTML = Markdown.render(field.value, LOOKUP);
        box.append(name, value);
        fields.append(box);
      }
      grid.append(fields);
    }
    const imageUrl = embed.image && resolved(message, embed.image.url);
    if (imageUrl) {
      const image = el("img", "embed-image");
      image.src = imageUrl;
      image.alt = "";
      grid.append(image);
    }
    if ((embed.footer && embed.footer.text) || embed.timestamp) {
      const footer = el("div", "embed-footer");
      const parts = [];
      if (embed.footer && embed.footer.text) parts.push(embed.footer.text);
      if (embed.timestamp) parts.push(Markdown.absolute(new Date(embed.timestamp), "f"));
      footer.textContent = parts.join(" • ");
      grid.append(footer);
    }
    box.append(grid);
    const thumbnailUrl = embed.thumbnail && resolved(message, embed.thumbnail.url);
    if (thumbnailUrl) {
      const thumbnail = el("img", "embed-thumbnail");
      thumbnail.src = thumbnailUrl;
      thumbnail.alt = "";
      box.append(thumbnail);
    }
    return box;
  }

  function isComponentsV2(message) {
    return (Number(message.flags || 0) & IS_COMPONENTS_V2) !== 0;
  }

  // One component of a Components V2 message, drawn as Discord's client draws it.
  function layoutElement(message, component) {
    switch (component.type) {
      case 1: return rowElement(message, component);
      case 9: return sectionElement(message, component);
      case 10: return textDisplayElement(component);
      case 11: return thumbnailElement(message, component);
      case 12: return galleryElement(message, component);
      case 13: return fileComponentElement(message, component);
      case 14: return separatorElement(component);
      case 17: return containerElement(message, component);
      default: return null;
    }
  }

  function containerElement(message, component) {
    const box = el("div", "v2-container");
    if (component.accent_color !== undefined && component.accent_color !== null) {
      box.classList.add("accented");
      box.style.borderLeftColor = `#${Number(component.accent_color).toString(16).padStart(6, "0")}`;
    }
    for (const child of component.components || []) {
      const shown = layoutElement(message, child);
      if (shown) box.append(shown);
    }
    return box;
  }

  function sectionElement(message, component) {
    const box = el("div", "v2-section");
    const texts = el("div", "v2-section-texts");
    for (const child of component.components || []) texts.append(textDisplayElement(child));
    box.append(texts);
    const accessory = component.accessory || {};
    const side = el("div", "v2-accessory");
    if (accessory.type === 2) side.append(buttonElement(message, accessory));
    else if (accessory.type === 11) side.append(thumbnailElement(message, accessory));
    box.append(side);
    return box;
  }

  function textDisplayElement(component) {
    const text = el("div", "v2-text");
    text.innerHTML = Markdown.render(component.content || "", LOOKUP);
    return text;
  }

  function mediaImage(message, media, description, className) {
    const image = el("img", className);
    image.src = resolved(message, (media && media.url) || "");
    image.alt = description || "";
    return image;
  }

  function thumbnailElement(message, component) {
    return mediaImage(message, component.media, component.description, "v2-thumbnail");
  }

  function galleryElement(message, component) {
    const items = component.items || [];
    const box = el("div", `v2-gallery items-${Math.min(items.length, 4)}`);
    for (const item of items) box.append(mediaImage(message, item.media, item.description, "v2-media"));
    return box;
  }

  function fileComponentElement(message, component) {
    const url = (component.file && component.file.url) || "";
    const name = url.slice("attachment://".length);
    const file = (message.attachments || []).find((a) => a.filename === name);
    return file ? fileLink(file) : null;
  }

  function separatorElement(component) {
    const divider = component.divider === undefined ? true : Boolean(component.divider);
    const spacing = component.spacing === 2 ? "large" : "small";
    return el("div", `v2-separator ${spacing}${divider ? " divider" : ""}`);
  }

  function emojiElement(emoji) {
    if (!emoji) return null;
    if (emoji.id) {
      const image = el("img", "emoji");
      image.src = `/emojis/${emoji.id}.${emoji.animated ? "gif" : "png"}`;
      image.alt = `:${emoji.name}:`;
      return image;
    }
    return el("span", "emoji-text", emoji.name);
  }

  function rowElement(message, row) {
    const box = el("div", "component-row");
    for (const component of row.components || []) {
      if (component.type === 2) box.append(buttonElement(message, component));
      else if (component.type === 3) box.append(selectElement(message, component));
    }
    return box;
  }

  function buttonElement(message, component) {
    const button = el("button", `button ${STYLES[component.style] || "secondary"}`);
    button.type = "button";
    button.disabled = Boolean(component.disabled);
    const emoji = emojiElement(component.emoji);
    if (emoji) button.append(emoji);
    if (component.label) button.append(el("span", "label", component.label));
    if (component.style === 5) {
      button.addEventListener("click", () => window.open(component.url, "_blank", "noopener"));
      return button;
    }
    button.dataset.customId = component.custom_id;
    button.addEventListener("click", () =>
      interact(button, message, { type: "component", message_id: message.id,
        custom_id: component.custom_id }));
    return button;
  }

  function optionText(option) {
    const emoji = option.emoji && !option.emoji.id ? `${option.emoji.name} ` : "";
    return `${emoji}${option.label}${option.description ? ` — ${option.description}` : ""}`;
  }

  // A menu of one value: a native select, showing the option marked `default` if there is one
  // (else the placeholder); choosing another option sends it.
  function selectElement(message, component) {
    const least = component.min_values ?? 1;
    const most = component.max_values ?? 1;
    if (most > 1 || least === 0) return multiSelectElement(message, component, least, most);
    const options = component.options || [];
    const select = el("select", "select-menu");
    select.dataset.customId = component.custom_id;
    select.disabled = Boolean(component.disabled);
    const placeholder = el("option", "", component.placeholder || t("Make a selection"));
    placeholder.value = "";
    placeholder.disabled = true;
    placeholder.selected = !options.some((option) => option.default);
    select.append(placeholder);
    for (const option of options) {
      const item = el("option", "", optionText(option));
      item.value = option.value;
      item.selected = Boolean(option.default);
      select.append(item);
    }
    select.addEventListener("change", () => {
      if (!select.value) return;
      interact(select, message, { type: "component", message_id: message.id,
        custom_id: component.custom_id, values: [select.value] });
    });
    return select;
  }

  // A menu of several values (max_values > 1), or one that may be left empty (min_values 0),
  // as Discord's client shows it: options are ticked in a list that opens under the menu (no
  // more than max_values), those marked `default` ticked at first, and the choice is sent when
  // the list closes (the menu clicked again, a click outside, Escape) if it changed and holds
  // at least min_values; else the ticks go back to what they were.
  function multiSelectElement(message, component, least, most) {
    const box = el("div", "select-menu multi");
    box.dataset.customId = component.custom_id;
    box.dataset.minValues = String(least);
    box.dataset.maxValues = String(most);
    const toggle = el("button", "select-toggle");
    toggle.type = "button";
    toggle.disabled = Boolean(component.disabled);
    const list = el("div", "select-options");
    list.hidden = true;
    const options = component.options || [];
    const initial = options.filter((option) => option.default).map((option) => option.value);
    const ticks = options.map((option) => {
      const line = el("label", "select-option");
      const tick = el("input");
      tick.type = "checkbox";
      tick.value = option.value;
      tick.checked = initial.includes(option.value);
      const emoji = option.emoji && option.emoji.id ? emojiElement(option.emoji) : null;
      line.append(tick, ...(emoji ? [emoji] : []), el("span", "", optionText(option)));
      list.append(line);
      return tick;
    });
    const chosen = () => ticks.filter((tick) => tick.checked).map((tick) => tick.value);
    const show = () => {
      const values = chosen();
      const labels = options.filter((option) => values.includes(option.value)).map(optionText);
      toggle.textContent = labels.join(", ") || component.placeholder || t("Make a selection");
      toggle.classList.toggle("placeholder", !labels.length);
      for (const tick of ticks) tick.disabled = !tick.checked && values.length >= most;
    };
    const outside = (event) => {
      if (!box.contains(event.target)) close();
    };
    const close = () => {
      document.removeEventListener("mousedown", outside, true);
      if (list.hidden || !box.isConnected) return;
      list.hidden = true;
      box.classList.remove("open");
      const values = chosen();
      if (values.join("\n") !== initial.join("\n") && values.length >= least) {
        interact(box, message, { type: "component", message_id: message.id,
          custom_id: component.custom_id, values });
      } else {
        for (const tick of ticks) tick.checked = initial.includes(tick.value);
        show();
      }
    };
    toggle.addEventListener("click", () => {
      if (!list.hidden) return close();
      list.hidden = false;
      box.classList.add("open");
      document.addEventListener("mousedown", outside, true);
    });
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") close();
    });
    for (const tick of ticks) tick.addEventListener("change", show);
    box.append(toggle, list);
    show();
    return box;
  }

  // `data-busy` counts this page's interactions not yet answered and shown (tests wait on it).
  function busy(step) {
    const count = Number(document.body.dataset.busy || "0") + step;
    document.body.dataset.busy = String(count);
  }

  async function interact(control, message, payload) {
    control.classList.add("pending");
    busy(1);
    const article = control.closest(".message");
    stickToBottom = true;
    try {
      const answer = await postJson("/page/interactions", { user: userNumber, ...payload });
      if (!answer.answered) failed(article, answer.error);
      if (answer.activity) openActivity(answer.activity);
      await refresh();
    } catch (error) {
      failed(article, error.message);
    } finally {
      control.classList.remove("pending");
      busy(-1);
    }
  }

  // "Open the table": the Activity in a frame, as Discord opens it beside the channel; the
  // frame's sign-in (the SDK's authorize) is answered here with a code for this page's user.
  // Closing it leaves its instance, as in Discord (the Activity's server then closes its page).
  function openActivity(activity) {
    const open = document.getElementById("activity");
    if (open) {
      if (open.dataset.instance !== activity.instance) leaveActivity(open.dataset.instance);
      open.remove();
    }
    const origin = new URL(activity.url).origin;
    const frame = document.createElement("iframe");
    frame.src = `${activity.url}/`;
    frame.title = "Activity";
    const close = el("button", "activity-close", "✕");
    close.type = "button";
    close.setAttribute("aria-label", t("Close the Activity"));
    close.title = t("Close the Activity");
    const box = el("div", "activity");
    box.id = "activity";
    box.dataset.instance = activity.instance;
    box.append(close, frame);
    const answer = async (event) => {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      if (!event.data || event.data.type !== "cardtable-authorize") return;
      const { code } = await postJson("/page/activity/code", { user: userNumber });
      const { instance, channel } = activity;  // what Discord's SDK tells the Activity
      frame.contentWindow.postMessage({ type: "cardtable-code", code, instance, channel }, origin);
    };
    window.addEventListener("message", answer);
    close.addEventListener("click", () => {
      window.removeEventListener("message", answer);
      box.remove();
      leaveActivity(activity.instance);
    });
    document.body.append(box);
    frame.focus();
  }

  function leaveActivity(instance) {
    postJson("/page/activity/leave", { user: userNumber, instance }).catch(showError);
  }

  function failed(article, text) {
    if (!article) return showError(new Error(text));
    const note = el("div", "interaction-failed", `⚠ ${t(text || "This interaction failed")}`);
    article.querySelector(".message-body").append(note);
    setTimeout(() => note.remove(), 6000);
  }

  // ------------------------------------------------------------------ commands
  function localized(item, key) {
    const table = item[`${key}_localizations`];
    const locale = state.me ? state.me.locale : "en-US";
    return (table && (table[locale] || table[locale.split("-")[0]])) || item[key] || "";
  }

  // Each command as the user's Discord shows it (`shown`: its names in their language, "/dutch
  // lancer") and as an interaction names it (`path`: "dutch start"); either may be typed.
  function flatten(commands) {
    const flat = [];
    const walk = (item, path, shown) => {
      const children = item.options || [];
      const subs = children.filter((o) => o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP);
      if (subs.length) {
        subs.forEach((sub) => walk(sub, [...path, sub.name], [...shown, localized(sub, "name")]));
      } else {
        flat.push({ path: path.join(" "), shown: shown.join(" "), item, options: children });
      }
    };
    for (const command of commands) {
      // slash commands, and an Activity's entry point (type 4), which Discord lists with them
      if ([1, 4].includes(command.type || 1)) walk(command, [command.name], [localized(command, "name")]);
    }
    return flat.sort((a, b) => a.shown.localeCompare(b.shown));
  }

  function typed() {
    return $("command-input").value.replace(/^\//, "").trim().toLowerCase();
  }

  function named(command, text) {
    return command.path === text || command.shown.toLowerCase() === text;
  }

  function matches() {
    const text = typed();
    const starts = (name) => name.startsWith(text) || text.startsWith(name);
    return state.flatCommands.filter((c) => starts(c.shown.toLowerCase()) || starts(c.path));
  }

  function renderMenu() {
    const input = $("command-input");
    const menu = $("command-menu");
    if (!input.value.startsWith("/") || state.chosen) {
      menu.hidden = true;
      return;
    }
    const found = matches();
    state.menuIndex = Math.min(state.menuIndex, Math.max(found.length - 1, 0));
    menu.replaceChildren(el("div", "menu-title", t("Commands")), ...found.map((command, index) => {
      const row = el("div", `menu-item${index === state.menuIndex ? " active" : ""}`);
      row.setAttribute("role", "option");
      row.dataset.command = command.path;
      const name = el("span", "menu-name", `/${command.shown}`);
      const args = command.options.map((o) => {
        const word = localized(o, "name");
        return o.required ? word : `[${word}]`;
      }).join(" ");
      row.append(name, el("span", "menu-args", args),
        el("span", "menu-description", localized(command.item, "description")));
      row.addEventListener("mousedown", (event) => {
        event.preventDefault();
        choose(command);
      });
      return row;
    }));
    if (!found.length) menu.append(el("div", "menu-empty", t("No command matches.")));
    menu.hidden = false;
  }

  function choose(command) {
    state.chosen = command;
    $("command-input").value = `/${command.shown}`;
    $("command-menu").hidden = true;
    renderOptions();
  }

  function renderOptions() {
    const box = $("command-options");
    box.replaceChildren();
    if (!state.chosen) return;
    for (const option of state.chosen.options) {
      const pill = el("label", `option-pill${option.required ? " required" : ""}`);
      pill.title = localized(option, "description");
      pill.append(el("span", "option-name", localized(option, "name")));
      let field;
      if (option.choices && option.choices.length) {
        field = el("select");
        const none = el("option", "", t(option.required ? "choose…" : "(default)"));
        none.value = "";
        field.append(none, ...option.choices.map((choice) => {
          const item = el("option", "", localized(choice, "name"));
          item.value = String(choice.value);
          return item;
        }));
      } else if (option.type === 5) {
        field = el("select");
        for (const [value, text] of [["", t("(default)")], ["true", t("true")], ["false", t("false")]]) {
          const item = el("option", "", text);
          item.value = value;
          field.append(item);
        }
      } else if (option.type === 6) {
        field = el("select");
        const none = el("option", "", t("(default)"));
        none.value = "";
        field.append(none, ...state.users.map((user) => {
          const item = el("option", "", user.global_name);
          item.value = user.id;
          return item;
        }));
      } else {
        field = el("input");
        field.type = option.type === 4 || option.type === 10 ? "number" : "text";
        field.placeholder = t(TYPE_NAMES[option.type] || "value");
        if (option.min_value !== undefined) field.min = option.min_value;
        if (option.max_value !== undefined) field.max = option.max_value;
      }
      field.dataset.option = option.name;
      field.addEventListener("keydown", (event) => {
        if (event.key === "Enter") send();
      });
      pill.append(field);
      box.append(pill);
    }
  }

  async function send() {
    const input = $("command-input");
    const error = $("command-error");
    error.textContent = "";
    if (!state.chosen && input.value.trim() && !input.value.startsWith("/")) {
      return say(input.value.trim());
    }
    if (!state.chosen) {
      const exact = state.flatCommands.find((c) => named(c, typed())) || matches()[state.menuIndex];
      if (!exact) {
        if (input.value.trim()) error.textContent = t("No command matches.");
        return;
      }
      choose(exact);
      if (exact.options.some((o) => o.required)) return;
    }
    const options = {};
    for (const field of $("command-options").querySelectorAll("[data-option]")) {
      if (field.value !== "") options[field.dataset.option] = field.value;
    }
    const missing = state.chosen.options.find((o) => o.required && !(o.name in options));
    if (missing) {
      error.textContent = t("{option} is required.", { option: localized(missing, "name") });
      return;
    }
    const payload = { type: "command", channel_id: state.channelId, name: state.chosen.path, options };
    resetComposer();
    busy(1);
    stickToBottom = true;
    try {
      const answer = await postJson("/page/interactions", { user: userNumber, ...payload });
      if (!answer.answered) error.textContent = t(answer.error);
      if (answer.activity) openActivity(answer.activity);  // the entry point launched it
      await refresh();
    } catch (failure) {
      error.textContent = failure.message;
    } finally {
      busy(-1);
    }
  }

  // A plain message: "@Name" mentions a user or the bot, as Discord's client turns it into <@id>.
  async function say(text) {
    const people = [...state.users, state.bot].filter(Boolean);
    const content = people.reduce((written, person) => written.replace(
      new RegExp(`@${person.global_name}\\b`, "gi"), `<@${person.id}>`), text);
    resetComposer();
    busy(1);
    stickToBottom = true;
    try {
      await postJson("/page/messages", { user: userNumber, channel_id: state.channelId, content });
      await refresh();
    } catch (failure) {
      $("command-error").textContent = failure.message;
    } finally {
      busy(-1);
    }
  }

  function resetComposer() {
    state.chosen = null;
    state.menuIndex = 0;
    $("command-input").value = "";
    renderOptions();
    renderMenu();
  }

  function showError(error) {
    $("command-error").textContent = error.message;
  }

  // ------------------------------------------------------------------ controls
  function wire() {
    const input = $("command-input");
    input.addEventListener("input", () => {
      if (state.chosen && input.value !== `/${state.chosen.shown}`) {
        state.chosen = null;
        renderOptions();
      }
      if (!state.chosen) {
        const exact = state.flatCommands.find((c) => input.value.startsWith("/") && named(c, typed()));
        const longer = (c) => c !== exact && (c.path.startsWith(exact.path) || c.shown.startsWith(exact.shown));
        if (exact && !state.flatCommands.some(longer)) {
          choose(exact);
          return;
        }
      }
      state.menuIndex = 0;
      renderMenu();
    });
    input.addEventListener("keydown", (event) => {
      const found = matches();
      if (!$("command-menu").hidden && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        state.menuIndex = (state.menuIndex + step + found.length) % Math.max(found.length, 1);
        renderMenu();
      } else if (event.key === "Tab" && !$("command-menu").hidden && found.length) {
        event.preventDefault();
        choose(found[state.menuIndex]);
      } else if (event.key === "Enter") {
        event.preventDefault();
        send();
      } else if (event.key === "Escape") {
        resetComposer();
      }
    });
    input.addEventListener("blur", () => setTimeout(() => ($("command-menu").hidden = true), 150));
    input.addEventListener("focus", renderMenu);
    $("command-send").addEventListener("click", send);
    $("messages").addEventListener("click", (event) => {
      const link = event.target.closest("[data-channel-link]");
      if (link && state.channels.some((c) => c.id === link.dataset.channelLink)) {
        openChannel(link.dataset.channelLink);
      }
    });
    // A picture that loads after its message was drawn makes the list taller: still follow
    // the newest message (load events do not bubble: caught on their way down).
    $("messages").addEventListener(
      "load",
      () => {
        const list = $("messages");
        if (stickToBottom) list.scrollTop = list.scrollHeight;
      },
      true,
    );
    // Only the user stops the list following the newest message: a scroll that comes after
    // their wheel, a touch that moves, a drag of the scrollbar or a key that scrolls up, and
    // leaves the list short of its bottom (a click on a message's button is none of those).
    // The list also scrolls by itself: a picture takes its size (before its load event) and
    // the browser keeps what is shown in place, a message removed above (a turn's mention,
    // once played) makes it shorter. Such scrolls, up as well as down, must not stop it
    // following (the newest message would then stay below the view for good).
    const touched = () => (userScrolls = true);
    $("messages").addEventListener("wheel", touched, { passive: true });
    $("messages").addEventListener("touchmove", touched, { passive: true });
    $("messages").addEventListener("pointerdown", (event) => {
      if (event.target === $("messages")) touched(); // its scrollbar, not a message
    });
    $("messages").addEventListener("keydown", (event) => {
      if (["ArrowUp", "PageUp", "Home"].includes(event.key)) touched();
    });
    $("messages").addEventListener("scroll", () => {
      const list = $("messages");
      if (list.scrollHeight - list.scrollTop - list.clientHeight < 40) {
        stickToBottom = true;
        userScrolls = false; // back at the newest: later scrolls are the browser's until told
      } else if (userScrolls) {
        stickToBottom = false;
      }
    });
    $("channels-toggle").addEventListener("click", () =>
      showChannels(!$("app").classList.contains("channels-open")));
    $("scrim").addEventListener("click", () => showChannels(false));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") showChannels(false);
    });
    $("user-switch").addEventListener("change", (event) => {
      location.search = `?user=${event.target.value}&channel=${state.channelId}`;
    });
    $("locale-switch").addEventListener("change", async (event) => {
      try {
        state.me = await postJson(`/page/users/${userNumber}/locale`, { locale: event.target.value });
        state.rendered.clear(); // times and the page's own words change language
        $("messages").replaceChildren();
        await refresh();
      } catch (error) {
        showError(error);
      }
    });
    setInterval(() => {
      for (const node of document.querySelectorAll('time.md-time[data-style="R"]')) {
        node.textContent = Markdown.relative(new Date(node.dateTime));
      }
    }, 1000);
  }

  wire();
  connect();
})();
