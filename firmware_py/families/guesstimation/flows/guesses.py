"""The guesses and the answer: the duel offered first, each player's guess from their phone or
on the console, then the answer from the deck or, read off the card, on the console.

A guess from a player's own phone (the table's web page) is hidden from everyone until all are
in; the console's number entry, for a table without phones, enters the guesses as they are
read out, in speaking order. The answer is read only once every guess is in (R284).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.guesstimation.context import Table, act
from firmware_py.families.guesstimation.page import with_page
from firmware_py.table.prompts import (
    EntrySpec,
    NumberSpec,
    Outcome,
    Prompt,
    choice,
    confirm,
    number,
    yes_no,
)
from rules.guesstimation.actions import DeclareDuel, RecordGuess, RevealAnswer
from rules.guesstimation.deck import answer_action
from rules.guesstimation.scoring import DEFAULT_WAGER, WAGERS
from rules.guesstimation.session import GuesstimationState, Round

# The console's number entry: whole numbers in this range, and with GO up to CONSOLE_PLACES
# decimal places (R774); a phone takes any decimal
CONSOLE_LOW, CONSOLE_HIGH = -99_999, 999_999
CONSOLE_PLACES = 6


def guessing_prompt(state: GuesstimationState, scratch: Mapping[str, Any], table: Table) -> Prompt:
    current = state.current
    assert current is not None
    if _duel_can_be_declared(state, current) and not scratch.get("no_duel"):
        return with_page(_duel_prompt(state, current, scratch, table), state, table)
    player = current.waiting_for_guesses[0]
    guessed = len(current.guesses)

    def take(value: int | str) -> Outcome:
        return act(str(value), RecordGuess(player, str(value)))

    prompt = number(
        table.key(current.number, "guess", player),
        f"{player}\nguess? {guessed}/{len(current.guessers)} in",
        # from 0, never from a guess already in: a phone's guess stays hidden until all are in
        NumberSpec(
            take=take,
            start=0,
            low=CONSOLE_LOW,
            high=CONSOLE_HIGH,
            hidden=True,
            places=CONSOLE_PLACES,
            take_decimal=take,
        ),
    )
    options = table.options
    entry = EntrySpec(
        name="guess",
        label=f"Your guess{_unit(state, table)}",
        seats=tuple(options.seat_of(name) for name in current.waiting_for_guesses),
        take=lambda seat, text: act("guess", RecordGuess(options.name_of(seat), text.strip())),
        done=tuple(options.seat_of(guess.player) for guess in current.guesses),
        keyboard="decimal",
    )
    return with_page(prompt, state, table, entry=entry)


def answer_prompt(state: GuesstimationState, table: Table) -> Prompt:
    """Every guess is in: the answer from the deck (YES), or the card's answer entered on the
    console. Never from a phone: the Round Leader is a player too, and a seat's phone is a
    player's (R766)."""
    current = state.current
    assert current is not None
    key = table.key(current.number, "answer")
    question = table.deck_question(current)
    if question is not None:
        reveal = act("reveal", answer_action(question, current.units))
        prompt = confirm(key, "All guesses in:\nread the answer", reveal, hint="YES: reveal")
        return with_page(prompt, state, table)

    def take(value: int | str) -> Outcome:
        return act(str(value), RevealAnswer(str(value)))

    prompt = number(
        key,
        "All guesses in:\nthe answer?",
        # from 0, as a guess is: the card's answer is dialled, not nudged from a guess (R772)
        NumberSpec(
            take=take,
            start=0,
            low=CONSOLE_LOW,
            high=CONSOLE_HIGH,
            places=CONSOLE_PLACES,
            take_decimal=take,
        ),
    )
    return with_page(prompt, state, table)


# --- the duel ---------------------------------------------------------------------------------


def _duel_can_be_declared(state: GuesstimationState, current: Round) -> bool:
    """The chip's holder may duel on a standard question before the first guess (R288)."""
    question = current.question
    return (
        state.chip is not None
        and question is not None
        and not question.chip
        and not current.final
        and current.duel is None
        and not current.guesses
    )


def _duel_prompt(
    state: GuesstimationState, current: Round, scratch: Mapping[str, Any], table: Table
) -> Prompt:
    holder = state.chip
    assert holder is not None
    if not scratch.get("dueling"):
        return yes_no(
            table.key(current.number, "duel"),
            f"{holder}:\nduel with the chip?",
            Outcome("duel", None, {"dueling": True}),
            Outcome("no duel", None, {"no_duel": True}),
        )
    opponent: str | None = scratch.get("opponent")
    if opponent is None:
        others = [player for player in state.players if player != holder]
        return choice(
            table.key(current.number, "duel", "opponent"),
            "Duel: who is the\nopponent?",
            [Outcome(name, None, {"dueling": True, "opponent": name}) for name in others],
        )
    wagers = (DEFAULT_WAGER, *(wager for wager in WAGERS if wager != DEFAULT_WAGER))
    return choice(
        table.key(current.number, "duel", "wager"),
        "Duel: the wager?\n(2 if none named)",
        [
            act(f"{wager} space{'s' if wager > 1 else ''}", DeclareDuel(holder, opponent, wager))
            for wager in wagers
        ],
    )


# --- helpers ----------------------------------------------------------------------------------


def _unit(state: GuesstimationState, table: Table) -> str:
    """The unit the answer is read in, as the page words it (", in feet"), if the deck says."""
    current = state.current
    assert current is not None
    question = table.deck_question(current)
    if question is None or (question.measured and current.units is None):
        return ""
    unit = question.answer_in(current.units).unit
    return f", in {unit}" if unit else ""
