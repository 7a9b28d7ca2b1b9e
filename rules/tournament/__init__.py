"""The tournament's functional core: teams, pairings, standings, championship qualifiers.

Plain data in, decisions out: no I/O, no clock; the only chance is the tournament's seed.
The record (SQLite) and the command line are in ``firmware_py``; docs/tournament.md is the
director's guide and docs/rulings.md ("The tournament") the rulings.
"""

from rules.tournament.config import (
    DEFAULT_TIEBREAKS,
    ByePolicy,
    ByeResult,
    PairingMethod,
    Qualify,
    Tiebreak,
    TournamentConfig,
    new_config,
    parse_choice,
    parse_tiebreaks,
)
from rules.tournament.formats import RoundKind, RoundPlan, TournamentFormat, round_kind, round_plan
from rules.tournament.pairing import meetings, pair_round
from rules.tournament.qualify import (
    BracketGame,
    Playoff,
    PlayoffChanged,
    PlayoffGame,
    Qualification,
    qualify,
)
from rules.tournament.records import Match, MatchResult, RoundPairing
from rules.tournament.standings import Standing, standings
from rules.tournament.state import Tournament
from rules.tournament.teams import Entrant, find_entrant, name_key, parse_teams_csv

__all__ = [
    "DEFAULT_TIEBREAKS",
    "BracketGame",
    "ByePolicy",
    "ByeResult",
    "Entrant",
    "Match",
    "MatchResult",
    "PairingMethod",
    "Playoff",
    "PlayoffChanged",
    "PlayoffGame",
    "Qualification",
    "Qualify",
    "RoundKind",
    "RoundPairing",
    "RoundPlan",
    "Standing",
    "Tiebreak",
    "Tournament",
    "TournamentConfig",
    "TournamentFormat",
    "find_entrant",
    "meetings",
    "name_key",
    "new_config",
    "pair_round",
    "parse_choice",
    "parse_teams_csv",
    "parse_tiebreaks",
    "qualify",
    "round_kind",
    "round_plan",
    "standings",
]
