// Discord's message markdown, enough for what bots send: bold, italics, underline, strike,
// spoilers, code, quotes, headings, subtext, lists, mentions, custom emojis and <t:…> times.
// Text is escaped first, so nothing a message says can become markup of its own.
"use strict";

const Markdown = (() => {
  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

  // A time JavaScript cannot hold (beyond ±8.64e15 ms) is no time: null, the text stays as it is.
  function timestamp(seconds, style) {
    const date = new Date(Number(seconds) * 1000);
    if (Number.isNaN(date.getTime())) return null;
    const iso = date.toISOString();
    const text = style === "R" ? relative(date) : absolute(date, style);
    return `<time class="md-time" data-style="${style}" datetime="${iso}" title="${escapeHtml(
      date.toLocaleString(api.locale))}">${escapeHtml(text)}</time>`;
  }

  function absolute(date, style) {
    const options = {
      t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
      D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" },
      F: { dateStyle: "full", timeStyle: "short" },
    }[style] || { dateStyle: "long", timeStyle: "short" };
    return new Intl.DateTimeFormat(api.locale, options).format(date);
  }

  function relative(date) {
    const seconds = Math.round((date.getTime() - Date.now()) / 1000);
    const format = new Intl.RelativeTimeFormat(api.locale, { numeric: "auto" });
    const size = Math.abs(seconds);
    if (size < 60) return format.format(seconds, "second");
    if (size < 3600) return format.format(Math.round(seconds / 60), "minute");
    if (size < 86400) return format.format(Math.round(seconds / 3600), "hour");
    return format.format(Math.round(seconds / 86400), "day");
  }

  // `lookup.user(id)` and `lookup.channel(id)` name what a mention points at (null: unknown).
  function inline(text, lookup) {
    const codes = [];
    let html = escapeHtml(text).replace(/`([^`\n]+)`/g, (_, code) => {
      codes.push(`<code>${code}</code>`);
      return `\u0000${codes.length - 1}\u0000`;
    });
    html = html
      .replace(/&lt;(a?):(\w+):(\d+)&gt;/g, (_, animated, name, id) =>
        `<img class="emoji" alt=":${name}:" title=":${name}:" src="/emojis/${id}.${
          animated ? "gif" : "png"}">`)
      .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (whole, s, style) =>
        timestamp(s, style || "f") ?? whole)
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) =>
        `<span class="mention">@${escapeHtml(lookup.user(id) || "unknown")}</span>`)
      .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<button type="button" class="mention" data-channel-link="${
        id}">#${escapeHtml(lookup.channel(id) || "unknown")}</button>`)
      .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__(.+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|\W)_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~(.+?)~~/g, "<s>$1</s>")
      .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" tabindex="0">$1</span>');
    return html.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
  }

  function render(text, lookup = { user: () => null, channel: () => null }) {
    if (!text) return "";
    const blocks = String(text).split(/```/);
    return blocks
      .map((block, index) => {
        if (index % 2 === 1) {
          const body = block.replace(/^[a-z]*\n/, "");
          return `<pre><code>${escapeHtml(body)}</code></pre>`;
        }
        return block
          .split("\n")
          .map((line) => {
            let match;
            if ((match = line.match(/^(#{1,3}) (.*)$/))) {
              const level = match[1].length;
              return `<div class="md-h${level}">${inline(match[2], lookup)}</div>`;
            }
            if ((match = line.match(/^-# (.*)$/))) {
              return `<div class="md-sub">${inline(match[1], lookup)}</div>`;
            }
            if ((match = line.match(/^>>?>? ?(.*)$/))) {
              return `<div class="md-quote">${inline(match[1], lookup)}</div>`;
            }
            if ((match = line.match(/^\s*[-*] (.*)$/))) {
              return `<div class="md-li">${inline(match[1], lookup)}</div>`;
            }
            return `<div class="md-line">${inline(line, lookup) || "&nbsp;"}</div>`;
          })
          .join("");
      })
      .join("");
  }

  // `locale`: the reader's Discord language, which times are written in.
  const api = { render, escapeHtml, relative, absolute, locale: undefined };
  return api;
})();
