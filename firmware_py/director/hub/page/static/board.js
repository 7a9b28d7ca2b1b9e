// The director's control room: every table's status and state from the hub's event stream
// (/api/events), redrawn tile by tile as tables change; each tile's teams, result and the
// problems the record knows of it, and the problem queue, from /api/problems every few
// seconds. Tiles sorted by what needs attention first, filtered and searched (docs/hub.md,
// "The control room"). Text only (textContent), never HTML built from a table's data. No
// framework, no build step.
"use strict";

const HALL_SECONDS = 5; // how often the queue and the teams are read again
const tiles = new Map(); // table number -> its tile element
const rows = new Map(); // table number -> the board row last received
let hall = { tables: {}, kinds: {}, problems: [], silent_seconds: 300, round: null };
let skew = 0; // the hub's clock minus this browser's, in seconds
let arranging = null;
let shownOrder = "";
let reading = null; // the queue read again soon: a table's own problems changed
const shownKinds = new Map(); // table number -> its board problems last drawn
const openLists = new Set(); // the queue's lists of tables the director opened
const roomHeadings = new Map(); // a room's name (its building first) -> its heading in the grid
const NO_ROOM = "Tables in no room";
// An event's page on a day's page lives under /events/<slug> (R1140): its own addresses,
// written from the root as the one-record page's are, are put under it here.
const BASE = document.querySelector('meta[name="gametable-base"]')?.content || "";

function within(address) {
  if (!BASE || !address.startsWith("/") || address.startsWith("//")) return address;
  if (address === BASE || address.startsWith(BASE + "/")) return address;
  return BASE + address;
}

// the OLED's own alerts for a table's faults (problems.py: STUCK_ALERT, JOURNAL_ALERT, ...)
const STUCK = "STUCK ";
const JOURNAL = "JOURNAL ERROR";
const SCOREBOARD = "SCOREBOARD LOST";
const UNSENT = "HUB: UNSENT CONFIRMED";
const OUTBOX = "HUB: OUTBOX DAMAGED";
const KIND_ORDER = [
  "conflict", "two_versions", "machines", "refused", "not_applied", "journal_limit", "journal",
  "stuck", "offline", "silent", "scoreboard", "outbox", "unsent", "clock", "restarted", "missing",
];

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined && text !== null) made.textContent = String(text);
  return made;
}

function now() {
  return Date.now() / 1000 + skew;
}

function ago(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function statusOf(row) {
  if (!row || row.online === null) return "status unknown";
  return row.online ? "online" : "offline";
}

function heardAgo(row) {
  if (!row || row.heard === null) return "no state yet";
  return `heard ${ago(now() - row.heard)} ago`;
}

// The problems the live board shows of a table (the same rules as problems.py's, R800).
function boardKinds(row) {
  if (!row) return [];
  const alert = row.alert || "";
  const kinds = [];
  if (row.machines && row.machines.length > 1) kinds.push("machines"); // R1003
  if (row.online === false) kinds.push("offline");
  else if (row.in_game && row.heard !== null && now() - row.heard > hall.silent_seconds) {
    kinds.push("silent");
  }
  if (!row.saved || alert.startsWith(JOURNAL)) kinds.push("journal");
  if (alert.startsWith(STUCK)) kinds.push("stuck");
  if (alert === SCOREBOARD) kinds.push("scoreboard");
  if (alert === OUTBOX) kinds.push("outbox");
  if (alert === UNSENT) kinds.push("unsent");
  return kinds;
}

function kindsOf(table) {
  const info = hall.tables[table];
  const kinds = [...boardKinds(rows.get(table)), ...(info ? info.problems : [])];
  return [...new Set(kinds)].sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b));
}

function chipText(kind, row) {
  if (kind === "stuck") return row.alert;
  if (kind === "journal") return "JOURNAL NOT SAVED";
  if (kind === "silent") return `SILENT ${ago(now() - row.heard)}`;
  return (hall.kinds[kind] || kind).toUpperCase();
}

// What a tile is doing, for the status filter and the order (R802): a tile may be several.
function facts(table) {
  const row = rows.get(table);
  const info = hall.tables[table];
  const kinds = kindsOf(table);
  const inRound = Boolean(info && info.round !== null);
  const playing = Boolean(row && row.in_game);
  const done = Boolean(inRound && info.result);
  return {
    kinds,
    attention: kinds.length > 0,
    waiting: inRound && !done && !playing,
    playing,
    done,
    offline: Boolean(row && row.online === false),
    unheard: !row || row.heard === null,
    missing: inRound && !done,
    round: (row && row.round) || (info && info.round) || null,
  };
}

function rank(table) {
  const f = facts(table);
  if (f.attention) return [0, KIND_ORDER.indexOf(f.kinds[0])];
  if (f.waiting && !f.unheard) return [1, 0];
  if (f.playing) return [2, 0];
  if (f.missing) return [3, 0]; // in the round, never heard from
  if (f.done) return [4, 0];
  return [5, 0];
}

function draw(table) {
  let tile = tiles.get(table);
  if (!tile) {
    tile = element("a", "tile");
    tile.href = within(`/tables/${table}`);
    tile.id = `table-${table}`;
    tiles.set(table, tile);
    document.getElementById("tables").append(tile);
    shownOrder = ""; // a new tile: arrange again
  }
  const row = rows.get(table);
  const info = hall.tables[table];
  const f = facts(table);
  const status = statusOf(row);
  const kinds = boardKinds(row).join(" ");
  if ((shownKinds.get(table) || "") !== kinds) {
    shownKinds.set(table, kinds);
    readHallSoon(); // the queue says so within a second, not at its next read
  }
  tile.className = ["tile", f.offline ? "offline" : "", f.attention ? "alerting" : "",
    f.done ? "done" : "", f.unheard ? "unheard" : ""].filter(Boolean).join(" ");
  tile.dataset.teams = info && info.a ? `${info.a}\n${info.b}`.toLowerCase() : "";
  const head = element("div", "head");
  head.append(element("span", "", `Table ${table}`), element("span", `status ${status}`, status));
  const parts = [head];
  if (info && info.a) {
    const pair = element("div", "pair");
    const a = element("span", "team", `A ${info.a}`);
    const b = element("span", "team", `B ${info.b}`);
    a.title = info.a; // the whole name where the tile cuts it with "…"
    b.title = info.b;
    pair.append(a, b);
    parts.push(pair);
  } else if (hall.round !== null) {
    parts.push(element("div", "pair none", `no match in round ${hall.round}`));
  }
  if (row) {
    const what = [row.family, row.format, row.round ? `round ${row.round}` : null]
      .filter(Boolean).join(" · ");
    const game = element("div", "game", row.game || row.title || "");
    if (row.clock) game.prepend(element("span", "clock", row.clock));
    const scores = Object.entries(row.scores)
      .map(([seat, points]) => `${seat} ${points}`)
      .join("  ");
    parts.push(element("div", "what", what || "—"), game, element("div", "scores", scores));
  }
  if (f.kinds.length) {
    const chips = element("div", "chips");
    for (const kind of f.kinds) {
      if (kind !== "missing") chips.append(element("span", `alert chip ${kind}`, chipText(kind, row)));
    }
    parts.push(chips);
  }
  if (row && row.alert && !boardKinds(row).length) parts.push(element("div", "note", row.alert));
  const result = !info || info.round === null ? "" : info.result ? ` · result ${info.result}`
    : " · no result yet";
  parts.push(element("div", "what heard", heardAgo(row) + result));
  tile.replaceChildren(...parts);
}

function matches(table, f) {
  const search = document.getElementById("tile-search");
  const wanted = search ? search.value.trim().toLowerCase() : "";
  if (wanted) {
    const teams = tiles.get(table).dataset.teams || "";
    if (String(table) !== wanted && !teams.includes(wanted)) return false;
  }
  const round = valueOf("tile-round");
  if (round && String(f.round) !== round) return false;
  const status = valueOf("tile-status");
  if (status && !f[status]) return false;
  const problem = valueOf("tile-problem");
  if (problem === "missing" && !f.missing) return false;
  if (problem && problem !== "missing" && !f.kinds.includes(problem)) return false;
  return true;
}

function valueOf(id) {
  const field = document.getElementById(id);
  return field ? field.value : "";
}

// A heading of the grid's, made once per room (R1114): it spans the grid's whole row.
function roomHeading(name) {
  let heading = roomHeadings.get(name);
  if (!heading) {
    heading = element("h3", "room-heading", name);
    roomHeadings.set(name, heading);
  }
  return heading;
}

// The grid's groups: each room's tables under its heading, by the rooms' first tables, then
// the tables in no room; without rooms, one group without a heading, as before (R1114).
function groups(order) {
  const rooms = hall.rooms || [];
  if (!rooms.length) return [{ heading: null, tables: order }];
  const roomOf = new Map();
  rooms.forEach((room, index) => room.tables.forEach((table) => roomOf.set(table, index)));
  const found = rooms.map((room) => ({ heading: roomHeading(room.name), tables: [] }));
  const none = { heading: roomHeading(NO_ROOM), tables: [] };
  for (const table of order) {
    const index = roomOf.get(table);
    (index === undefined ? none : found[index]).tables.push(table);
  }
  return [...found, none].filter((group) => group.tables.length);
}

// Tiles in order of what needs attention (within each room), the ones the filter hides hidden;
// the grid is reordered only when its order changed, at most a few times a second.
function arrange() {
  arranging = null;
  const grid = document.getElementById("tables");
  if (!grid) return;
  const order = [...tiles.keys()].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || a - b;
  });
  let shown = 0;
  for (const table of order) {
    const visible = matches(table, facts(table));
    tiles.get(table).hidden = !visible;
    if (visible) shown += 1;
  }
  const grouped = groups(order);
  for (const group of grouped) {
    if (group.heading) group.heading.hidden = group.tables.every((t) => tiles.get(t).hidden);
  }
  const key = grouped
    .map((group) => `${group.heading ? group.heading.textContent : ""}:${group.tables}`)
    .join(";");
  if (key !== shownOrder) {
    for (const heading of roomHeadings.values()) heading.remove();
    grid.append(
      ...grouped.flatMap((group) => [
        ...(group.heading ? [group.heading] : []),
        ...group.tables.map((table) => tiles.get(table)),
      ]),
    );
    shownOrder = key;
  }
  const count = document.getElementById("tile-count");
  if (count) count.textContent = `${shown} of ${tiles.size} tables`;
}

function arrangeSoon() {
  if (arranging === null) arranging = setTimeout(arrange, 250);
}

// --- the queue -----------------------------------------------------------------------------

function problemItem(problem, csrf, back) {
  const item = element("li", `problem ${problem.kind}`);
  const since = element("span", "since", "");
  since.dataset.since = problem.since;
  since.dataset.clock = problem.clock; // the venue's clock, as the hub words it (R1181)
  item.append(element("span", "kind", problem.label), " ", since);
  item.append(element("p", "what", problem.what), element("p", "todo", problem.todo));
  const doing = element("p", "do");
  problem.links.forEach((link, index) => {
    if (index) doing.append(" · ");
    const anchor = element("a", "", link.text);
    anchor.href = within(link.href);
    doing.append(anchor);
  });
  if (problem.seen_key && csrf) {
    const form = element("form", "inline");
    form.method = "post";
    form.action = within("/problems/seen");
    for (const [name, value] of [["csrf", csrf], ["key", problem.seen_key], ["back", back]]) {
      const field = element("input");
      field.type = "hidden";
      field.name = name;
      field.value = value;
      form.append(field);
    }
    form.append(element("button", "", "Mark seen"));
    doing.append(" ", form);
  }
  item.append(doing);
  if (problem.tables.length) {
    const list = element("details", "missing-tables");
    list.open = openLists.has(problem.kind);
    list.addEventListener("toggle", () => {
      if (list.open) openLists.add(problem.kind);
      else openLists.delete(problem.kind);
    });
    const count = problem.tables.length;
    list.append(element("summary", "", count === 1 ? "The table" : `The ${count} tables`));
    for (const table of problem.tables) {
      const anchor = element("a", "", table);
      // the result form for staff who may enter results, else the table's record (R811)
      anchor.href = within(
        hall.enters_results
          ? `/?round=${problem.round}&table=${table}#result-form`
          : `/tables/${table}`,
      );
      list.append(anchor, " ");
    }
    item.append(list);
  }
  return item;
}

function drawProblems() {
  const list = document.getElementById("problems");
  if (!list) return;
  const csrfField = document.querySelector('input[name="csrf"]');
  const csrf = csrfField ? csrfField.value : null;
  const back = list.dataset.back || "/";
  list.replaceChildren(...hall.problems.map((problem) => problemItem(problem, csrf, back)));
  document.getElementById("problem-count").textContent = String(hall.problems.length);
  document.getElementById("no-problems").hidden = hall.problems.length > 0;
  tickSince();
  markMore();
}

// The queue on top of "/" scrolls in a box (page.css): when it holds more than the box shows,
// say how many show (a problem cut by the box's edge counts as "in part": one taller than the
// box is never "0 shown"), fade its last line while more is below, and offer to show them all.
// Emptied, the queue folds back into its box and the line goes.
function markMore() {
  const list = document.getElementById("problems");
  const more = document.getElementById("problems-more");
  if (!list || !more) return;
  const section = list.closest(".problems");
  const total = list.children.length;
  if (total === 0) section.classList.remove("all");
  const all = section.classList.contains("all");
  const over = list.scrollHeight > list.clientHeight + 2;
  const below = list.scrollTop + list.clientHeight < list.scrollHeight - 2;
  section.classList.toggle("more-below", over && below);
  more.hidden = total === 0 || (!over && !all);
  if (more.hidden) return;
  const top = list.getBoundingClientRect().top;
  const bottom = top + list.clientHeight;
  let whole = 0;
  let part = 0;
  for (const item of list.children) {
    const box = item.getBoundingClientRect();
    if (box.top >= top - 1 && box.bottom <= bottom + 1) whole += 1;
    else if (box.bottom > top + 1 && box.top < bottom - 1) part += 1;
  }
  const problems = total === 1 ? "1 problem" : `${total} problems`;
  const shown = [whole ? `${whole} shown` : "", part ? `${part} in part` : ""].filter(Boolean);
  document.getElementById("problems-shown").textContent = all
    ? `${problems}, ${total === 1 ? "shown whole" : "all shown"}`
    : `${problems}, ${shown.join(", ") || "none shown"}: scroll the list for the rest, or`;
  const button = document.getElementById("problems-all");
  button.textContent = all ? "Show fewer" : total === 1 ? "Show it whole" : `Show all ${total}`;
  button.setAttribute("aria-expanded", String(all));
}

function tickSince() {
  for (const since of document.querySelectorAll("#problems .since")) {
    const at = Number(since.dataset.since);
    since.textContent = `since ${since.dataset.clock}, ${ago(now() - at)}`;
  }
}

function readHallSoon() {
  if (reading === null) reading = setTimeout(readHall, 500);
}

async function readHall() {
  clearTimeout(reading);
  reading = null;
  try {
    const answer = await fetch(within("/api/problems"), { cache: "no-store" });
    if (!answer.ok) return;
    hall = await answer.json();
    skew = hall.now - Date.now() / 1000;
  } catch (error) {
    return; // the hub is away: the connection line says so; tried again in a moment
  }
  drawProblems();
  if (document.getElementById("tables")) {
    for (const table of Object.keys(hall.tables).map(Number)) draw(table);
    for (const table of tiles.keys()) if (!(table in hall.tables)) draw(table);
    arrangeSoon();
  }
}

// --- the live board ------------------------------------------------------------------------

function connect() {
  const connection = document.getElementById("connection");
  const stream = new EventSource(within("/api/events"));
  stream.onopen = () => {
    connection.textContent = "Live: the tables as the hub hears them";
  };
  stream.onmessage = (message) => {
    const update = JSON.parse(message.data);
    if (update.full) {
      rows.clear(); // the hub again, from the start: a tile only for what it knows now
      for (const [table, tile] of [...tiles]) {
        if (!(table in hall.tables)) {
          tile.remove();
          tiles.delete(table);
        }
      }
    }
    for (const row of update.rows) {
      rows.set(row.table, row);
      draw(row.table);
    }
    if (update.full) for (const table of tiles.keys()) if (!rows.has(table)) draw(table);
    arrangeSoon();
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

// "heard ... ago", "silent" and the queue's "since" move with time alone
function tick() {
  for (const table of tiles.keys()) draw(table);
  tickSince();
  arrangeSoon();
}

// A link from the queue (/?round=R&table=T&a_points=A&b_points=B#result-form) fills the
// director's result form; the director still checks it and sends it.
function fillResultForm() {
  const form = document.getElementById("result-form");
  const query = new URLSearchParams(window.location.search);
  if (!form || !query.has("table")) return;
  for (const name of ["round", "table", "a_points", "b_points"]) {
    const field = form.querySelector(`[name="${name}"]`);
    if (field && query.has(name)) field.value = query.get(name);
  }
  const next = query.has("a_points") ? "reason" : "a_points";
  const field = form.querySelector(`[name="${next}"]`);
  if (field) field.focus();
}

document.addEventListener("DOMContentLoaded", () => {
  fillResultForm();
  if (document.getElementById("tables")) {
    connect();
    for (const id of ["tile-search", "tile-round", "tile-status", "tile-problem"]) {
      const field = document.getElementById(id);
      if (field) field.addEventListener("input", arrange);
    }
  }
  const list = document.getElementById("problems");
  const showAll = document.getElementById("problems-all");
  if (list && showAll) {
    list.addEventListener("scroll", markMore, { passive: true });
    window.addEventListener("resize", markMore);
    showAll.addEventListener("click", () => {
      list.closest(".problems").classList.toggle("all");
      markMore();
    });
  }
  if (document.getElementById("tables") || document.getElementById("problems")) {
    readHall();
    setInterval(readHall, HALL_SECONDS * 1000);
    setInterval(tick, 5000);
  }
});
