"""Dashing States' cards typed on the table's web page: the rules core reads a shouting team's
6 cards and checks their order; the dealer judges the rest, or overrules the order with a
reason (``dashing.race_overruled``, R483)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.families.geoplunge.flows.dashing import OVERRULE_REASONS
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable, parse_script
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from rules.errors import InvalidInput
from rules.geoplunge.games.dashing_states import DashingRaceOverruled, DashingState, DashingStates
from rules.geoplunge.teams import Team
from tests.test_table import Table

IN_ORDER = "AL, AK, AZ, AR, CA, CO"  # race 1: state names A to Z
OUT_OF_ORDER = "AK, AL, AZ, AR, CA, CO"


def shouted_a(**settings: object) -> Table:
    """Game 3 on its own: nobody plunges, A shouts first in race 1."""
    table = Table(game=3, **settings).count()
    return table.buttons("go").press("A.shout").at(table.t + 1)


def typed(table: Table, seat: str, text: str) -> Table:
    table.t += 1.0
    table.virtual.enter(Entry(seat, "cards", text), table.t)
    return table


def test_the_shouting_team_may_type_its_cards_in_the_order_laid_down() -> None:
    table = shouted_a()
    entry = table.controller.prompt.entry
    assert entry is not None and (entry.name, entry.seats) == ("cards", ("A",))
    typed(table, "A", IN_ORDER)
    assert table.prompt == "Team A: in order.\nCard down, unaided?"
    assert table.controller.prompt.page.lines == (
        "Team A laid down: AL, AK, AZ, AR, CA, CO",
        "The rules say: in order",
    )


def test_the_dealers_verdict_is_recorded_with_the_cards() -> None:
    table = typed(shouted_a(), "A", IN_ORDER).buttons("yes")
    race = table.last("action")
    assert (race["action"], race["a_met"], race["a_cards"]) == (
        "dashing.race",
        True,
        ["AL", "AK", "AZ", "AR", "CA", "CO"],
    )


def test_the_rules_find_cards_out_of_order_and_say_where() -> None:
    table = typed(shouted_a(), "A", OUT_OF_ORDER)
    assert table.prompt == "Team A: rules say\nOUT OF ORDER. Agree?"
    assert table.controller.prompt.page.lines[1] == (
        "The rules say: out of order (AK before AL, sorting by state name, A to Z)"
    )
    table.buttons("yes")
    assert (table.last("action")["a_met"], table.controller.session.state.races) == (
        False,
        (Team.B,),
    )


def test_the_dealer_overrules_the_order_with_a_reason_on_the_record() -> None:
    table = typed(shouted_a(), "A", OUT_OF_ORDER).buttons("no")
    assert [o.label for o in table.controller.prompt.options] == list(OVERRULE_REASONS)
    table.buttons("yes")  # typed wrong: the cards on the table were in order
    race = table.last("action")
    assert (race["action"], race["a_met"], race["a_reason"]) == (
        "dashing.race_overruled",
        True,
        "typed wrong",
    )
    assert table.controller.session.state.overrules == (
        "race 1, Team A: the dealer overruled the cards' order: typed wrong",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AL, AK, AZ", "Team A laid down 3 cards: expected 6"),
        ("AL, AK, AZ, AR, CA, Colorad", "unknown state 'Colorad'"),
        ("AL, AL, AZ, AR, CA, CO", "card AL is used more than once"),
        ("AL, AK,, AR, CA, CO", "cards 'AL, AK,, AR, CA, CO': expected 6 states split by commas"),
    ],
)
def test_cards_the_rules_cannot_take_are_one_line_and_change_nothing(
    text: str, message: str
) -> None:
    table = typed(shouted_a(), "A", text)
    assert table.last("entry_refused")["reason"].startswith(message)
    assert table.prompt == "Team A: order, card down, 6 answers ok?"


def test_a_card_used_in_an_earlier_race_is_refused() -> None:
    table = typed(shouted_a(), "A", IN_ORDER).buttons("yes")
    table.buttons("go").press("B.shout").at(table.t + 1)
    typed(table, "B", "AL, CT, DE, FL, GA, HI")
    assert table.last("entry_refused")["reason"].startswith("Team B used AL in an earlier race")


def test_level_3_race_3_checks_the_order_by_state_name() -> None:
    table = Table(game=3, format="combo3").count()
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")  # race 1: A
    table.buttons("go").press("B.shout").at(table.t + 1).buttons("yes")  # race 2: B
    assert table.prompt.startswith("Race 3")
    table.buttons("go").press("A.shout").at(table.t + 1)
    typed(table, "A", OUT_OF_ORDER)
    assert "sorting by state name, A to Z" in table.controller.prompt.page.lines[1]


def test_a_reason_needs_a_met_verdict_and_the_cards() -> None:
    state = DashingState(plunging=frozenset())
    action = DashingRaceOverruled(frozenset({Team.A}), a_met=False, a_reason="judge's ruling")
    with pytest.raises(InvalidInput, match="expected its cards with it"):
        DashingStates().apply(state, action)


def _press(t: float, button: str) -> list[str]:
    return [
        json.dumps({"t": t, "press": f"console.{button}"}),
        json.dumps({"t": t + 0.1, "release": f"console.{button}"}),
    ]


SCRIPT = [
    '{"setup": {"game": 3}}',
    *_press(1, "count"),
    *_press(8, "go"),
    '{"t": 10, "press": "A.shout"}',
    '{"t": 10.1, "release": "A.shout"}',
    json.dumps({"t": 20, "entry": {"seat": "A", "name": "cards", "value": OUT_OF_ORDER}}),
    *_press(25, "no"),
    *_press(26, "next"),
    *_press(27, "yes"),
]


def test_typed_cards_and_their_overrule_rebuild_from_the_journal(tmp_path: Path) -> None:
    settings, steps = parse_script(SCRIPT, TableSettings())
    journal = Journal.open(tmp_path / "journal.db")
    live = VirtualTable(settings, lambda event: None, journal=journal)
    try:
        live.play(steps)
        expected = (live.controller.log, live.controller.view())
    finally:
        live.close()
        journal.close()
    journal = Journal.open(tmp_path / "journal.db")
    try:
        rebuilt = RecordedTable.start(
            journal=journal, settings=settings, now=0.0, read_pin=lambda name: False
        ).controller
    finally:
        journal.close()
    assert (rebuilt.log, rebuilt.view()) == expected
    last = rebuilt.log[-1]
    assert isinstance(last, DashingRaceOverruled) and last.a_reason == "judge's ruling"
