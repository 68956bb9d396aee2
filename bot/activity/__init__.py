"""The card table as a Discord Activity: a web page beside the channel on the same tables.

`server` serves the page and one WebSocket per viewer; `hub` keeps the open pages of each
table and pushes them a fresh frame at every change; `frames` turns the service's snapshots
into the JSON a page receives (and nothing else does), with the words of `words` (the moves'
labels, the status and the log, worded by the game's plug-in in the viewer's language, and the
page's own texts from the catalogs); `tables` is the one module that calls the table service;
`running` serves the page on a port; by default in a process of its own (`process` is the
bot's side: it starts it and sends it the tables' snapshots at each change, over `bridge`,
less what the process has already: `changes`; `remote` is the process: its pages' frames are
built there, its moves asked of the bot); `watch` asks Discord again, now and then, whether
each open page's viewer is still in its Activity;
`identity` exchanges the SDK's OAuth2 code for the Discord user and asks Discord about the
page's Activity instance; `access` lets a page in only at a table of its instance's channel,
with its viewer among the instance's users. The page (`static/`) draws the table from each
frame (`table.js`; cards in the words as pictures, from the marks the server writes), lets a
card be dragged by mouse, pen or finger (`drag.js`, Pointer Events) and signs in (`app.js`).
"""
