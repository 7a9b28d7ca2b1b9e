"""The Game Monitor on the table's web page: with the join code the monitor asks for the
page's monitor place and confirms the phone with COUNT at the console (never a player's seat,
R494); the phone types the numbers a move carries (a chip's points, a card's, the stacks), as
the players announce them, instead of stepping to them with NEXT and NO; the console's entry
stays. The number goes where the console's would, through the rules core, which refuses it
with its own error (R482)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from firmware_py.table.prompts import EntrySpec, Outcome, PageInfo, Prompt
from rules.errors import InvalidInput

MONITOR = "monitor"  # the monitor's place on the page (a role, not a seat: no light, no score)
OFFICIALS = {MONITOR: "Game Monitor"}
ENTRY = "number"  # what the monitor's phone enters
YES, NO = ("yes", "y"), ("no", "n")


def on_page(prompt: Prompt) -> Prompt:
    """Every step lets the monitor take the page's monitor place."""
    return replace(prompt, page=replace(prompt.page, officials=OFFICIALS))


def number_entry(text: str, high: int, take: Callable[[int], Outcome]) -> EntrySpec:
    """The monitor types the number the console's step asks for (``text``): 0 to ``high``."""

    def typed(seat: str, value: str) -> Outcome:
        return take(read_number(text, value, high))

    return EntrySpec(
        name=ENTRY, label=f"{text} (0 to {high})", seats=(MONITOR,), take=typed, keyboard="numeric"
    )


def yes_no_entry(text: str, take: Callable[[bool], Outcome]) -> EntrySpec:
    """The monitor types yes or no for the console's YES/NO step (``text``)."""

    def typed(seat: str, value: str) -> Outcome:
        answer = value.strip().lower()
        if answer not in (*YES, *NO):
            raise InvalidInput(f"{text.rstrip('?')} {value.strip()!r}: expected yes or no")
        return take(answer in YES)

    return EntrySpec(name=ENTRY, label=f"{text} (yes or no)", seats=(MONITOR,), take=typed)


def read_number(text: str, value: str, high: int) -> int:
    """A whole number from 0 to ``high`` as typed (``37``); anything else is one line."""
    typed = value.strip()
    if not typed.isdecimal() or not typed.isascii() or int(typed) > high:
        raise InvalidInput(f"{text} {typed!r}: expected a whole number from 0 to {high}")
    return int(typed)


def facts(text: str) -> PageInfo:
    return PageInfo(lines=(f"The Game Monitor enters: {text}",), officials=OFFICIALS)
