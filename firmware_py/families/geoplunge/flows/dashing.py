"""Game 3, Dashing States: count, each race's shout and verdicts, race 3's category.

Each shouting team's verdict is the dealer's YES/NO ("order, card down, 6 answers ok?"), or the
team types its 6 cards in the order laid down on the table's web page: the rules core reads
them and checks the order; the dealer still judges the rest (the unused card face down, every
player unaided). Cards in order: "card down, unaided?" YES met, NO not, the cards on the record.
Out of order: "rules say OUT OF ORDER. Agree?" YES not met, NO overrules with a reason (R483).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, plunge_prompt
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import (
    EntrySpec,
    Kind,
    LogAction,
    Outcome,
    PageInfo,
    Prompt,
    choice,
    yes_no,
)
from rules.geoplunge.games.dashing_states import DashingStates
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.teams import Team

CATEGORIES = ("size", "statehood", "population")
EXAMPLE = "AL, AK, AZ, AR, CA, CO"
SCRATCH_TYPED = "cards"  # the cards a team typed for the verdict being asked, as checked
# Why the dealer rules a team met the conditions against the order of its typed cards (R483)
OVERRULE_REASONS = ("typed wrong", "judge's ruling")


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "plunge":
        return plunge_prompt("ds/plunge")
    if state.phase == "category":
        return choice(
            "ds/category",
            "Race 3: Power card category",
            [Outcome(c, {"action": "dashing.category", "category": c}) for c in CATEGORIES],
        )
    race = state.race_number
    shouters: list[str] | None = scratch.get("shouters")
    if shouters is None:
        return Prompt(
            key=f"ds/race{race}",
            kind=Kind.SHOUT,
            text=f"Race {race}: {state.sort_by}",
            hint="GO: start the race",
            window=f"ds/race{race}",
            opens_on_go=True,
            on_shout=_shouted,
        )
    return _verdict(state, scratch, settings, race, shouters)


def _verdict(
    state: Any, scratch: Mapping[str, Any], settings: FlowSettings, race: int, shouters: list[str]
) -> Prompt:
    """The next shouting team's verdict; the race's action once every shouter has one."""
    key = f"ds/met{race}"
    answers: dict[str, dict[str, Any]] = dict(scratch.get(key, {}))
    team = next(seat for seat in shouters if seat not in answers)

    def answer(label: str, met: bool, cards: list[str] | None, reason: str | None) -> Outcome:
        done = {**answers, team: {"met": met, "cards": cards, "reason": reason}}
        if len(done) == len(shouters):
            return Outcome(label, _race_action(shouters, done))
        return Outcome(label, None, {key: done, SCRATCH_TYPED: None, "overrule": False})

    typed: Mapping[str, Any] | None = scratch.get(SCRATCH_TYPED)
    if typed is not None and (typed["team"], typed["race"]) == (team, race):
        return _typed_prompt(typed, bool(scratch.get("overrule")), answer)
    asked = yes_no(
        f"{key}/{team}",
        f"Team {team}: order, card down, 6 answers ok?",
        answer("yes", True, None, None),
        answer("no", False, None, None),
    )

    def read(seat: str, text: str) -> Outcome:
        rules = game_rules(3, settings.level)
        assert isinstance(rules, DashingStates)  # game 3 is Dashing States at every level
        cards, wrong = rules.laid(state, Team(team), text)
        checked = {"team": team, "race": race, "cards": list(cards), "wrong": wrong}
        return Outcome("checked", None, {SCRATCH_TYPED: checked, "overrule": False})

    entry = EntrySpec(
        name="cards",
        label=f"Team {team}'s 6 cards in the order laid down, e.g. {EXAMPLE}",
        seats=(team,),
        take=read,
    )
    page = PageInfo(lines=(f"Race {race}: Team {team} shouted: the dealer checks its cards",))
    return replace(asked, entry=entry, page=page)


Answer = Callable[[str, bool, list[str] | None, str | None], Outcome]  # label, met, cards, why


def _typed_prompt(typed: Mapping[str, Any], overruling: bool, answer: Answer) -> Prompt:
    team, race, cards = typed["team"], typed["race"], typed["cards"]
    wrong: str | None = typed["wrong"]
    page = PageInfo(
        lines=(
            f"Team {team} laid down: {', '.join(cards)}",
            "The rules say: in order"
            if wrong is None
            else f"The rules say: out of order ({wrong})",
        )
    )
    key = f"ds/met{race}/{team}/typed"
    if wrong is None:
        asked = yes_no(
            key,
            f"Team {team}: in order.\nCard down, unaided?",
            answer("met", True, cards, None),
            answer("not met", False, cards, None),
        )
        return replace(asked, page=page)
    if overruling:
        reasons = choice(
            f"{key}/overrule",
            f"Overrule: Team {team}\nmet it. Why?",
            [answer(reason, True, cards, reason) for reason in OVERRULE_REASONS],
        )
        return replace(reasons, page=page)
    agree = yes_no(
        f"{key}/checked",
        f"Team {team}: rules say\nOUT OF ORDER. Agree?",
        answer("agree", False, cards, None),
        Outcome("overrule", None, {"overrule": True}),
    )
    return replace(agree, hint="YES:agree NO:overrule", page=page)


def _race_action(shouters: list[str], answers: Mapping[str, Mapping[str, Any]]) -> LogAction:
    """``dashing.race``; ``dashing.race_overruled`` when a verdict overruled the order."""
    action: LogAction = {"action": "dashing.race", "shouters": shouters}
    for team in ("A", "B"):
        given = answers.get(team, {})
        action[f"{team.lower()}_met"] = given.get("met")
    for team in ("A", "B"):
        action[f"{team.lower()}_cards"] = answers.get(team, {}).get("cards")
    if any(given.get("reason") for given in answers.values()):
        action["action"] = "dashing.race_overruled"
        for team in ("A", "B"):
            action[f"{team.lower()}_reason"] = answers.get(team, {}).get("reason")
    return action


def _shouted(decision: ShoutDecision) -> Outcome:
    return Outcome(decision.result, None, {"shouters": sorted(decision.shouters)})
