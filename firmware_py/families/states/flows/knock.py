"""A knock and its judgement: the knocker's cards typed on the table's web page (the rules core
finds the colour and its total) or the knocking cards' total on the console; after the last
round, each other player's hand on the page or their best colour total on the console (R324,
R325). The page shows none of it until the knock is judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.states.context import Table, act
from firmware_py.families.states.flows.claim import split_states
from firmware_py.families.states.page import CARDS_EXAMPLE, deck_gaps, with_deck_gaps, with_page
from firmware_py.table.prompts import EntrySpec, NumberSpec, Outcome, Prompt, number, yes_no
from rules.states.knock import KNOCK_CARDS
from rules.states.table_actions import BestTotal, KnockAtTable
from rules.states.table_game import CARD_TOTALS, TableGame

CARDS_LABEL = f"Your four cards, 'water' for a water card, e.g. {CARDS_EXAMPLE}"


def knock_prompt(game: TableGame, scratch: Mapping[str, Any], table: Table) -> Prompt:
    hand = game.hand
    assert hand is not None
    seat: str = scratch["knocker"]
    player = table.options.name_of(seat)
    base = table.key(hand.number, "knock", seat)
    total = scratch.get("knock_total")
    if total is not None:
        return with_page(
            yes_no(
                f"{base}/four",
                f"{player}\n4 cards one colour?",
                act("4 cards", KnockAtTable(player, total=total, four_card=True)),
                act("3 cards", KnockAtTable(player, total=total, four_card=False)),
            ),
            game,
            table,
        )

    def take(value: int) -> Outcome:
        return Outcome(str(value), None, {"knock_total": value})

    # the page never shows the total dialled: the others do not know what to beat (R324)
    spec = NumberSpec(
        take=take, start=KNOCK_CARDS, low=KNOCK_CARDS, high=CARD_TOTALS.stop - 1, hidden=True
    )
    missing = deck_gaps(game)
    # the OLED's short form; the page lists every card (R329)
    asked = f"total? deck lacks {len(missing)}" if missing else "the knock's total?"
    prompt = number(base, f"{player} knocks:\n{asked}", spec)
    entry = EntrySpec(
        name="knock",
        label=CARDS_LABEL,
        seats=(seat,),
        take=lambda _seat, text: act(
            "knock", KnockAtTable(player, cards=tuple(split_states(text)))
        ),
    )
    return with_deck_gaps(with_page(prompt, game, table, entry=entry), game)


def totals_prompt(game: TableGame, table: Table) -> Prompt:
    """Every other player's best: on their phones in any order, or on the console in seat
    order from the knocker's left."""
    hand = game.hand
    assert hand is not None
    waiting = _from_the_left(game)
    player = waiting[0]
    options = table.options

    def take(value: int) -> Outcome:
        return act(str(value), BestTotal(player, total=value))

    # hidden as a typed hand is, until the knock is judged (R324)
    spec = NumberSpec(take=take, start=0, low=0, high=CARD_TOTALS.stop - 1, hidden=True)
    prompt = number(table.key(hand.number, "total", player), f"{player}\nbest colour total?", spec)
    entry = EntrySpec(
        name="cards",
        label=CARDS_LABEL,
        seats=tuple(options.seat_of(p) for p in waiting),
        take=lambda seat, text: act(
            "cards", BestTotal(options.name_of(seat), cards=tuple(split_states(text)))
        ),
        done=tuple(options.seat_of(p) for p, _ in hand.totals),
    )
    return with_deck_gaps(with_page(prompt, game, table, entry=entry), game)


def _from_the_left(game: TableGame) -> tuple[str, ...]:
    hand = game.hand
    assert hand is not None and hand.knocker is not None
    seat = game.players.index(hand.knocker)
    order = game.players[seat + 1 :] + game.players[:seat]
    waiting = set(game.waiting_for_totals)
    return tuple(p for p in order if p in waiting)
