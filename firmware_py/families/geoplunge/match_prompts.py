"""The prompts between games: a match's start (the Call picks, the afternoon draw and picks, GO
for the clock), the shuffle reminders, the championship's next game or tie-breaker, the end of
a match and the next round's match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.options import GeoPlungeOptions
from firmware_py.families.geoplunge.sessions import (
    Match,
    match_name,
    next_match,
    paired_later,
    round_kind,
    round_name,
    start_round,
)
from firmware_py.families.geoplunge.titles import SHORT_TITLES
from firmware_py.table.family import PairedMatch, TableFacts
from firmware_py.table.hub_wire import teams_line
from firmware_py.table.prompts import Kind, Outcome, Prompt, choice, notice
from rules.actions import encode
from rules.geoplunge.championship import ChampionshipState
from rules.geoplunge.match import GAME_NUMBERS, MatchState, shuffle_after
from rules.geoplunge.match3 import Match3State
from rules.geoplunge.replay import AnySession, GameSession
from rules.geoplunge.teams import Team

PICK_PAIRS = tuple((a, b) for a in GAME_NUMBERS for b in GAME_NUMBERS if a < b)
NEXT_GAME = {"action": "match.next_game"}


def between_games(
    session: AnySession,
    scratch: Mapping[str, Any],
    table: TableFacts,
    options: GeoPlungeOptions,
) -> Prompt:
    """What the dealer is asked while no game is being played."""
    if isinstance(session, GameSession):
        return notice("game/over", "Game over", hint="UNDO: take back")
    if isinstance(session, ChampionshipState):
        return _championship(session)
    if session.over:
        return _match_over(session, scratch, options, table.paired, moved=table.moved_event)
    if isinstance(session, Match3State) and not session.cycle:
        return _afternoon_picks(session, scratch)
    if isinstance(session, MatchState) and not session.cycle:
        return _call_picks(scratch)
    if not table.clock_running and not session.played:
        games = "-".join(map(str, session.cycle))
        return Prompt(
            key="match/start",
            kind=Kind.NOTICE,
            text=f"{match_name(session)}, games {games}",
            hint="GO: clock + game 1",
            go=Outcome("start", NEXT_GAME, clock_minutes=session.minutes),
        )
    key = f"match/between/{len(session.played)}"
    return _next_game(session.shuffle_reminder, session.next_game, key)


def _next_game(shuffle: tuple[str, ...], game: int | None, key: str) -> Prompt:
    decks = ", ".join(shuffle)
    return Prompt(
        key=key,
        kind=Kind.NOTICE,
        text=f"Shuffle {decks}. Next: game {game}" if decks else f"Next: game {game}",
        hint="NEXT: next game",
        next=Outcome("next", NEXT_GAME),
    )


# --- the start of a match ------------------------------------------------------------------


def _call_picks(scratch: Mapping[str, Any]) -> Prompt:
    """Combo 4 Call match: each team's two secret games, A's kept until B's are in."""
    team = "A" if "picks_a" not in scratch else "B"
    return choice(
        f"match/picks/{team}",
        f"Team {team}'s 2 secret games",
        [_pick_pair(team, pair, scratch) for pair in PICK_PAIRS],
    )


def _pick_pair(team: str, pair: tuple[int, int], scratch: Mapping[str, Any]) -> Outcome:
    label = f"games {pair[0]} + {pair[1]}"
    if team == "A":
        return Outcome(label, None, {"picks_a": list(pair)})
    return Outcome(label, {"action": "match.picks", "a": scratch["picks_a"], "b": list(pair)})


def _afternoon_picks(session: Match3State, scratch: Mapping[str, Any]) -> Prompt:
    """Combo 3 afternoon: the statehood draw, the draw winner's game, the other team's (R75)."""
    if session.chooser is None:
        return choice(
            "match/draw",
            f"Round {session.round} draw: closer to statehood 1?",
            [Outcome(f"Team {t}", {"action": "draw_winner", "first": t}) for t in ("A", "B")],
        )
    chooser = session.chooser.value
    first: int | None = scratch.get("pick_first")
    if first is None:
        return choice(
            "match/pick/first",
            f"Team {chooser} (draw winner) picks a game",
            [Outcome(_game_label(n), None, {"pick_first": n}) for n in GAME_NUMBERS],
        )
    other = session.chooser.other.value
    pick = {"action": "match3.afternoon_picks", "first": first}
    return choice(
        "match/pick/second",
        f"Team {other} picks another game",
        [Outcome(_game_label(n), {**pick, "second": n}) for n in GAME_NUMBERS if n != first],
    )


def _game_label(number: int) -> str:
    return f"{number} {SHORT_TITLES[number]}"


# --- the end of a match and the next one -----------------------------------------------------


def _match_over(
    session: Match,
    scratch: Mapping[str, Any],
    options: GeoPlungeOptions,
    paired: PairedMatch | None,
    *,
    moved: bool = False,
) -> Prompt:
    start = next_match(session, options, paired, moved=moved)
    if start is None:
        return notice(
            "match/over",
            f"Round {session.round} was the last round: no next match",
            hint="Report the result",
        )
    if scratch.get("next_match"):
        text = f"Next: {round_name(start)}"
        if paired is not None and (moved or paired_later(session, options, paired)):
            # the hub's pairing (R190): its round, and its teams at A and B on a line of their
            # own, told apart when the names are long (R833)
            text = (
                f"Next: R{start_round(start)} {round_kind(start)}\n{teams_line(paired.a, paired.b)}"
            )
        return Prompt(
            key="match/next",
            kind=Kind.NOTICE,
            text=text,
            hint="GO: start  UNDO: back",
            go=Outcome("start", new_session=encode(start)),
        )
    return Prompt(
        key="match/over",
        kind=Kind.NOTICE,
        text="Match over. Shuffle every deck",
        hint="GO: next match",
        go=Outcome("next match", None, {"next_match": True}),
    )


# --- the championship ---------------------------------------------------------------------------


def _championship(session: ChampionshipState) -> Prompt:
    champion = session.champion
    if champion is not None:
        return notice(
            "champ/over", f"Champion: Team {champion}. No next match", hint="Report the result"
        )
    if not session.played:
        games = "-".join(map(str, session.games))
        return Prompt(
            key="champ/start",
            kind=Kind.NOTICE,
            text=f"Championship, games {games}",
            hint="GO: start game 1",
            go=Outcome("start", NEXT_GAME),
        )
    shuffle = shuffle_after(session.played[-1].number)
    key = f"champ/between/{len(session.played)}"
    if not session.needs_tiebreaker:
        return _next_game(shuffle, session.next_game, key)
    wins = session.wins(Team.A)  # equal: both teams have won as many games
    again = session.played[-1].tiebreaker
    return Prompt(
        key=key,
        kind=Kind.NOTICE,
        text="Tie-breaker tied: Border-Up again"
        if again
        else f"Tied {wins}-{wins}: Border-Up tie-breaker",
        hint="NEXT: tie-breaker",
        next=Outcome("next", NEXT_GAME),
    )
