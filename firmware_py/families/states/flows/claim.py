"""A "STATES!" claim: the claimant types the four states on the table's web page and the rules
core checks them against the atlas; the dealer agrees (YES) or overrules with a reason (NO), as
GeoPlunge's Border-Up groups are. Without the page, the dealer judges with YES/NO; in the
alternate scoring a YES asks for the four cards' values, which the table cannot see (R323).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.states.context import Table, act
from firmware_py.families.states.page import STATES_EXAMPLE, with_page
from firmware_py.table.prompts import EntrySpec, NumberSpec, Outcome, Prompt, choice, number, yes_no
from rules.atlas import default_atlas
from rules.states.connect import check_connection, read_claim
from rules.states.table_actions import ClaimAtTable
from rules.states.table_game import CLAIM_VALUES, TableGame

# Why the dealer overrules the rules' check: to "do not connect", then to "connect" (R323)
OVERRULE_REASONS = {
    True: ("not in hand", "typed wrong", "judge's ruling"),
    False: ("typed wrong", "judge's ruling"),
}


def claim_prompt(game: TableGame, scratch: Mapping[str, Any], table: Table) -> Prompt:
    hand = game.hand
    assert hand is not None
    seat: str | None = scratch.get("claimant")
    if seat is None:  # shouts tied within the window: the dealer hears one claim first
        tied = [
            Outcome(f"{s}: {table.options.name_of(s)}"[:15], None, {"claimant": s})
            for s in scratch["claimants"]
        ]
        prompt = choice(
            table.key(hand.number, "tie", len(hand.claims)),
            "A tie: whose claim\nis heard first?",
            tied,
        )
        return with_page(prompt, game, table)
    player = table.options.name_of(seat)
    base = table.key(hand.number, "claim", len(hand.claims), seat)
    checked: Mapping[str, Any] | None = scratch.get("checked")
    if checked is not None:
        return _checked_prompt(
            game,
            player,
            checked=checked,
            overruling=bool(scratch.get("overrule")),
            base=base,
            table=table,
        )
    if scratch.get("dealer_yes"):

        def take(value: int) -> Outcome:
            return act(str(value), ClaimAtTable(player, connects=True, values=value))

        spec = NumberSpec(
            take=take, start=CLAIM_VALUES.start, low=CLAIM_VALUES.start, high=CLAIM_VALUES.stop - 1
        )
        return with_page(number(f"{base}/values", f"{player}\n4 cards' values?", spec), game, table)
    alternate = game.points.adds_card_values
    yes = (
        Outcome("connect", None, {"dealer_yes": True})
        if alternate
        else act("connect", ClaimAtTable(player, connects=True))
    )
    asked = yes_no(
        base, f"{player}\nSTATES! Connect?", yes, act("no", ClaimAtTable(player, connects=False))
    )

    def typed(seat: str, text: str) -> Outcome:
        codes = read_claim(split_states(text))  # InvalidInput: the page's one line
        check = check_connection(codes, game.connect, default_atlas())
        shown = {"states": list(codes), "connects": check.connects, "reason": check.reason}
        return Outcome("checked", None, {"checked": shown})

    entry = EntrySpec(
        name="claim", label=f"Your four states, e.g. {STATES_EXAMPLE}", seats=(seat,), take=typed
    )
    return with_page(asked, game, table, entry=entry)


def split_states(text: str) -> list[str]:
    """``UT,CO,KS,OK`` (or split by spaces, when no comma: ``UT CO KS OK``)."""
    parts = text.split(",") if "," in text else text.split()
    return [part.strip() for part in parts]


def _checked_prompt(
    game: TableGame,
    player: str,
    *,
    checked: Mapping[str, Any],
    overruling: bool,
    base: str,
    table: Table,
) -> Prompt:
    states = tuple(checked["states"])
    connects = bool(checked["connects"])
    if overruling:
        reasons = [
            act(reason, ClaimAtTable(player, states, overruled=reason))
            for reason in OVERRULE_REASONS[connects]
        ]
        prompt = choice(f"{base}/overrule", f"{player}\noverrule: why?", reasons)
        return with_page(prompt, game, table)
    said = "YES" if connects else "NO"
    agree = yes_no(
        f"{base}/checked",
        f"{player}\nrules say {said}. Agree?",
        act("agree", ClaimAtTable(player, states)),
        Outcome("overrule", None, {"overrule": True}),
    )
    prompt = with_page(agree, game, table)
    shown = f"{player} shows {', '.join(states)}: the rules say: {checked['reason']}"
    page = replace(prompt.page, lines=(*prompt.page.lines, shown))
    return replace(prompt, hint="YES:agree NO:overrule", page=page)
