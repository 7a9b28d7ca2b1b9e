"""Game 1, Border-Up: count, GO for "Ready, Set, GeoPlunge!", the shout, the verdicts.

A shouting team's verdict is the dealer's YES/NO, or the team types its groups on the table's
web page: the rules core checks them and says valid or not; the dealer agrees (YES: the
showing is recorded with its groups) or overrules it with a reason (NO, then the reason:
R478).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, plunge_prompt
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import (
    EntrySpec,
    Kind,
    Outcome,
    PageInfo,
    Prompt,
    ask_each,
    choice,
    yes_no,
)
from rules.actions import encode
from rules.errors import InvalidInput
from rules.geoplunge.games.border_up import BorderUpState, Show
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.teams import Team

GROUP_SEPARATORS = "/;|"  # between groups; the states of a group are split by commas
EXAMPLE = "KS,MO,KY,WV,PA / MD,VA,NC"
# Why the dealer overrules the rules' check of typed groups: to NOT VALID, then to VALID
OVERRULE_REASONS = {
    True: ("typed wrong", "not in hand", "judge's ruling"),
    False: ("typed wrong", "judge's ruling"),
}


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "plunge":
        return plunge_prompt("bu/plunge")
    if state.phase == "race":
        shouters: list[str] | None = scratch.get("shouters")
        if shouters is None:
            return Prompt(
                key="bu/race",
                kind=Kind.SHOUT,
                text="Ready, Set, GeoPlunge!",
                hint="GO: start the race",
                window="bu/race",
                opens_on_go=True,
                on_shout=_shouted,
            )
        return ask_each(
            "bu/three_o",
            shouters,
            scratch,
            "Team {team} shouted ThreeOPlunge?",
            lambda answers: {
                "action": "border_up.shout",
                "shouters": shouters,
                "three_o": sorted(team for team, yes in answers.items() if yes),
            },
        )
    team = state.awaiting_showing[0].value
    checked: dict[str, Any] | None = scratch.get("showing")
    if checked is not None and checked["team"] == team:
        return _checked_prompt(checked, bool(scratch.get("overrule")))
    verdict = {"action": "border_up.verdict", "team": team}
    asked = yes_no(
        f"bu/show/{team}",
        f"Team {team}: groups valid?",
        Outcome("valid", {**verdict, "valid": True}),
        Outcome("not valid", {**verdict, "valid": False}),
    )

    def typed(seat: str, text: str) -> Outcome:
        return _check(state, team, read_groups(text), settings.level)

    entry = EntrySpec(
        name="groups",
        label=f"Team {team}'s groups, split by /, e.g. {EXAMPLE}",
        seats=(team,),
        take=typed,
    )
    page = PageInfo(lines=(f"Team {team} shouted: the dealer checks the groups shown",))
    return replace(asked, entry=entry, page=page)


def read_groups(text: str) -> list[list[str]]:
    """``KS,MO,KY,WV,PA / MD,VA,NC``: groups split by / (or ; or |), states by commas."""
    for separator in GROUP_SEPARATORS[1:]:
        text = text.replace(separator, GROUP_SEPARATORS[0])
    groups = [[card.strip() for card in group.split(",")] for group in text.split("/")]
    if any(not card for group in groups for card in group):
        raise InvalidInput(
            f"groups {text.strip()!r}: expected states split by commas and groups split by /, "
            f"e.g. {EXAMPLE}"
        )
    return groups


def _check(state: BorderUpState, team: str, groups: list[list[str]], level: int) -> Outcome:
    """The rules core's check of a typed showing (an unknown state is its InvalidInput), kept
    until the dealer agrees or overrules."""
    show = Show(Team(team), tuple(tuple(group) for group in groups))
    judged = game_rules(1, level).apply(state, show)
    valid = dict(judged.showings)[Team(team)]
    problems = list(judged.problems[len(state.problems) :])
    shown = {"team": team, "groups": groups, "valid": valid, "problems": problems}
    return Outcome("checked", None, {"showing": shown})


def _checked_prompt(checked: Mapping[str, Any], overruling: bool) -> Prompt:
    team, valid = checked["team"], checked["valid"]
    said = "VALID" if valid else "NOT VALID"
    page = PageInfo(
        lines=(
            f"Team {team} shows: " + " / ".join(", ".join(group) for group in checked["groups"]),
            f"The rules say: {'valid' if valid else 'not valid'}",
            *checked["problems"],
        )
    )
    if overruling:
        reasons = choice(
            f"bu/show/{team}/overrule",
            f"Overrule: Team {team}\n{'NOT VALID' if valid else 'VALID'}. Why?",
            [
                Outcome(
                    reason,
                    {"action": "border_up.overrule", "team": team, "valid": not valid,
                     "reason": reason},
                )
                for reason in OVERRULE_REASONS[valid]
            ],
        )  # fmt: skip
        return replace(reasons, page=page)
    show = Show(Team(team), tuple(tuple(group) for group in checked["groups"]))
    agree = yes_no(
        f"bu/show/{team}/checked",
        f"Team {team}: rules say\n{said}. Agree?",
        Outcome("agree", encode(show)),
        Outcome("overrule", None, {"showing": dict(checked), "overrule": True}),
    )
    return replace(agree, hint="YES:agree NO:overrule", page=page)


def _shouted(decision: ShoutDecision) -> Outcome:
    return Outcome(decision.result, None, {"shouters": sorted(decision.shouters)})
