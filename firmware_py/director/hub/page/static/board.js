// The director's live grid: every table's status and state from the hub's event stream
// (/api/events), redrawn tile by tile as tables change. Text only (textContent), never HTML
// built from a table's data. No framework, no build step.
"use strict";

const tiles = new Map(); // table number -> its tile element
const rows = new Map(); // table number -> the row last received

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined && text !== null) made.textContent = String(text);
  return made;
}

function statusOf(row) {
  if (row.online === true) return "online";
  if (row.online === false) return "offline";
  return "status unknown";
}

function heardAgo(row) {
  if (row.heard === null) return "no state yet";
  const seconds = Math.max(0, Math.round(Date.now() / 1000 - row.heard));
  return seconds < 60 ? `heard ${seconds} s ago` : `heard ${Math.round(seconds / 60)} min ago`;
}

function alertOf(row) {
  if (!row.saved) return "JOURNAL NOT SAVED";
  return row.alert;
}

function draw(row) {
  let tile = tiles.get(row.table);
  if (!tile) {
    tile = element("a", "tile");
    tile.href = `/tables/${row.table}`;
    tile.id = `table-${row.table}`;
    tiles.set(row.table, tile);
    const grid = document.getElementById("tables");
    const after = [...tiles.keys()].filter((n) => n > row.table).sort((a, b) => a - b)[0];
    grid.insertBefore(tile, after === undefined ? null : tiles.get(after));
  }
  const status = statusOf(row);
  const alert = alertOf(row);
  tile.className = `tile ${row.online === false ? "offline" : ""} ${alert ? "alerting" : ""}`;
  const head = element("div", "head");
  head.append(element("span", "", `Table ${row.table}`), element("span", `status ${status}`, status));
  const what = [row.family, row.format, row.round ? `round ${row.round}` : null]
    .filter(Boolean)
    .join(" · ");
  const game = element("div", "game", row.game || row.title || "");
  if (row.clock) game.prepend(element("span", "clock", row.clock));
  const scores = Object.entries(row.scores)
    .map(([seat, points]) => `${seat} ${points}`)
    .join("  ");
  const parts = [head, element("div", "what", what || "—"), game, element("div", "scores", scores)];
  if (alert) parts.push(element("div", "alert", alert));
  parts.push(element("div", "what heard", heardAgo(row)));
  tile.replaceChildren(...parts);
}

function connect() {
  const connection = document.getElementById("connection");
  const stream = new EventSource("/api/events");
  stream.onopen = () => {
    connection.textContent = "Live: the tables as the hub hears them";
  };
  stream.onmessage = (message) => {
    const update = JSON.parse(message.data);
    if (update.full) {
      tiles.clear();
      rows.clear();
      document.getElementById("tables").replaceChildren();
    }
    for (const row of update.rows) {
      rows.set(row.table, row);
      draw(row);
    }
    if (rows.size === 0) connection.textContent = "Live: no table heard from yet";
  };
  // the hub's limit on live pages (from this address, or in all): its words, no retrying
  stream.addEventListener("refused", (message) => {
    stream.close();
    connection.textContent = `Not live: ${JSON.parse(message.data).error}`;
  });
  stream.onerror = () => {
    if (stream.readyState === EventSource.CLOSED) return; // refused above: keep its words
    connection.textContent = "Connection to the hub lost: trying again…";
  };
}

function tick() {
  for (const row of rows.values()) {
    const tile = tiles.get(row.table);
    const heard = tile && tile.querySelector(".heard");
    if (heard) heard.textContent = heardAgo(row);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.getElementById("tables")) {
    connect();
    setInterval(tick, 5000);
  }
});
