"""The judge's commands: ask the rules core about one dispute and get a verdict.

Each command returns an ``Answer``: the exit code (0 the claim holds / a decision was made,
1 the claim fails), a line for a person and a JSON object for a program.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_py.cli_args import number_error
from rules import families
from rules.atlas import Category, default_atlas, parse_cards
from rules.errors import InvalidInput, RuleError
from rules.geoplunge.games import border_up as level4_border_up
from rules.geoplunge.games.level3 import border_up as level3_border_up
from rules.geoplunge.games.tricks import Trick, judge_trick, judge_zap
from rules.geoplunge.match import MatchKind, game_cycle, match_kind
from rules.geoplunge.match3 import DayPart, day_part
from rules.geoplunge.match3 import game_cycle as combo3_cycle
from rules.geoplunge.power import Game4Version, check_base
from rules.geoplunge.scoring import GameResult, score_game
from rules.geoplunge.teams import Team, parse_teams

HOLDS, FAILS = 0, 1


@dataclass(frozen=True, slots=True)
class Answer:
    code: int
    text: str
    data: dict[str, Any]


LEVELS = (3, 4)


def check_level(level: int) -> None:
    if level not in LEVELS:
        raise InvalidInput(f"--level {level}: expected 3 or 4")


def check_border_up(groups: Sequence[str], level: int) -> Answer:
    check_level(level)
    rules = level3_border_up if level == 3 else level4_border_up
    if len(groups) not in (2, 3):
        raise InvalidInput(f"{len(groups)} group(s): expected 2 (GeoPlunge) or 3 (ThreeOPlunge)")
    three_o = len(groups) == 3
    showing = rules.require_well_formed(tuple(parse_cards(group) for group in groups), three_o)
    check = rules.check_showing(showing, three_o)
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
    rules = level3_border_up if level == 3 else level4_border_up
    hand = parse_cards(hand_text)
    if len(hand) > rules.HAND_SIZE:
        raise InvalidInput(
            f"{len(hand)} cards: a Level {level} Border-Up hand is at most {rules.HAND_SIZE} cards"
        )
    showing = rules.solve(hand, three_o=three_o)
    if showing is None:
        call = "ThreeOPlunge" if three_o else "GeoPlunge"
        return Answer(FAILS, f"none: no {call} in this hand", {"groups": None})
    text = "  ".join(",".join(group) for group in showing)
    return Answer(HOLDS, text, {"groups": [list(group) for group in showing]})


def check_zap(lead: str, other: str, level: int = 4) -> Answer:
    """Border Zap tricks are judged the same way at Levels 3 and 4 (ruling R71)."""
    check_level(level)
    decision = judge_zap(lead, other)
    data = {
        "winner": decision.winner.value,
        "zaps": [condition.value for condition in decision.reasons],
        "reason": decision.reason,
    }
    return Answer(HOLDS, f"{decision.winner} wins: {decision.reason}", data)


BUR_COUNTS = (2, 3, 4, 5)  # 2 dealt; Up the BUR asks for 3, 4 or 5


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
    level: int = 4,
) -> Answer:
    check_level(level)
    atlas = default_atlas()
    other_changes = other_power is not None and lead_power is None
    if level == 3 and bur:
        raise InvalidInput("--bur at --level 3: Level 3 Play the Ranks deals no BUR cards")
    if level == 4 and other_changes and not bur:
        raise InvalidInput(
            "--other-power needs --bur: protection against it depends on the BUR cards"
        )
    bur_cards = parse_cards(bur) if bur else ()
    if bur_cards and len(bur_cards) not in BUR_COUNTS:
        raise InvalidInput(
            f"--bur with {len(bur_cards)} card(s): expected 2 BUR cards, or 3 to 5 after Up the BUR"
        )
    if len(set(bur_cards)) != len(bur_cards):
        raise InvalidInput("--bur names a card twice: there is one card per state")
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
        bur=bur_cards,
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


def rotation(round_number: int, picks: Sequence[str] | None, level: int = 4) -> Answer:
    check_level(level)
    if level == 3:
        return _combo3_rotation(round_number, picks)
    kind = match_kind(round_number)
    if kind is MatchKind.CALL and (picks is None or len(picks) != 2):
        raise InvalidInput(f"round {round_number} is a Call match: expected --picks G,G twice")
    if kind is MatchKind.ALL and picks:
        raise InvalidInput(f"round {round_number} is an All match: it takes no --picks")
    pair = (_parse_pick(picks[0]), _parse_pick(picks[1])) if picks else None
    games = game_cycle(kind, pair)
    text = f"{kind.value} match: games {', '.join(map(str, games))}, then again from the first"
    return Answer(HOLDS, text, {"round": round_number, "kind": kind.value, "games": list(games)})


def _parse_one_pick(text: str) -> int:
    if number_error(text.strip()) is not None:
        raise InvalidInput(
            f"--picks {text!r} at --level 3: expected one game number per team, like 3"
        )
    return int(text)


def _combo3_rotation(round_number: int, picks: Sequence[str] | None) -> Answer:
    part = day_part(round_number)
    pair: tuple[int, int] | None = None
    if part is DayPart.AFTERNOON:
        if picks is None or len(picks) != 2:
            raise InvalidInput(
                f"round {round_number} is a Combo 3 afternoon round: expected --picks G twice, "
                "the draw winner's game first"
            )
        pair = (_parse_one_pick(picks[0]), _parse_one_pick(picks[1]))
    elif picks:
        raise InvalidInput(f"round {round_number} is a Combo 3 morning round: it takes no --picks")
    games = combo3_cycle(round_number, pair)
    text = f"{part.value} round: games {', '.join(map(str, games))}, then again from the first"
    data = {"round": round_number, "level": 3, "part": part.value, "games": list(games)}
    return Answer(HOLDS, text, data)


EXPORT_FORMAT = "gametable-journal-export"


def replay_file(lines: Sequence[str]) -> Answer:
    """A JSON Lines action log, or a journal export (``gametable journal export``): every
    session of an export is replayed, and the answer lists their results in order."""
    text = "\n".join(lines).strip()
    if not (text.startswith("{") and f'"{EXPORT_FORMAT}"' in text[:200]):
        return Answer(HOLDS, "", families.summary(lines))
    try:
        exported = json.loads(text)
    except (ValueError, RecursionError):
        raise InvalidInput("the journal export is not valid JSON") from None
    if not isinstance(exported, dict):
        raise InvalidInput("the journal export is not a JSON object")
    if "actions" in exported:  # version 1: one session
        return Answer(HOLDS, "", families.summary(_action_lines(exported, "the journal export")))
    sessions = exported.get("sessions")
    if not isinstance(sessions, list) or not sessions:
        raise InvalidInput("the journal export has no 'sessions' list")
    results = []
    for number, session in enumerate(sessions, start=1):
        where = f"session {number}"
        try:
            results.append(families.summary(_action_lines(session, where)))
        except RuleError as error:
            error.args = (f"{where}: {error}",)
            raise
    return Answer(HOLDS, "", {"sessions": results})


def _action_lines(holder: object, where: str) -> list[str]:
    actions = holder.get("actions") if isinstance(holder, dict) else None
    if not isinstance(actions, list):
        raise InvalidInput(f"{where} has no 'actions' list")
    return [json.dumps(action) for action in actions]
