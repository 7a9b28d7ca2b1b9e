"""The judge's commands: ask the rules core about one dispute and get a verdict.

Each command returns an ``Answer``: the exit code (0 the claim holds / a decision was made,
1 the claim fails), a line for a person and a JSON object for a program.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.atlas import Category, default_atlas, parse_cards
from rules.errors import InvalidInput
from rules.games.border_up import HAND_SIZE, check_showing, require_well_formed, solve
from rules.games.tricks import Trick, judge_trick, judge_zap
from rules.match import MatchKind, game_cycle, match_kind
from rules.power import Game4Version, check_base
from rules.replay import replay_log, summary
from rules.scoring import GameResult, score_game
from rules.teams import Team, parse_teams

HOLDS, FAILS = 0, 1


@dataclass(frozen=True, slots=True)
class Answer:
    code: int
    text: str
    data: dict[str, Any]


def check_level(level: int) -> None:
    if level != 4:
        raise InvalidInput(f"--level {level}: expected 4 (Level 3 is not supported yet)")


def check_border_up(groups: Sequence[str], level: int) -> Answer:
    check_level(level)
    if len(groups) not in (2, 3):
        raise InvalidInput(f"{len(groups)} group(s): expected 2 (GeoPlunge) or 3 (ThreeOPlunge)")
    three_o = len(groups) == 3
    showing = require_well_formed(tuple(parse_cards(group) for group in groups), three_o)
    check = check_showing(showing, three_o)
    call = "ThreeOPlunge" if three_o else "GeoPlunge"
    text = f"valid {call}" if check.valid else "invalid: " + "; ".join(check.problems)
    data = {
        "valid": check.valid,
        "call": call,
        "groups": [list(group) for group in showing],
        "problems": list(check.problems),
        "not_bordering": [list(pair) for pair in check.broken_pairs],
    }
    return Answer(HOLDS if check.valid else FAILS, text, data)


def solve_border_up(hand_text: str, level: int, three_o: bool) -> Answer:
    check_level(level)
    hand = parse_cards(hand_text)
    if len(hand) > HAND_SIZE:
        raise InvalidInput(f"{len(hand)} cards: a Border-Up hand is at most {HAND_SIZE} cards")
    showing = solve(hand, three_o=three_o)
    if showing is None:
        call = "ThreeOPlunge" if three_o else "GeoPlunge"
        return Answer(FAILS, f"none: no {call} in this hand", {"groups": None})
    text = "  ".join(",".join(group) for group in showing)
    return Answer(HOLDS, text, {"groups": [list(group) for group in showing]})


def check_zap(lead: str, other: str) -> Answer:
    decision = judge_zap(lead, other)
    data = {
        "winner": decision.winner.value,
        "zaps": [condition.value for condition in decision.reasons],
        "reason": decision.reason,
    }
    return Answer(HOLDS, f"{decision.winner} wins: {decision.reason}", data)


def check_trick(
    *,
    version: str,
    base: int,
    category: str,
    lead: str,
    other: str,
    lead_power: str | None,
    other_power: str | None,
    other_power_base: int | None,
    change_base: bool,
    bur: str | None,
) -> Answer:
    atlas = default_atlas()
    other_changes = other_power is not None and lead_power is None
    if other_changes and not bur:
        raise InvalidInput(
            "--other-power needs --bur: protection against it depends on the BUR cards"
        )
    trick = Trick(
        version=Game4Version.parse(version),
        base=check_base(base),
        category=Category.parse(category),
        lead=atlas.code(lead),
        other=atlas.code(other),
        lead_power=Category.parse(lead_power) if lead_power else None,
        other_power=Category.parse(other_power) if other_power else None,
        other_power_base=check_base(other_power_base) if other_power_base is not None else None,
        change_base=change_base,
        bur=parse_cards(bur) if bur else (),
    )
    decision = judge_trick(trick)
    data = {
        "winner": decision.winner.value,
        "category": decision.category.value,
        "base": decision.base,
        "protected": decision.protected,
        "bur": decision.bur,
        "reason": decision.reason,
    }
    protected = ", lead's card protected" if decision.protected else ""
    text = (
        f"{decision.winner} wins ({decision.category.value}, base {decision.base}{protected}): "
        f"{decision.reason}"
    )
    return Answer(HOLDS, text, data)


def score(result: str, bonus: bool, plunging: str | None) -> Answer:
    winner = None if result.strip().lower() == "tie" else Team.parse(result)
    if winner is None and bonus:
        raise InvalidInput("--bonus with --result tie: a tie never earns the bonus")
    names = plunging.split(",") if plunging else []
    teams = parse_teams(names)
    if len(teams) != len(names):
        raise InvalidInput(f"--plunging {plunging}: expected each team once, e.g. A or A,B")
    points = score_game(GameResult(winner, bonus=bonus), teams)
    text = f"A {points[Team.A]}, B {points[Team.B]}"
    return Answer(HOLDS, text, {"A": points[Team.A], "B": points[Team.B]})


def _parse_pick(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(item) for item in text.split(","))
    except ValueError:
        raise InvalidInput(f"--picks {text!r}: expected two game numbers like 3,5") from None


def rotation(round_number: int, picks: Sequence[str] | None) -> Answer:
    kind = match_kind(round_number)
    if kind is MatchKind.CALL and (picks is None or len(picks) != 2):
        raise InvalidInput(f"round {round_number} is a Call match: expected --picks G,G twice")
    if kind is MatchKind.ALL and picks:
        raise InvalidInput(f"round {round_number} is an All match: it takes no --picks")
    pair = (_parse_pick(picks[0]), _parse_pick(picks[1])) if picks else None
    games = game_cycle(kind, pair)
    text = f"{kind.value} match: games {', '.join(map(str, games))}, then again from the first"
    return Answer(HOLDS, text, {"round": round_number, "kind": kind.value, "games": list(games)})


def replay_file(lines: Sequence[str]) -> Answer:
    result = summary(replay_log(lines))
    return Answer(HOLDS, "", result)
