"""GeoPlunge at the table: a Combo 4 match (or one game on its own) as a table-kernel family.

Seat inputs: ``stand`` is the stand-up sensor (a team standing at the count of 5 is
GeoPlunging), ``shout`` the buzzer (first to shout). The match's own prompts (the secret picks,
GO to start the clock, the shuffle reminders between games) are here; each game's prompts are
its flow in ``flows/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.leds import SeatLight
from firmware_py.families.geoplunge.flows import flow_for
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.controller import TableSettings
from firmware_py.table.family import (
    FamilyOptionsError,
    Options,
    Report,
    TableFacts,
    TableFamily,
)
from firmware_py.table.prompts import Kind, LogAction, Outcome, Prompt, choice, notice
from rules.actions import Action
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import GAME_NUMBERS, MatchKind, MatchState, StartMatch, TimeUpRule
from rules.geoplunge.replay import (
    GameSession,
    Session,
    StartGame,
    apply_session,
    start_session,
    summary,
)
from rules.geoplunge.scoring import GameResult, score_game

SHORT_TITLES = {1: "BORDER-UP", 2: "STATE IQ", 3: "DASHING", 4: "GAME 4", 5: "CHUMMY"}
PICK_PAIRS = tuple((a, b) for a in GAME_NUMBERS for b in GAME_NUMBERS if a < b)
KERNEL_FIELDS = ("seats", "tie_window", "settle", "debounce", "count_cadence")
ROLES = {"stand": "stand-up sensor (GeoPlunging at 5)", "shout": "shout buzzer"}


@dataclass(frozen=True, slots=True)
class GeoPlungeOptions:
    round: int = 1  # odd: an All match, even: a Call match
    minutes: int = 20  # the match clock
    on_time_up: TimeUpRule = TimeUpRule.ABANDON
    game: int | None = None  # practice: one game on its own, no match clock
    chummy_seconds: float = 15.0

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "minutes": self.minutes,
            "on_time_up": self.on_time_up.value,
            "game": self.game,
            "chummy_seconds": self.chummy_seconds,
        }


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(options: Options, name: str, low: int, high: int, default: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FamilyOptionsError(
            name, f"expected a whole number from {low} to {high}, got {_shown(value)}"
        )
    return value


def parse_options(options: Options) -> GeoPlungeOptions:
    """The family's options from plain JSON; FamilyOptionsError names the option at fault."""
    names = GeoPlungeOptions().to_json()
    for name in options:
        if name not in names:
            raise FamilyOptionsError(name, f"unknown (expected {', '.join(names)})")
    try:
        on_time_up = TimeUpRule(options.get("on_time_up", TimeUpRule.ABANDON.value))
    except (ValueError, TypeError):
        choices = ", ".join(rule.value for rule in TimeUpRule)
        got = _shown(options["on_time_up"])
        raise FamilyOptionsError("on_time_up", f"expected one of {choices}, got {got}") from None
    chummy = options.get("chummy_seconds", 15.0)
    if isinstance(chummy, bool) or not isinstance(chummy, int | float) or not 1 <= chummy <= 120:
        raise FamilyOptionsError(
            "chummy_seconds", f"expected a number from 1 to 120, got {_shown(chummy)}"
        )
    game = options.get("game")
    return GeoPlungeOptions(
        round=_integer(options, "round", 1, 99, 1),
        minutes=_integer(options, "minutes", 1, 120, 20),
        on_time_up=on_time_up,
        game=None if game is None else _integer(options, "game", 1, 5, 1),
        chummy_seconds=float(chummy),
    )


def table_settings(**fields: Any) -> TableSettings:
    """Kernel settings for a GeoPlunge table: kernel fields by name, the rest are options."""
    kernel = {name: fields.pop(name) for name in list(fields) if name in KERNEL_FIELDS}
    return TableSettings(**kernel, family="geoplunge", options=parse_options(fields).to_json())


@dataclass(frozen=True, slots=True)
class GeoPlungeTable:
    options: GeoPlungeOptions

    # --- the rules session ------------------------------------------------------------------

    def first_action(self) -> Action:
        o = self.options
        if o.game is not None:
            return StartGame(game=o.game)
        return StartMatch(round=o.round, minutes=o.minutes, on_time_up=o.on_time_up)

    def start(self, first: Action) -> Session:
        return start_session(first)

    def apply(self, session: Session, action: Action) -> Session:
        return apply_session(session, action)

    def time_up(self) -> LogAction:
        return {"action": "match.time_up"}

    def clock_runs(self, session: Session) -> bool:
        return not (isinstance(session, MatchState) and session.over)

    # --- prompts ----------------------------------------------------------------------------

    def prompt(self, session: Session, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        game = current_game(session)
        if game is not None:
            number, state = game
            flow = flow_for(number)
            return flow(state, scratch, FlowSettings(chummy_seconds=self.options.chummy_seconds))
        return self._match_prompt(session, scratch, table)

    def _match_prompt(
        self, session: Session, scratch: Mapping[str, Any], table: TableFacts
    ) -> Prompt:
        if isinstance(session, GameSession):
            return notice("game/over", "Game over", hint="UNDO: take back")
        if session.over:
            return notice("match/over", "Match over. Shuffle every deck", hint="UNDO: take back")
        if not session.cycle:
            team = "A" if "picks_a" not in scratch else "B"
            return choice(
                f"match/picks/{team}",
                f"Team {team}'s 2 secret games",
                [_pick_outcome(team, pair, scratch) for pair in PICK_PAIRS],
            )
        if not table.clock_running and not session.played:
            kind = "All" if session.kind is MatchKind.ALL else "Call"
            games = "-".join(map(str, session.cycle))
            start = Outcome(
                "start", {"action": "match.next_game"}, clock_minutes=self.options.minutes
            )
            return Prompt(
                key="match/start",
                kind=Kind.NOTICE,
                text=f"Round {session.round} {kind} match, games {games}",
                hint="GO: start clock + game 1",
                go=start,
            )
        shuffle = ", ".join(session.shuffle_reminder)
        return Prompt(
            key=f"match/between/{len(session.played)}",
            kind=Kind.NOTICE,
            text=f"Shuffle {shuffle}. Next: game {session.next_game}"
            if shuffle
            else f"Next: game {session.next_game}",
            hint="NEXT: next game",
            next=Outcome("next", {"action": "match.next_game"}),
        )

    def summary(self, session: Session) -> dict[str, Any]:
        return summary(session)

    # --- decisions --------------------------------------------------------------------------

    def report(self, before: Session, after: Session) -> Report:
        events: list[tuple[str, dict[str, Any]]] = []
        message = None
        if isinstance(after, MatchState) and isinstance(before, MatchState):
            if len(after.played) > len(before.played):
                game = after.played[-1]
                events.append(_game_result(game.number, game.result, game.plunging, game.points))
                message = _result_message(game.result)
                a, b = after.scores
                events.append(("score", {"A": a, "B": b}))
            if after.over and not before.over:
                result = after.result
                assert result is not None
                winner = result.winner.value if result.winner else None
                a, b = result.scores
                events.append(("match_result", {"winner": winner, "A": a, "B": b}))
                message = f"MATCH: {winner or 'TIE'} {a}-{b}"
        elif isinstance(after, GameSession) and after.state.result is not None:
            result = after.state.result
            plunging = after.state.plunging or frozenset()
            points = score_game(result, plunging)
            pair = (points[min(points)], points[max(points)])
            events.append(_game_result(after.number, result, plunging, pair))
            events.append(("score", {"A": pair[0], "B": pair[1]}))
            message = _result_message(result)
        return Report(events, message)

    # --- the view ---------------------------------------------------------------------------

    def scores(self, session: Session) -> dict[str, int]:
        if isinstance(session, MatchState):
            a, b = session.scores
        elif session.state.result is None:
            a, b = 0, 0
        else:
            points = score_game(session.state.result, session.state.plunging or frozenset())
            a, b = points[min(points)], points[max(points)]
        return {"A": a, "B": b}

    def title(self, session: Session) -> str:
        game = current_game(session)
        if game is not None:
            return f"G{game[0]} {SHORT_TITLES[game[0]]}"
        scores = self.scores(session)
        return f"MATCH A{scores['A']} B{scores['B']}"

    def in_play(self, session: Session) -> bool:
        return current_game(session) is not None

    def light(self, session: Session, seat: str, level: Callable[[str], bool]) -> SeatLight:
        game = current_game(session)
        plunging = {team.value for team in (game[1].plunging or ())} if game else set()
        if seat in plunging:
            return SeatLight.PLUNGING
        return SeatLight.STANDING if level(f"{seat}.stand") else SeatLight.OFF


def current_game(session: Session) -> tuple[int, Any] | None:
    """The game being played (its number and rules state), if one is."""
    if isinstance(session, GameSession):
        return (session.number, session.state) if session.state.result is None else None
    if session.current is not None and session.current_number is not None:
        return session.current_number, session.current
    return None


def _pick_outcome(team: str, pair: tuple[int, int], scratch: Mapping[str, Any]) -> Outcome:
    label = f"games {pair[0]} + {pair[1]}"
    if team == "A":
        return Outcome(label, None, {"picks_a": list(pair)})
    return Outcome(label, {"action": "match.picks", "a": scratch["picks_a"], "b": list(pair)})


def _game_result(
    number: int, result: GameResult | None, plunging: Any, points: tuple[int, int]
) -> tuple[str, dict[str, Any]]:
    winner = None if result is None or result.winner is None else result.winner.value
    return (
        "game_result",
        {
            "game": number,
            "title": game_rules(number).title,
            "winner": winner,
            "bonus": bool(result and result.bonus),
            "abandoned": result is None,
            "plunging": sorted(team.value for team in plunging),
            "points": {"A": points[0], "B": points[1]},
            "reason": result.reason if result else "time ran out",
        },
    )


def _result_message(result: GameResult | None) -> str:
    if result is None:
        return "ABANDONED"
    return f"{result.winner.value} WINS" if result.winner else "TIE"


def _game(options: Options, seats: tuple[str, ...]) -> GeoPlungeTable:
    return GeoPlungeTable(parse_options(options))


FAMILY = TableFamily(
    name="geoplunge",
    roles=ROLES,
    game=_game,
    options=lambda: GeoPlungeOptions().to_json(),
)
