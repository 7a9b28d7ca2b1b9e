"""What a GeoPlunge table plays: a Combo 4 or Combo 3 match, the championship, or one game; how
each starts, at which level its games are played, and which match comes next.

After a match the dealer starts the next round's match from the console, in the same journal
(ruling R150): round N+1 of the same format, with the same options, or the round the
tournament hub paired this table in when that is a later one (R190). Combo 3 has 8 rounds and
Combo 4 at most 99 (the config's limit); the championship and a game on its own have no next
match (R151).
"""

from __future__ import annotations

from firmware_py.families.geoplunge.options import Format, GeoPlungeOptions
from firmware_py.table.family import PairedMatch
from rules.actions import Action
from rules.geoplunge.championship import ChampionshipState, StartChampionship
from rules.geoplunge.match import MATCH_MINUTES, MatchKind, MatchState, StartMatch, match_kind
from rules.geoplunge.match3 import DayPart, Match3State, StartMatch3, day_part
from rules.geoplunge.replay import AnySession, GameSession, StartGame

Match = MatchState | Match3State


def first_action(options: GeoPlungeOptions) -> Action:
    """The start of the session the options describe."""
    if options.game is not None:
        return StartGame(
            game=options.game, level=options.level, ptr_early_end=options.ptr_early_end
        )
    if options.format is Format.CHAMPIONSHIP:
        return StartChampionship(ptr_early_end=options.ptr_early_end)
    return match_start(options, options.round or 1)


def match_start(options: GeoPlungeOptions, round_number: int) -> Action:
    if options.format is Format.COMBO3:
        minutes = options.minutes  # None: the round's length
        return StartMatch3(
            round=round_number,
            minutes=minutes,
            on_time_up=options.on_time_up,
            ptr_early_end=options.ptr_early_end,
        )
    minutes = options.minutes or MATCH_MINUTES
    return StartMatch(round=round_number, minutes=minutes, on_time_up=options.on_time_up)


def next_match(
    session: AnySession,
    options: GeoPlungeOptions,
    paired: PairedMatch | None = None,
    *,
    moved: bool = False,
) -> Action | None:
    """The next round's match once ``session`` is over; None after the last round, the
    championship or a game on its own. The hub's pairing for this table names the round when
    it is a later one than ``session``'s and within the format (R190), or any round of the
    format when the table was moved to another event of the day (``moved``: R1175); else it
    is the next."""
    if not isinstance(session, MatchState | Match3State):
        return None
    last = options.format.last_round
    if last is None:
        return None
    if moved and paired is not None and 1 <= paired.round <= last:
        return match_start(options, paired.round)
    if session.round >= last:
        return None
    if paired_later(session, options, paired):
        assert paired is not None
        return match_start(options, paired.round)
    return match_start(options, session.round + 1)


def paired_later(session: Match, options: GeoPlungeOptions, paired: PairedMatch | None) -> bool:
    """Whether the hub's pairing is for a round after ``session``'s that the format has."""
    last = options.format.last_round
    return paired is not None and last is not None and session.round < paired.round <= last


def level_of(session: AnySession) -> int:
    """The level of the session's games: Combo 3 and the championship play Level 3."""
    if isinstance(session, GameSession):
        return session.level
    return 4 if isinstance(session, MatchState) else 3


def round_name(start: Action) -> str:
    """ "round 2 Call match", "round 5 afternoon match": what the dealer is about to start."""
    return f"round {start_round(start)} {round_kind(start)} match"


def start_round(start: Action) -> int:
    assert isinstance(start, StartMatch | StartMatch3)
    return start.round


def round_kind(start: Action) -> str:
    """ "All" or "Call" (Combo 4), "morning" or "afternoon" (Combo 3)."""
    if isinstance(start, StartMatch3):
        return day_part(start.round).value
    assert isinstance(start, StartMatch)
    return "All" if match_kind(start.round) is MatchKind.ALL else "Call"


def match_name(session: Match) -> str:
    """ "Round 1 All match", "Round 5 afternoon": the start screen's words."""
    if isinstance(session, Match3State):
        return f"Round {session.round} {session.part.value}"
    kind = "All" if session.kind is MatchKind.ALL else "Call"
    return f"Round {session.round} {kind} match"


def is_afternoon(session: Match) -> bool:
    return isinstance(session, Match3State) and session.part is DayPart.AFTERNOON


def is_championship(session: AnySession) -> bool:
    return isinstance(session, ChampionshipState)
