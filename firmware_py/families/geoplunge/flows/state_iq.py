"""Game 2, State IQ: the draw, count, the Power card's clue order, each guess YES/NO.

The guessing team may type the state it names on the table's web page: the rules core reads
the name and says whether the game so far rules it out as a right guess; the card itself is not
known to the table, so whether the guess is right stays the dealer's YES/NO, with the state on
the record. A state the rules rule out is "rules say WRONG. Agree?": YES records the wrong
guess, NO overrules with a reason (``state_iq.overrule``, R480).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import permutations
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, draw_prompt, plunge_prompt
from firmware_py.table.prompts import EntrySpec, Outcome, PageInfo, Prompt, choice, yes_no
from rules.atlas import default_atlas
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.games.state_iq import StateIQRules

CLUE_ORDERS = tuple("".join(order) for order in permutations("ABC"))
SCRATCH_NAMED = "named"  # the state typed for the guess being judged
# Why the dealer records a right guess the rules rule out (R480)
OVERRULE_REASONS = ("earlier verdict wrong", "judge's ruling")


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "draw":
        return draw_prompt("iq/draw", "guesses first")
    if state.phase == "plunge":
        return plunge_prompt("iq/plunge")
    if state.phase == "power":
        return choice(
            "iq/power",
            "Power card letters",
            [
                Outcome(order, {"action": "state_iq.power", "clue_order": order})
                for order in CLUE_ORDERS
            ],
        )
    team = state.guessing_team.value
    deal = f"Deal {state.deal_next_card.value} a card.\n" if state.deal_next_card else ""
    return guess_prompt(
        state,
        scratch,
        settings,
        f"{deal}{team} guess {state.guess_number}, clue {state.next_clue_type}"
        + ("?" if deal else ": right?"),
    )


def guess_prompt(
    state: Any, scratch: Mapping[str, Any], settings: FlowSettings, question: str
) -> Prompt:
    """The dealer's YES/NO on the guess being made (``question``), taking the state named from
    the guessing team's phone; once typed, the dealer judges the guess with it."""
    team, number = state.guessing_team.value, state.guess_number
    named: Mapping[str, Any] | None = scratch.get(SCRATCH_NAMED)
    if named is not None and (named["team"], named["guess"]) == (team, number):
        return _named_prompt(named, bool(scratch.get("overrule")))
    guess = {"action": "state_iq.guess", "team": team, "state": None}
    asked = yes_no(
        f"iq/guess/{team}/{number}",
        question,
        Outcome("right", {**guess, "correct": True}),
        Outcome("wrong", {**guess, "correct": False}),
    )

    def typed(seat: str, text: str) -> Outcome:
        rules = game_rules(2, settings.level)
        assert isinstance(rules, StateIQRules)  # game 2 is State IQ at every level
        code, ruled_out = rules.named(state, text)
        checked = {"team": team, "guess": number, "state": code, "ruled_out": ruled_out}
        return Outcome("named", None, {SCRATCH_NAMED: checked})

    entry = EntrySpec(
        name="state",
        label=f"Team {team}'s guess {number}: the state you name",
        seats=(team,),
        take=typed,
    )
    made = [
        f"Guess {n}: {guess.state or 'not typed'}, {'right' if guess.correct else 'wrong'}"
        for n, guess in enumerate(state.guesses(state.guessing_team), start=1)
    ]
    page = PageInfo(lines=(f"Team {team} guesses: the dealer judges each guess", *made))
    return replace(asked, entry=entry, page=page)


def _named_prompt(named: Mapping[str, Any], overruling: bool) -> Prompt:
    team, number, code = named["team"], named["guess"], named["state"]
    ruled_out: str | None = named["ruled_out"]
    said = (
        "the dealer judges: the table does not know the card"
        if ruled_out is None
        else (f"cannot be right: {ruled_out}")
    )
    page = PageInfo(
        lines=(
            f"Team {team} names {default_atlas().lookup(code).name} ({code}) on guess {number}",
            f"The rules say: {said}",
        )
    )
    guess = {"action": "state_iq.guess", "team": team, "state": code}
    key = f"iq/guess/{team}/{number}/{code}"
    if ruled_out is None:
        asked = yes_no(
            key,
            f"{team} guess {number}: {code}\nright?",
            Outcome("right", {**guess, "correct": True}),
            Outcome("wrong", {**guess, "correct": False}),
        )
        return replace(asked, page=page)
    if overruling:
        overrule = {"action": "state_iq.overrule", "team": team, "state": code}
        reasons = choice(
            f"{key}/overrule",
            f"Overrule: {team} {code}\nRIGHT. Why?",
            [Outcome(reason, {**overrule, "reason": reason}) for reason in OVERRULE_REASONS],
        )
        return replace(reasons, page=page)
    agree = yes_no(
        f"{key}/checked",
        f"{team} {code}: rules say\nWRONG. Agree?",
        Outcome("agree", {**guess, "correct": False}),
        Outcome("overrule", None, {SCRATCH_NAMED: dict(named), "overrule": True}),
    )
    return replace(agree, hint="YES:agree NO:overrule", page=page)
