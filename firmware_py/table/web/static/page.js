// The table's page: follows the table by server-sent events; a seated player joins with the
// code on the table's display and sends what the table asks for. Text only (textContent),
// never HTML built from the table's data. No framework, no build step.
"use strict";

const CSRF_HEADER = "X-Gametable-CSRF";
const $ = (id) => document.getElementById(id);

let state = null; // the table, as /api/events last sent it
let me = { seat: null }; // this phone's seat, from /api/me or /api/join
let sent = null; // what this phone last sent: { match, name, value }

function show(element, visible) {
  element.hidden = !visible;
}

// A refusal is shown beside what was refused (the entry, the join form, the seat), never at
// the foot of a long page where a phone would have to scroll to find it.
function setError(message, where = "error") {
  for (const id of ["error", "join-error", "seated-error"]) {
    const line = $(id);
    line.textContent = id === where ? message || "" : "";
    show(line, id === where && Boolean(message));
  }
}

// The places a phone may take: the seats, then the officials' (the Game Monitor).
function places() {
  return state ? [...state.seats, ...(state.officials || [])] : [];
}

function isOfficial(seat) {
  return Boolean(state && (state.officials || []).some((o) => o.seat === seat));
}

function nameOf(seat) {
  const found = places().find((s) => s.seat === seat);
  return found ? found.name : seat;
}

// A seat's label: "Ann (A)", but "Team A" alone where the name already says the seat.
function seatLabel(seat, name) {
  return name === seat || name.endsWith(` ${seat}`) ? name : `${name} (${seat})`;
}

function renderDisplay() {
  const screen = state.screen;
  // the OLED's title carries the clock, which the page shows in large type beside it
  const title = state.clock ? screen.title.replace(` ${state.clock}`, "") : screen.title;
  $("title").textContent = title;
  document.title = `${title} · gametable`;
  $("big").textContent = screen.big;
  // the next match's teams (R833) over the OLED's small lines
  $("lines").textContent = [screen.subtitle, ...screen.lines].filter(Boolean).join("\n");
  $("alert").textContent = screen.alert || "";
  show($("alert"), Boolean(screen.alert));
  $("clock").textContent = state.clock || "";
  show($("clock"), Boolean(state.clock));
  show($("unsaved"), !state.saved);
  show($("card-link"), Boolean(state.card));
}

function renderSeats() {
  const list = $("seats");
  list.replaceChildren(
    ...state.seats.map(({ seat, name }) => {
      const item = document.createElement("li");
      const light = document.createElement("span");
      light.className = `light ${state.lights[seat] || "off"}`;
      light.title = `seat ${seat}: ${state.lights[seat] || "off"}`;
      const label = document.createElement("span");
      // the name isolated from the page's direction (R848): a right-to-left name keeps its
      // "(A)" after it; the label's text is the same
      const own = document.createElement("bdi");
      own.textContent = name;
      label.append(own, seatLabel(seat, name).slice(name.length));
      if (seat === me.seat) label.textContent += " · you";
      else if ((state.phones || []).includes(seat)) label.textContent += " · phone";
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = String(state.scores[seat] ?? 0);
      item.append(light, label, score);
      return item;
    }),
  );
}

function renderFacts() {
  $("facts").replaceChildren(
    ...state.lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }),
  );
  const hasRows = state.rows.length > 0;
  show($("rows"), hasRows);
  $("heading").replaceChildren(
    ...state.heading.map((text) => {
      const cell = document.createElement("th");
      cell.textContent = text;
      return cell;
    }),
  );
  $("body").replaceChildren(
    ...state.rows.map((row) => {
      const line = document.createElement("tr");
      line.append(
        ...row.map((text) => {
          const cell = document.createElement("td");
          cell.textContent = text;
          return cell;
        }),
      );
      return line;
    }),
  );
}

function renderEntry() {
  const entry = state.entry;
  const seated = me.seat !== null;
  const open = seated && entry !== null && entry.seats.includes(me.seat);
  const done = seated && entry !== null && entry.done.includes(me.seat);
  show($("entry"), open || done);
  show($("entry-form"), open);
  if (open) {
    if ($("entry-label").textContent !== entry.label) {
      $("entry-label").textContent = entry.label;
      $("entry-value").value = "";
    }
    $("entry-value").dataset.name = entry.name;
    $("entry-value").inputMode = entry.keyboard;
  }
  const mine = sent && sent.match === state.match && entry && sent.name === entry.name;
  $("entry-done").textContent = done
    ? `Your ${entry.name} is in${mine ? `: ${sent.value}` : ""}. Waiting for the others.`
    : "";
  show($("entry-done"), done);
}

// A seat or an official's place waits for the dealer's press at the console: the phone shows
// the number the OLED shows and asks the table again until it is confirmed or runs out (R760).
let waitingTimer = null;

function renderWaiting() {
  const waiting = me.seat === null && Boolean(me.pending);
  $("waiting-number").textContent = waiting ? `Number ${me.number}` : "";
  $("waiting-line").textContent = waiting ? `: ${me.message}` : "";
  show($("waiting"), waiting);
  const notice = me.seat === null ? me.displaced || me.refused || "" : "";
  $("displaced").textContent = notice;
  show($("displaced"), Boolean(notice));
  $("seat-warning").textContent = me.seat !== null && me.warning ? me.warning : "";
  show($("seat-warning"), me.seat !== null && Boolean(me.warning));
  if (waiting && waitingTimer === null) {
    waitingTimer = setInterval(refreshMe, 1000);
  } else if (!waiting && waitingTimer !== null) {
    clearInterval(waitingTimer);
    waitingTimer = null;
  }
}

function renderJoin() {
  renderWaiting();
  const seated = me.seat !== null;
  show($("join"), !seated);
  show($("seated"), seated);
  if (seated) {
    const official = isOfficial(me.seat);
    $("seated-as").textContent = official ? "You are the " : "You are playing as ";
    $("seated-name").textContent = nameOf(me.seat);
    const named = seatLabel(me.seat, nameOf(me.seat)) === nameOf(me.seat);
    $("seated-seat").textContent = official || named ? "" : ` (seat ${me.seat})`;
    $("leave").textContent = official ? "Leave" : "Leave the seat";
    $("leave-question").textContent = official
      ? `Stop being the ${nameOf(me.seat)}? To come back, this phone asks again and the dealer presses COUNT.`
      : `Give up seat ${me.seat}? To get it back, this phone asks again and the dealer presses COUNT.`;
  } else {
    askingToLeave(false);
  }
  const select = $("join-seat");
  const wanted = places().map((s) => `${s.seat}:${s.name}`).join("|");
  if (select.dataset.seats !== wanted) {
    select.dataset.seats = wanted;
    const officials = (state.officials || []).map((o) => o.name);
    $("join-seat-label").textContent = officials.length
      ? `Your seat (or ${officials.join(", ")})`
      : "Your seat";
    select.replaceChildren(
      ...places().map(({ seat, name }) => {
        const option = document.createElement("option");
        option.value = seat;
        if (isOfficial(seat)) option.textContent = name;
        else if (name === seat) option.textContent = `Seat ${seat}`;
        else option.textContent = name.endsWith(` ${seat}`) ? name : `${name} (seat ${seat})`;
        return option;
      }),
    );
  }
}

function render() {
  if (!state) return;
  renderDisplay();
  renderSeats();
  renderFacts();
  renderEntry();
  renderJoin();
}

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me.csrf) headers[CSRF_HEADER] = me.csrf;
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new Error("the table did not answer: is this phone still on its network?");
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the table refused (${response.status})`);
  return answer;
}

// What this phone holds or waits for is the table's: a moment off the Wi-Fi (a fetch that
// fails) or an answer that is not this phone's (a refusal) changes nothing of it on the page.
// It showed the join form instead, and a waiting phone lost the number the dealer was to read
// (issue 25's attack, finding 8); the page asks again in a moment.
const ME_RETRY_MS = 2000;
let meRetry = null;

async function refreshMe() {
  let answer = null;
  try {
    const response = await fetch("/api/me", { credentials: "same-origin" });
    if (response.ok) answer = await response.json();
  } catch {
    // off the network for a moment: asked again below
  }
  if (answer === null) {
    if (meRetry === null) {
      meRetry = setTimeout(() => {
        meRetry = null;
        refreshMe();
      }, ME_RETRY_MS);
    }
    return;
  }
  me = answer;
  render();
}

// Following the table: server-sent events while the table serves them; when it refuses (too
// many pages open: said in words) or the connection drops, the page asks /api/state every few
// seconds instead and tries the stream again, waiting longer each time (R767).
const POLL_MS = 3000;
const FIRST_RETRY_MS = 2000;
const LONGEST_RETRY_MS = 60000;
let events = null;
let retryMs = FIRST_RETRY_MS;
let retryTimer = null;
let pollTimer = null;

function take(next) {
  const previous = state;
  state = next;
  const moved = previous && me.seat !== null && previous.match !== state.match;
  if (moved || (previous && previous.access !== state.access) || (!previous && me.pending)) {
    refreshMe(); // a new match ends the seats; a seat given or taken: ask what this phone holds
    return;
  }
  render();
}

async function poll() {
  try {
    const response = await fetch("/api/state", { credentials: "same-origin" });
    if (response.ok) take(await response.json());
  } catch {
    // the next poll, or the stream, will try again
  }
}

function startPolling() {
  if (pollTimer === null) {
    poll();
    pollTimer = setInterval(poll, POLL_MS);
  }
}

function stopPolling() {
  if (pollTimer !== null) {
    clearInterval(pollTimer);
    pollTimer = null;
  }
}

function retryLater(words) {
  if (events) events.close();
  events = null;
  const seconds = Math.round(retryMs / 1000);
  $("connection").textContent = `${words} Checking the table every ${POLL_MS / 1000} s; live again in ${seconds} s.`;
  startPolling();
  if (retryTimer === null) {
    retryTimer = setTimeout(() => {
      retryTimer = null;
      follow();
    }, retryMs);
  }
  retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
}

function follow() {
  events = new EventSource("/api/events");
  events.onopen = () => {
    $("connection").textContent = "Live: this page follows the table.";
  };
  events.addEventListener("refused", (message) => {
    let why = "the table refused live updates";
    try {
      why = JSON.parse(message.data).error || why;
    } catch {
      // keep the general words
    }
    retryLater(`Not live: ${why}.`);
  });
  events.onerror = () => {
    if (events && events.readyState === EventSource.CLOSED) {
      retryLater("Lost the table.");
    } else {
      $("connection").textContent = "Lost the table: reconnecting…";
    }
  };
  events.onmessage = (message) => {
    retryMs = FIRST_RETRY_MS;
    stopPolling();
    take(JSON.parse(message.data));
  };
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  setError("");
  try {
    me = await post("/api/join", { code: $("join-code").value, seat: $("join-seat").value });
    $("join-code").value = "";
    render();
    // the number to show the dealer, at the top: in view, wherever the form left the page
    $("waiting").scrollIntoView({ block: "nearest" });
  } catch (error) {
    setError(error.message, "join-error");
  }
});

$("entry-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  setError("");
  const input = $("entry-value");
  const name = input.dataset.name;
  const value = input.value.trim();
  $("entry-send").disabled = true;
  try {
    await post("/api/entry", { name, value });
    sent = { match: state.match, name, value };
    input.value = "";
    render();
  } catch (error) {
    setError(error.message);
    if (/seat|out of date/.test(error.message)) refreshMe();
  } finally {
    $("entry-send").disabled = false;
  }
});

// Leaving is asked first: one tap gave the seat up, and only the dealer gives it back.
function askingToLeave(asking) {
  show($("leave-confirm"), asking);
  show($("leave"), !asking);
}

$("leave").addEventListener("click", () => {
  setError("");
  askingToLeave(true);
  $("leave-keep").focus();
});

$("leave-keep").addEventListener("click", () => askingToLeave(false));

$("leave-yes").addEventListener("click", async () => {
  setError("");
  askingToLeave(false);
  try {
    await post("/api/leave", {});
  } catch (error) {
    setError(error.message, "seated-error");
  }
  me = { seat: null };
  render();
});

refreshMe();
follow();
