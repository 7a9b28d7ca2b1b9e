"""A game family, as the table kernel sees it: a plug-in registered by name.

The kernel (edges, debounce, the shout arbiter, timers on deadlines, the journal, the view)
knows no game. A family brings its rules session (start, apply), its flow (the prompt for the
dealer now), what its seat inputs mean, and the game-specific parts of the view. Families are
registered by the program's wiring (``firmware_py/families/__init__.py``), never imported by
the kernel; a journal names its family, so a restart rebuilds any family's table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any, Protocol

from drivers.leds import SeatLight
from firmware_py.table.prompts import LogAction, Prompt
from rules.actions import Action

Options = Mapping[str, Any]  # a family's table options, plain JSON (journaled)


# A wall clock before this is one that was never set (a Pi without a real-time clock that has
# not reached a time server starts in 1970, or at its last shutdown's time): no date is printed
# from it, a blank line is left to write on (R819).
CLOCK_SET_SINCE = date(2024, 1, 1)


def play_date(wall: str | None, zone: tzinfo | None = None) -> date | None:
    """The date of play of a decision the journal recorded at ``wall`` (UTC ISO 8601), in
    ``zone`` (None: the table's own local time zone); None where there is no wall time or the
    table's clock was obviously unset then (before ``CLOCK_SET_SINCE``)."""
    if wall is None:
        return None
    try:
        day = datetime.fromisoformat(wall).astimezone(zone).date()
    except ValueError:  # a wall time no clock wrote: none is printed rather than a false one
        return None
    return day if day >= CLOCK_SET_SINCE else None


class FamilyOptionsError(ValueError):
    """A family's option is not what it expects; str() is one line naming the option."""

    def __init__(self, option: str, problem: str) -> None:
        super().__init__(f"{option}: {problem}")
        self.option = option
        self.problem = problem


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """This table's match in the latest round the tournament hub paired: its round and the
    teams (or players) at seats A and B (docs/hub.md). Journaled as an input when it arrives or
    changes. A Pentathlon seat says more, for the score card (R795): the table's number, the
    game, the players' division and the event's name ("" where the record has none)."""

    round: int
    a: str
    b: str
    table: int | None = None
    game: str | None = None
    division: str = ""
    event: str = ""
    # the day's event the table followed when the hub paired it (R1131), "" in a hub of one
    # record: a table moved to another event takes that event's round whatever its number
    follows: str = ""

    def details(self) -> dict[str, Any]:
        """What a seat says beyond its round and players (empty for a round's pairing of a
        hub of one record)."""
        found = {"table": self.table, "game": self.game, "division": self.division}
        found["event"] = self.event
        found["follows"] = self.follows
        return {key: value for key, value in found.items() if value not in (None, "")}

    def to_json(self) -> list[Any]:
        """As the journal keeps it: ``[round, A, B]``, and the seat's details if any."""
        details = self.details()
        return [self.round, self.a, self.b, *([details] if details else [])]

    @classmethod
    def from_json(cls, data: list[Any]) -> PairedMatch:
        round_number, a, b, *rest = data
        return cls(round_number, a, b, **(rest[0] if rest else {}))


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the shell knows of a session's printable card beyond its record (None or "": a
    blank line to write on): the hub's seat its result was decided under (R795), the date of
    play (``play_date`` of its latest decision's journal entry, R819) and the Game Monitor's
    name from the table's config."""

    seat: PairedMatch | None = None
    date: date | None = None
    monitor: str = ""


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What a flow may know of the table besides its rules state."""

    seats: tuple[str, ...]
    clock_running: bool  # the match clock has been started (and not stopped)
    session: int = 1  # which session of the journal this is: 1, then each next match
    paired: PairedMatch | None = None  # the hub's pairing for this table, if it has one
    # the pairing in force when the session's latest action was taken (the controller's
    # ``decided_under``): its event, set against ``paired``'s, tells a table moved (R1175)
    decided_under: PairedMatch | None = None

    @property
    def moved_event(self) -> bool:
        """The hub's pairing is of another event of the day than the session was played for:
        the table was moved between rounds (R1175)."""
        if self.paired is None or self.decided_under is None:
            return False
        return self.paired.follows != self.decided_under.follows


@dataclass(frozen=True, slots=True)
class Report:
    """What applying one action decided, beyond the action itself."""

    events: Sequence[tuple[str, dict[str, Any]]] = ()  # (event name, fields)
    message: str | None = None  # the big line while no game is in progress


class TableGame(Protocol):
    """One family's session at one table, built from the family's options."""

    def first_action(self) -> Action:
        """The action that starts the session (the log's first line)."""

    def start(self, first: Action) -> Any:
        """The rules session a start action begins; RuleError when it cannot."""

    def apply(self, session: Any, action: Action) -> Any:
        """The session after an action; RuleError (with the reason) when it is refused."""

    def prompt(self, session: Any, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        """What the dealer is asked now."""

    def summary(self, session: Any) -> dict[str, Any]:
        """The session's standing as plain JSON (``journal show``, ``replay``)."""

    def report(self, before: Any, after: Any) -> Report:
        """Decisions to announce after an action: a game's result, the scores, a match end."""

    def scores(self, session: Any) -> dict[str, int]:
        """Each seat's score, for the OLED and the scoreboard."""

    def title(self, session: Any) -> str:
        """The OLED's title line (the kernel adds the clock)."""

    def in_play(self, session: Any) -> bool:
        """A game is being played (the report's message gives way to the scores)."""

    def clock_runs(self, session: Any) -> bool:
        """The match clock keeps running (False once the match is over)."""

    def time_up(self) -> LogAction:
        """The action the kernel applies when the match clock runs out."""

    def light(self, session: Any, seat: str, level: Callable[[str], bool]) -> SeatLight:
        """A seat's LED when no shout decision is on show; ``level("A.stand")`` reads an input."""


@dataclass(frozen=True, slots=True)
class TableFamily:
    """A family's registration: its name, what its seat inputs mean, how to build a session."""

    name: str
    roles: Mapping[str, str]  # seat input role -> what it is, e.g. {"shout": "the buzzer"}
    game: Callable[[Options, tuple[str, ...]], TableGame]  # raises FamilyOptionsError
    options: Callable[[], dict[str, Any]] = field(default=dict)  # the defaults, for the journal
    # Inputs that are levels (a sensor: the simulator's key toggles it); the others are
    # buttons, pressed for a moment.
    levels: frozenset[str] = frozenset()
    words: Mapping[str, str] = field(default_factory=dict)  # an input's name in the key help
    # Seat inputs the family never reads (Guesstimation's stand): the config still gives each a
    # GPIO, with nothing wired to it, and selftest does not ask for them (R1020).
    unread: frozenset[str] = frozenset()
    # What each seat light means in this family, for the simulator's LEDs line (a light not
    # named here is shown by its own name, GeoPlunge's: standing, plunging, won, locked).
    lights: Mapping[str, str] = field(default_factory=dict)
    counts: bool = False  # the dealer's 5-count on COUNT (GeoPlunge's), shown on the scoreboard
    # The options of a table starting afresh: what the family fixes once and for all, such as
    # its dice's seed, drawn here by the shell so that the journal keeps it and a replay rolls
    # the same. Options already holding it are returned as they are.
    fresh: Callable[[Options], dict[str, Any]] = field(default=dict)
    # The printable record of a session from its summary and what the shell knows of it
    # (``CardFacts``: the hub's seat it was decided under, its date, the monitor), an HTML
    # page (e.g. the Pentathlon's score card), or None while there is none to print: the
    # table's web page links to it.
    card: Callable[[Mapping[str, Any], CardFacts], str | None] | None = None
    # What is older about a journal's options than a table starting afresh (a flow and rulings
    # kept for journals written before they changed: the Pentathlon's, R796), in words for the
    # log when such a journal is replayed; None for a journal of today's.
    older: Callable[[Options], str | None] = field(default=lambda options: None)
    # The hub's word for where this family's table plays: a round's pairings (a GeoPlunge
    # match), or the Pentathlon event's seats (its players' names, for the score card: R795).
    seated: bool = False


_FAMILIES: dict[str, TableFamily] = {}
_LOADERS: dict[str, Callable[[], TableFamily]] = {}


def register(family: TableFamily) -> None:
    """Make a family available by name (idempotent for the same registration)."""
    known = _FAMILIES.get(family.name)
    if known is not None and known is not family:
        raise ValueError(f"table family {family.name!r} is registered twice")
    _FAMILIES[family.name] = family


def register_loader(name: str, load: Callable[[], TableFamily]) -> None:
    """Make a family available by name, its module imported the first time it is asked for."""
    _LOADERS[name] = load


def family(name: str) -> TableFamily:
    found = _FAMILIES.get(name)
    if found is None and name in _LOADERS:
        loaded = _LOADERS[name]()
        register(loaded)
        found = loaded
    if found is None:
        known = ", ".join(families()) or "none registered"
        raise FamilyOptionsError("family", f"unknown game family {name!r}: expected {known}")
    return found


def families() -> tuple[str, ...]:
    return tuple(sorted(set(_FAMILIES) | set(_LOADERS)))
