"""What the tables and the hub say to each other on the tournament's MQTT broker (docs/hub.md).

Topics, each table's under its own number (the broker's ACL lets a table write only there):

- ``tables/<n>/status``  retained: ``online`` (the table's birth) or ``offline`` (its last will)
- ``tables/<n>/state``   retained: what the table shows now (JSON, latest wins), and the
  machine it runs on (``machine``: its host name and a digest of its ids, R1003)
- ``tables/<n>/events``  QoS 1: each decision with its journal and place in it, and its session
- ``tournament/rounds/<r>/pairings``  retained, written by the hub: a round's matches by table
- ``tournament/applied/<n>``  retained, written by the hub: for each of table ``n``'s journals,
  the seq up to which its record holds every decision (the table keeps each decision until this
  covers it), and whether the hub is missing one (a gap: the table sends again at once)
- ``tournament/hub``  retained, written by the hub: online or offline (its last will), its record
- ``tournament/pentathlon/rounds/<r>/seats``  retained, written by the hub: a Pentathlon round's
  seats by table (the game, both players' names and division) and the event's name (R795)
- ``tournament/events/<slug>/rounds/<r>/pairings`` and
  ``tournament/events/<slug>/pentathlon/rounds/<r>/seats``  retained, written by a hub serving
  a day of several events (R1116): each event's rounds, as the two above
- ``tournament/tables/<n>/event``  retained, written by that hub: the event table ``n`` plays
  for (empty: none); the table shows that event's latest round (R1131)

The table number is the table's number in the tournament's pairings. Every payload is parsed
here, on the way in: a message that is not what it should be raises ``WireError`` in one line.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from firmware_py.table.family import PairedMatch
from rules.tournament.short_names import MAX_SHORT, short_key, short_names

MAX_TABLE = 999  # table numbers 1..999: a hall of 200 tables with room to spare
MAX_JOURNAL_ID = 64  # a journal's id is 32 hex digits
# The journals one confirmation names: a table's current one and those it carried over from the
# journals moved aside before it (R713), most recently active first.
MAX_CONFIRMED_JOURNALS = 32
# Every number in a decision: JSON's safe integers, far inside SQLite's int64 (R196).
MAX_NUMBER = 2**53
MAX_ROUND = 99  # the longest format's rounds (Combo 4)
MAX_WALL = 64  # an ISO 8601 time with its fraction and offset is 32 characters
ONLINE, OFFLINE = "online", "offline"
EVENTS_OF_EVERY_TABLE = "tables/+/events"
STATUS_OF_EVERY_TABLE = "tables/+/status"
STATE_OF_EVERY_TABLE = "tables/+/state"
EVERY_ROUNDS_PAIRINGS = "tournament/rounds/+/pairings"
EVERY_TABLES_CONFIRMATION = "tournament/applied/+"
HUB_STATUS = "tournament/hub"
EVERY_PENTATHLON_ROUNDS_SEATS = "tournament/pentathlon/rounds/+/seats"
# A day of several events (R1116-R1119): each event's rounds under its short name, and the
# event each table plays for, retained per table.
EVERY_EVENTS_ROUNDS_PAIRINGS = "tournament/events/+/rounds/+/pairings"
EVERY_EVENTS_PENTATHLON_SEATS = "tournament/events/+/pentathlon/rounds/+/seats"
EVERY_TABLES_EVENT = "tournament/tables/+/event"
EVENT_SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,22}[a-z0-9])?")  # day_record.SLUG's
MAX_EVENTS = 64  # the events of one day a table keeps rounds of (day_record.MAX_EVENTS)
MAX_TEXT = 80  # a name, an event's name (the record's bound on a Pentathlete's name)
MAX_HOST = 64  # a host name as a person reads it (a DNS label is at most 63 characters)
MACHINE_ID_DIGITS = 12  # hex digits of a machine's digest: 48 bits, no two Pis of a hall alike
OLED_TITLE_CHARS = 21  # the small font on a 128-pixel-wide panel


Round = TypeVar("Round")  # a round's pairings, or a Pentathlon round's seats


class WireError(ValueError):
    """A message that is not what its topic promises; ``str()`` is one line."""


def status_topic(table: int) -> str:
    return f"tables/{table}/status"


def state_topic(table: int) -> str:
    return f"tables/{table}/state"


def events_topic(table: int) -> str:
    return f"tables/{table}/events"


def pairings_topic(round_number: int) -> str:
    return f"tournament/rounds/{round_number}/pairings"


def pentathlon_seats_topic(round_number: int) -> str:
    return f"tournament/pentathlon/rounds/{round_number}/seats"


def applied_topic(table: int) -> str:
    return f"tournament/applied/{table}"


def event_pairings_topic(event: str, round_number: int) -> str:
    return f"tournament/events/{event}/rounds/{round_number}/pairings"


def event_seats_topic(event: str, round_number: int) -> str:
    return f"tournament/events/{event}/pentathlon/rounds/{round_number}/seats"


def table_event_topic(table: int) -> str:
    return f"tournament/tables/{table}/event"


@dataclass(frozen=True, slots=True)
class TablesEvent:
    """The event a table plays for (retained on ``table_event_topic``): its short name, which
    names its topics, and its name, which the OLED may show."""

    event: str
    name: str

    def to_bytes(self) -> bytes:
        return _encode({"event": self.event, "name": self.name})


def parse_tables_event(payload: bytes) -> TablesEvent:
    data = _decode(payload, "a table's event")
    event, name = data.get("event"), data.get("name")
    if not isinstance(event, str) or not EVENT_SLUG.fullmatch(event):
        raise WireError("a table's event: expected its short name, like combo4-junior")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_TEXT:
        raise WireError(f"a table's event: expected its name of 1-{MAX_TEXT} characters")
    return TablesEvent(event, name)


def table_number(text: str) -> int | None:
    """A table's number written as in a topic or a user name ("7"), or None."""
    if not (text.isascii() and text.isdecimal()) or text.startswith("0"):
        return None
    if len(text) > len(str(MAX_TABLE)):  # never int() of 5,000 digits: a ValueError (R941)
        return None
    number = int(text)
    return number if number <= MAX_TABLE else None


def table_of(topic: str, leaf: str) -> int | None:
    """The table a ``tables/<n>/<leaf>`` topic belongs to, or None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != "tables" or parts[2] != leaf:
        return None
    return table_number(parts[1])


def confirmed_table_of(topic: str) -> int | None:
    """The table a ``tournament/applied/<n>`` topic confirms, or None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[:2] != ["tournament", "applied"]:
        return None
    return table_number(parts[2])


def round_of(topic: str) -> int | None:
    """The round of a ``tournament/rounds/<r>/pairings`` topic, or None."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[:2] != ["tournament", "rounds"] or parts[3] != "pairings":
        return None
    return table_number(parts[2])  # rounds are numbered like tables: 1, 2, ...


def pentathlon_round_of(topic: str) -> int | None:
    """The round of a ``tournament/pentathlon/rounds/<r>/seats`` topic, or None."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[:3] != ["tournament", "pentathlon", "rounds"]:
        return None
    return table_number(parts[3]) if parts[4] == "seats" else None


def event_round_of(topic: str) -> tuple[str, int] | None:
    """The event and round of a ``tournament/events/<slug>/rounds/<r>/pairings`` topic, or
    None."""
    parts = topic.split("/")
    if len(parts) != 6 or parts[:2] != ["tournament", "events"] or parts[3] != "rounds":
        return None
    return _event_round(parts[2], parts[4]) if parts[5] == "pairings" else None


def event_seats_round_of(topic: str) -> tuple[str, int] | None:
    """The event and round of a ``tournament/events/<slug>/pentathlon/rounds/<r>/seats``
    topic, or None."""
    parts = topic.split("/")
    if (
        len(parts) != 7
        or parts[:2] != ["tournament", "events"]
        or parts[3:5]
        != [
            "pentathlon",
            "rounds",
        ]
    ):
        return None
    return _event_round(parts[2], parts[5]) if parts[6] == "seats" else None


def _event_round(slug: str, number: str) -> tuple[str, int] | None:
    """An event's short name and a round of at most MAX_ROUND, as a topic writes them."""
    round_number = table_number(number)
    if not EVENT_SLUG.fullmatch(slug) or round_number is None or round_number > MAX_ROUND:
        return None
    return slug, round_number


def rounds_followed(
    event: TablesEvent | None,
    legacy: Mapping[int, Round],
    by_event: Mapping[str, Mapping[int, Round]],
) -> Mapping[int, Round]:
    """The rounds a table shows its next match from (R1131): its event's when the hub names
    one for it (none yet: nothing to show), else the rounds of a hub serving one record."""
    if event is None:
        return legacy
    return by_event.get(event.event, {})


def _encode(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()


def _decode(payload: bytes, what: str) -> dict[str, Any]:
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WireError(f"{what}: not JSON") from None
    if not isinstance(data, dict):
        raise WireError(f"{what}: expected a JSON object")
    return data


def _no_constant(name: str) -> None:
    raise ValueError(name)


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 1


# --- the machine a table runs on (R1003) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Machine:
    """The machine a table runs on, in its state (R1003): its host name, and a digest of its
    /etc/machine-id and network address ("" when it has neither): two Pis given one host name
    (cloned from one card) still differ by it."""

    host: str
    id: str = ""

    def to_json(self) -> dict[str, str]:
        return {"host": self.host, "id": self.id}


def parse_machine(state: Mapping[str, Any]) -> Machine | None:
    """A table's state's ``machine``: None without one (a table before R1003 is read as
    before); WireError when it is not a host name and a digest."""
    value = state.get("machine")
    if value is None:
        return None
    expected = (
        f"machine: expected a host name of 1 to {MAX_HOST} letters, digits, '.', '-' or '_' "
        f"and an id of at most {MACHINE_ID_DIGITS} hex digits"
    )
    if not isinstance(value, dict):
        raise WireError(expected)
    host, digest = value.get("host"), value.get("id", "")
    if not (isinstance(host, str) and _is_host(host) and isinstance(digest, str)):
        raise WireError(expected)
    if len(digest) > MACHINE_ID_DIGITS or not all(c in "0123456789abcdef" for c in digest):
        raise WireError(expected)
    return Machine(host, digest)


def _is_host(text: str) -> bool:
    return (
        1 <= len(text) <= MAX_HOST
        and text.isascii()
        and text.replace("-", "").replace("_", "").replace(".", "").isalnum()
    )


# --- a table's decisions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a table: its place in the table's journal (the journal's id and the
    entry's sequence number: together the decision's journal id), when it was made (the table's
    clock, UTC), the start action of its session (a match's, with its round), and the event.

    ``prev`` chains it to the decision sent before it from the same journal (0: none before
    it), so the hub sees a gap (R710); ``first_held``: the table holds nothing of the journal
    before it (everything earlier was confirmed). A decision without ``prev`` is an older
    table's, taken unchained."""

    journal: str
    seq: int
    wall: str
    session: dict[str, Any]
    event: dict[str, Any]
    prev: int | None = None
    first_held: bool = False

    @property
    def name(self) -> str:
        return str(self.event["event"])

    @property
    def chain(self) -> DecisionId:
        return DecisionId(self.journal, self.seq, self.prev, self.first_held)

    def to_bytes(self) -> bytes:
        data: dict[str, Any] = {
            "journal": self.journal,
            "seq": self.seq,
            "wall": self.wall,
            "session": self.session,
            "event": self.event,
        }
        if self.prev is not None:
            data["prev"] = self.prev
        if self.first_held:
            data["first_held"] = True
        return _encode(data)


@dataclass(frozen=True, slots=True)
class DecisionId:
    """Where a decision stands in its journal's chain: enough for the hub to confirm it, or to
    see a gap before it, whatever else it carries."""

    journal: str
    seq: int
    prev: int | None
    first_held: bool


def parse_decision(payload: bytes) -> Decision:
    """A table's decision; WireError names the first thing out of bounds (R196)."""
    data = _decode(payload, "a decision")
    journal, seq = decision_id(data)
    wall, session, event = (data.get(key) for key in ("wall", "session", "event"))
    if not isinstance(wall, str) or len(wall) > MAX_WALL or not isinstance(session, dict):
        raise WireError(
            f"decision {seq}: expected its wall time (at most {MAX_WALL} characters) "
            "and its session"
        )
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise WireError(f"decision {seq}: expected an event with a name")
    if not isinstance(session.get("action"), str):
        raise WireError(f"decision {seq}: its session has no start action")
    number = session.get("round")
    if number is not None and not (_is_count(number) and number <= MAX_ROUND):
        raise WireError(
            f"decision {seq}: session round {_short(number)}: expected 1 to {MAX_ROUND}"
        )
    _check_numbers(f"decision {seq}", {"session": session, "event": event})
    chain = chain_of(data)
    return Decision(journal, seq, wall, session, event, chain.prev, chain.first_held)


def decision_id(data: Mapping[str, Any]) -> tuple[str, int]:
    """A decision's journal id (its journal, its seq from 1 to 2**53), or WireError."""
    journal, seq = data.get("journal"), data.get("seq")
    if not (_is_id(journal) and type(seq) is int and 1 <= seq <= MAX_NUMBER):
        raise WireError(
            "a decision without its journal id: expected journal (its id) and seq, "
            f"a number from 1 to 2**53, got {_short(seq)}"
        )
    assert isinstance(journal, str) and isinstance(seq, int)
    return journal, seq


def chain_of(data: Mapping[str, Any]) -> DecisionId:
    """A decision's place in its journal's chain, or WireError: ``prev`` (when given) from 0
    to just before its own seq."""
    journal, seq = decision_id(data)
    prev, first_held = data.get("prev"), data.get("first_held", False)
    if prev is not None and not (type(prev) is int and 0 <= prev < seq):
        raise WireError(
            f"decision {seq}: prev {_short(prev)}: expected the seq of the decision before it, "
            f"0 to {seq - 1}"
        )
    if type(first_held) is not bool:
        raise WireError(f"decision {seq}: first_held {_short(first_held)}: expected true or false")
    return DecisionId(journal, seq, prev, first_held)


def readable_id(payload: bytes) -> DecisionId | None:
    """The chain place of a decision that is otherwise refused, when it has a good one: read
    leniently (NaN, Infinity), so that a decision refused for such a value is still named by
    its seq and confirmed past."""
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        return chain_of(data)
    except WireError:
        return None


def _check_numbers(what: str, data: object) -> None:
    """WireError at the first number beyond 2**53 either way (or not finite), anywhere."""
    pending = [("", data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, dict):
            pending.extend((f"{path}.{key}" if path else str(key), v) for key, v in value.items())
        elif isinstance(value, list):
            pending.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
        elif (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and not (math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER)
        ):
            raise WireError(
                f"{what}: {path} {_short(value)}: expected a number from -2**53 to 2**53"
            )


def _short(value: object) -> str:
    """A value as an error line shows it: a huge number by its size, never its 3000 digits."""
    if type(value) is int and abs(value) >= 10**12:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- the hub's confirmations and status --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What the hub holds of one journal of a table: every decision of journal ``journal`` up
    to ``seq`` (0: none yet), in the record ``record`` (the record's identity: another
    tournament's confirmation confirms nothing of this one). ``gap``: a later decision came
    with one before it missing, so the table sends again from ``seq`` (R711)."""

    record: str
    journal: str
    seq: int
    gap: bool = False

    def to_bytes(self) -> bytes:
        return confirmations_payload(self.record, (self,))


def confirmations_payload(record: str, confirmations: tuple[Confirmation, ...]) -> bytes:
    """One table's confirmations, retained on ``tournament/applied/<n>``: every journal of the
    table the hub has heard from lately, most recently active first."""
    journals = [
        {"journal": c.journal, "seq": c.seq, **({"gap": True} if c.gap else {})}
        for c in confirmations[:MAX_CONFIRMED_JOURNALS]
    ]
    return _encode({"record": record, "journals": journals})


def parse_confirmations(payload: bytes) -> tuple[Confirmation, ...]:
    """A table's confirmations (an older hub's one-journal form is read too)."""
    data = _decode(payload, "a confirmation")
    record = data.get("record")
    if not _is_id(record):
        raise WireError("a confirmation: expected record (its id) and journals")
    assert isinstance(record, str)
    if "journals" not in data:
        return (_one_confirmation(record, data, lowest=1),)
    journals = data["journals"]
    if not isinstance(journals, list) or len(journals) > MAX_CONFIRMED_JOURNALS:
        raise WireError(
            f"a confirmation: expected journals, a list of at most {MAX_CONFIRMED_JOURNALS}"
        )
    return tuple(_one_confirmation(record, item, lowest=0) for item in journals)


def _one_confirmation(record: str, item: object, *, lowest: int) -> Confirmation:
    if not isinstance(item, dict):
        raise WireError("a confirmation: expected each journal as journal, seq and gap")
    journal, seq, gap = item.get("journal"), item.get("seq"), item.get("gap", False)
    if not (
        _is_id(journal) and type(seq) is int and lowest <= seq <= MAX_NUMBER and type(gap) is bool
    ):
        raise WireError("a confirmation: expected journal (its id), seq from 0 and gap")
    assert isinstance(journal, str)
    return Confirmation(record, journal, seq, gap)


def parse_confirmation(payload: bytes) -> Confirmation:
    """The confirmation of a one-journal payload (the first journal of any)."""
    confirmations = parse_confirmations(payload)
    if not confirmations:
        raise WireError("a confirmation: expected at least one journal")
    return confirmations[0]


@dataclass(frozen=True, slots=True)
class HubStatus:
    """The hub's retained status: whether it is online, and the record it applies to."""

    online: bool
    record: str

    def to_bytes(self) -> bytes:
        return _encode({"status": ONLINE if self.online else OFFLINE, "record": self.record})


def parse_hub_status(payload: bytes) -> HubStatus:
    data = _decode(payload, "the hub's status")
    status, record = data.get("status"), data.get("record")
    if status not in (ONLINE, OFFLINE) or not _is_id(record):
        raise WireError("the hub's status: expected status (online or offline) and its record")
    assert isinstance(record, str)
    return HubStatus(status == ONLINE, record)


def journal_names(one: str, other: str) -> tuple[str, str]:
    """Two journals' ids as a line names them: their first 8 characters, unless those are the
    same (an id a client chose to look like the table's): then whole."""
    if one[:8] == other[:8]:
        return one, other
    return one[:8], other[:8]


def _is_id(value: object) -> bool:
    """A journal's or a record's id: letters, digits, ``-`` and ``_`` (a uuid4's hex, a
    digest), nothing a file, a log line or SQLite could take otherwise."""
    return (
        isinstance(value, str)
        and 1 <= len(value) <= MAX_JOURNAL_ID
        and value.isascii()
        and value.replace("-", "").replace("_", "").isalnum()
    )


# --- a round's pairings -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMatch:
    """A match at a table: its teams at A and B and their short names for the OLED (R833;
    "" from a hub that sends none)."""

    table: int
    a: str
    b: str
    a_short: str = ""
    b_short: str = ""


@dataclass(frozen=True, slots=True)
class RoundPairings:
    """A round as the hub publishes it: its matches by table number and its bye."""

    round: int
    kind: str
    minutes: int
    matches: tuple[TableMatch, ...]
    bye: str | None

    def to_bytes(self) -> bytes:
        return _encode(
            {
                "round": self.round,
                "kind": self.kind,
                "minutes": self.minutes,
                "pairings": [_match_json(m) for m in self.matches],
                "bye": self.bye,
            }
        )

    def at(self, table: int) -> TableMatch | None:
        return next((match for match in self.matches if match.table == table), None)


def _match_json(match: TableMatch) -> dict[str, Any]:
    data: dict[str, Any] = {"table": match.table, "A": match.a, "B": match.b}
    if match.a_short or match.b_short:  # added fields: a table before R833 reads past them
        data.update({"A_short": match.a_short, "B_short": match.b_short})
    return data


def parse_pairings(payload: bytes) -> RoundPairings:
    data = _decode(payload, "a round's pairings")
    number, kind, minutes, rows, bye = (
        data.get(key) for key in ("round", "kind", "minutes", "pairings", "bye")
    )
    if not _is_count(number) or not isinstance(kind, str) or not _is_count(minutes):
        raise WireError("a round's pairings: expected its round, kind and minutes")
    if not isinstance(rows, list) or not (bye is None or isinstance(bye, str)):
        raise WireError(f"round {number}'s pairings: expected a list of matches and a bye")
    matches = []
    for row in rows:
        if not (
            isinstance(row, dict)
            and _is_count(row.get("table"))
            and isinstance(row.get("A"), str)
            and isinstance(row.get("B"), str)
        ):
            raise WireError(f"round {number}'s pairings: expected each as a table, A and B")
        shorts = (row.get("A_short", ""), row.get("B_short", ""))
        if not all(_is_short(short) for short in shorts):
            raise WireError(
                f"round {number} table {row['table']}: expected short names of at most "
                f"{MAX_SHORT} plain ASCII characters"
            )
        matches.append(TableMatch(row["table"], row["A"], row["B"], *shorts))
    assert isinstance(number, int) and isinstance(kind, str) and isinstance(minutes, int)
    return RoundPairings(number, kind, minutes, tuple(matches), bye)


def _is_short(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) <= MAX_SHORT and all(" " <= c <= "~" for c in value)
    )


def paired_match(rounds: Mapping[int, RoundPairings], table: int) -> PairedMatch | None:
    """This table's match in the latest round paired, or None (no round, or none here)."""
    if not rounds:
        return None
    latest = rounds[max(rounds)]
    match = latest.at(table)
    return None if match is None else PairedMatch(latest.round, match.a, match.b)


@dataclass(frozen=True, slots=True)
class NextMatch:
    """What the OLED shows of the table's next match, on two rows (R833): the round and the
    table, then the two teams told apart."""

    title: str
    teams: str


def next_match(rounds: Mapping[int, RoundPairings], table: int) -> NextMatch | None:
    """What the table shows of its next match: the latest round paired (a round is paired once
    every result before it is in), or that this table has no match in it."""
    if not rounds:
        return None
    latest = rounds[max(rounds)]
    match = latest.at(table)
    if match is None:
        return _next(latest.round, table, "no match this round")
    return _next(latest.round, table, teams_line(match.a, match.b, match.a_short, match.b_short))


def _next(round_number: int, table: int, teams: str) -> NextMatch:
    return NextMatch(_fit(f"Round {round_number}  Table {table}"), teams)


def teams_line(a: str, b: str, a_short: str = "", b_short: str = "") -> str:
    """``A v B`` on one OLED row (R833): the full names when both fit; else the short names
    the hub sent; else short names derived from these two names as the record would derive
    them (R830), so the two differ even when the names share a long prefix."""
    full = f"{a} v {b}"
    if len(full) <= OLED_TITLE_CHARS:
        return full
    if not (a_short and b_short) or short_key(a_short) == short_key(b_short):
        a_short, b_short = short_names((a, b), ("", ""))
    return _fit(f"{a_short} v {b_short}")


def _fit(text: str) -> str:
    return text[:OLED_TITLE_CHARS]


# --- a Pentathlon round's seats (R795) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PentathlonTableSeat:
    """Who plays whom at a table in a Pentathlon round, the game and their division."""

    table: int
    game: str
    division: str
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class PentathlonSeats:
    """A Pentathlon round as the hub publishes it: the event's name ("" if the record has
    none) and the round's seats by table."""

    round: int
    event: str
    seats: tuple[PentathlonTableSeat, ...]

    def to_bytes(self) -> bytes:
        return _encode(
            {
                "round": self.round,
                "event": self.event,
                "seats": [
                    {"table": s.table, "game": s.game, "division": s.division, "A": s.a, "B": s.b}
                    for s in self.seats
                ],
            }
        )

    def at(self, table: int) -> PentathlonTableSeat | None:
        return next((seat for seat in self.seats if seat.table == table), None)


def _is_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def parse_pentathlon_seats(payload: bytes) -> PentathlonSeats:
    data = _decode(payload, "a Pentathlon round's seats")
    number, event, rows = (data.get(key) for key in ("round", "event", "seats"))
    if not (_is_count(number) and _is_text(event) and isinstance(rows, list)):
        raise WireError(
            f"a Pentathlon round's seats: expected its round, the event's name (at most "
            f"{MAX_TEXT} characters) and a list of seats"
        )
    seats = []
    for row in rows:
        if not (
            isinstance(row, dict)
            and _is_count(row.get("table"))
            and row["table"] <= MAX_TABLE
            and all(_is_text(row.get(key)) for key in ("game", "division", "A", "B"))
        ):
            raise WireError(
                f"Pentathlon round {number}'s seats: expected each as a table, game, division, "
                f"A and B (names of at most {MAX_TEXT} characters)"
            )
        seats.append(
            PentathlonTableSeat(row["table"], row["game"], row["division"], row["A"], row["B"])
        )
    assert isinstance(number, int) and isinstance(event, str)
    return PentathlonSeats(number, event, tuple(seats))


def seated_match(rounds: Mapping[int, PentathlonSeats], table: int) -> PairedMatch | None:
    """This table's seat in the latest Pentathlon round seated, with what the score card
    prints of it, or None (no round, or no seat here in it)."""
    if not rounds:
        return None
    latest = rounds[max(rounds)]
    seat = latest.at(table)
    if seat is None:
        return None
    return PairedMatch(latest.round, seat.a, seat.b, table, seat.game, seat.division, latest.event)


def next_seat(rounds: Mapping[int, PentathlonSeats], table: int) -> NextMatch | None:
    """What a Pentathlon table shows of its next game, as ``next_match`` does of a match."""
    if not rounds:
        return None
    latest = rounds[max(rounds)]
    seat = latest.at(table)
    return _next(
        latest.round, table, "no game this round" if seat is None else teams_line(seat.a, seat.b)
    )
