"""The Pentathlon table's options: the game (or the monitor's choice), each game's time limit,
Contig 60's chips, Fab-a-Diffy's strips, the turn's minute and the capture window.

Options are plain JSON in the table's settings (and so in its journal); ``parse_options``
checks them and names the option at fault (``FamilyOptionsError``). The highlight sheets give
no time limits or chip counts: the defaults here are rulings (R250, R251) and every one is
written into the game's start action, so a log replays alike whatever the defaults become.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.family import FamilyOptionsError, Options
from rules.errors import InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.monitor_actions import StartPentathlon, start_action
from rules.pentathlon.play import (
    RULINGS,
    RULINGS_BEFORE_ISSUE_20,
    RULINGS_ISSUE_20,
    RULINGS_R746_R749,
)
from rules.pentathlon.strips import DEFAULT_PARTITIONS, check_partitions

KERNEL_FIELDS = ("seats", "tie_window", "settle", "debounce", "count_cadence")
SEATS = ("A", "B")  # Player A and Player B, as on the Scoring Flag Card
DEFAULT_MINUTES = 30  # each game's time limit (R250)
DEFAULT_CHIPS = 20  # each player's Contig 60 chips (R251)
MINUTES_RANGE = (1, 180)
CHIPS_RANGE = (5, 99)
TURN_SECONDS = 60.0  # "each Pentathlete should complete a turn within one minute"
TURN_RANGE = (10, 600)
CAPTURE_SECONDS = 10.0  # Fab-a-Diffy: "within 10 seconds after receiving the flag card"
CAPTURE_RANGE = (1, 60)
# The monitor's flow (R786, R796): 2 records the start, every declared win and the new events
# (issue 20); 3 adds the deck's bound on Fab-a-Diffy, the end of Stars & Bars over 140, the
# Director's result and Stack points only where a stack can be (R746-R749); 4 offers the
# Director's decisions at the result and Juggle's count (NEXT, R840) and says a restore of a
# player who had no turn yet is nothing (R843); 1 is the flow before issue 20. Each is kept so
# a journal written with it replays alike. A journal whose settings name no flow was written
# before: 1. A table starting afresh runs FLOW.
FLOW = 4
FLOW_R746_R749 = 3
FLOW_ISSUE_20 = 2
FLOW_BEFORE = 1
FLOWS = (FLOW_BEFORE, FLOW_ISSUE_20, FLOW_R746_R749, FLOW)
DIRECTOR_AT_THE_RESULT_SINCE = 4  # R840
# the rulings each flow's games are played under (R796)
FLOW_RULINGS = {
    FLOW_BEFORE: RULINGS_BEFORE_ISSUE_20,
    FLOW_ISSUE_20: RULINGS_ISSUE_20,
    FLOW_R746_R749: RULINGS_R746_R749,
    FLOW: RULINGS,
}
# what the log says of a journal of an earlier flow (R786, R796)
OLDER_FLOWS = {
    FLOW_BEFORE: "flow-1-and-the-rulings-before-issue-20(R786,R796)",
    FLOW_ISSUE_20: "flow-2-and-the-rulings-before-R746-R749(R796)",
    FLOW_R746_R749: "flow-3-and-the-rulings-before-R840-R843(R796)",
}


def _default_minutes() -> dict[Game, int]:
    return dict.fromkeys(Game, DEFAULT_MINUTES)


@dataclass(frozen=True, slots=True)
class PentathlonOptions:
    game: Game | None = None  # None: the monitor chooses the game at the table
    minutes: Mapping[Game, int] = field(default_factory=_default_minutes)
    chips: int = DEFAULT_CHIPS
    partitions: tuple[int, ...] = DEFAULT_PARTITIONS
    turn_seconds: float = TURN_SECONDS
    capture_seconds: float = CAPTURE_SECONDS
    flow: int = FLOW

    @property
    def records_the_start(self) -> bool:
        """Issue 20's flows: the start, every declaration, infractions (R786)."""
        return self.flow >= FLOW_ISSUE_20

    @property
    def director_at_the_result(self) -> bool:
        """Flow 4: the Director's decisions offered at the result and the count too (R840)."""
        return self.flow >= DIRECTOR_AT_THE_RESULT_SINCE

    @property
    def rulings(self) -> int:
        """The rulings a game of this flow is played under: a journal of an earlier flow keeps
        the rulings it was played under, so it replays to its decisions (R796)."""
        return FLOW_RULINGS[self.flow]

    def start(self, game: Game) -> StartPentathlon:
        """The start action of ``game`` with this table's options."""
        return start_action(
            game,
            self.minutes[game],
            chips=self.chips if game is Game.CONTIG_60 else None,
            partitions=self.partitions if game is Game.FAB_A_DIFFY else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.value if self.game else None,
            "minutes": {game.value: minutes for game, minutes in self.minutes.items()},
            "chips": self.chips,
            "partitions": list(self.partitions),
            "turn_seconds": self.turn_seconds,
            "capture_seconds": self.capture_seconds,
            "flow": self.flow,
        }


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_game(text: Any, option: str = "game") -> Game:
    """A game by its name; the name without its hyphens (``contig60``) is the same game."""
    names = ", ".join(game.value for game in Game)
    if isinstance(text, str):
        wanted = text.strip().lower()
        for game in Game:
            if wanted in (game.value, game.value.replace("-", "")):
                return game
    raise FamilyOptionsError(option, f"expected one of {names}, got {_shown(text)}")


def _whole(value: Any, option: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FamilyOptionsError(
            option, f"expected a whole number from {low} to {high}, got {_shown(value)}"
        )
    return value


def _seconds(value: Any, option: str, low: int, high: int) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise FamilyOptionsError(
            option, f"expected a number of seconds from {low} to {high}, got {_shown(value)}"
        )
    return float(value)


def _minutes(value: Any) -> dict[Game, int]:
    minutes = _default_minutes()
    if value is None:
        return minutes
    if not isinstance(value, Mapping):
        raise FamilyOptionsError(
            "minutes", f"expected each game's time limit by game, got {_shown(value)}"
        )
    for name, limit in value.items():
        game = parse_game(name, f"minutes.{name}" if isinstance(name, str) else "minutes")
        minutes[game] = _whole(limit, f"minutes.{name}", *MINUTES_RANGE)
    return minutes


def _partitions(value: Any) -> tuple[int, ...]:
    if value is None:
        return DEFAULT_PARTITIONS
    if not isinstance(value, list | tuple) or not all(
        isinstance(part, int) and not isinstance(part, bool) for part in value
    ):
        raise FamilyOptionsError(
            "partitions",
            f"expected a list of whole numbers like [2, 3, 4, 6, 12], got {_shown(value)}",
        )
    try:
        return check_partitions(value)
    except InvalidInput as error:
        raise FamilyOptionsError("partitions", str(error)) from None


def parse_options(options: Options) -> PentathlonOptions:
    """The family's options from plain JSON; FamilyOptionsError names the option at fault."""
    names = PentathlonOptions().to_json()
    for name in options:
        if name not in names:
            raise FamilyOptionsError(
                name, f"not a Pentathlon option (expected one of {', '.join(names)})"
            )
    game = options.get("game")
    return PentathlonOptions(
        game=None if game is None else parse_game(game),
        minutes=_minutes(options.get("minutes")),
        chips=_whole(options.get("chips", DEFAULT_CHIPS), "chips", *CHIPS_RANGE),
        partitions=_partitions(options.get("partitions")),
        turn_seconds=_seconds(
            options.get("turn_seconds", TURN_SECONDS), "turn_seconds", *TURN_RANGE
        ),
        capture_seconds=_seconds(
            options.get("capture_seconds", CAPTURE_SECONDS), "capture_seconds", *CAPTURE_RANGE
        ),
        flow=_flow(options.get("flow", FLOW_BEFORE)),
    )


def _flow(value: Any) -> int:
    if value not in FLOWS or isinstance(value, bool):
        raise FamilyOptionsError("flow", f"expected one of {FLOWS}, got {_shown(value)}")
    return int(value)


def fresh_options(options: Options) -> dict[str, Any]:
    """A table starting afresh runs the current flow; the journal keeps it (R786)."""
    return {**options, "flow": FLOW}


def older_flow(options: Options) -> str | None:
    """A journal of an earlier flow, in words for the log (R786, R796)."""
    return OLDER_FLOWS.get(parse_options(options).flow)


def check_seats(seats: tuple[str, ...]) -> None:
    if seats != SEATS:
        raise FamilyOptionsError(
            "seats",
            f"the Mathematics Pentathlon is played by 2 players at seats A and B, got "
            f"{len(seats)} seat{'s' if len(seats) != 1 else ''} ({', '.join(seats)})",
        )


def table_settings(**fields: Any) -> TableSettings:
    """Kernel settings for a Pentathlon table: kernel fields by name, the rest are options."""
    kernel = {name: fields.pop(name) for name in list(fields) if name in KERNEL_FIELDS}
    options = parse_options(fields).to_json()
    return TableSettings(**kernel, family="pentathlon", options=options)
