"""State IQ's guesses named on the table's web page: the rules core reads the state and says
whether the game rules it out; the dealer judges the guess with the state on the record, and
may overrule the rules with a reason (R480). Both levels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.families.geoplunge.flows.state_iq import OVERRULE_REASONS
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable, parse_script
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from rules.errors import InvalidInput
from rules.geoplunge.games.state_iq import StateIQ, StateIQOverrule, StateIQState
from rules.geoplunge.teams import Team
from tests.test_table import Table


def guessing(**settings: object) -> Table:
    """State IQ on its own: Team B draws closer to 1 and guesses first, clue order ABC."""
    return Table(game=2, **settings).buttons("next", "yes").count().buttons("yes")


def named(table: Table, seat: str, text: str) -> Table:
    table.t += 1.0
    table.virtual.enter(Entry(seat, "state", text), table.t)
    return table


def test_the_guessing_team_may_type_the_state_it_names() -> None:
    table = guessing()
    entry = table.controller.prompt.entry
    assert entry is not None and (entry.name, entry.seats) == ("state", ("B",))
    named(table, "B", "texas")
    assert table.prompt == "B guess 1: TX\nright?"
    assert table.controller.prompt.page.lines == (
        "Team B names Texas (TX) on guess 1",
        "The rules say: the dealer judges: the table does not know the card",
    )


def test_the_dealers_verdict_is_recorded_with_the_state_named() -> None:
    table = named(guessing(), "B", "TX").buttons("no")
    guess = table.last("action")
    assert (guess["action"], guess["correct"], guess["state"]) == ("state_iq.guess", False, "TX")


def test_the_page_lists_the_guessing_team_s_guesses_so_far() -> None:
    table = named(guessing(), "B", "TX").buttons("no")
    assert table.controller.prompt.page.lines[1:] == ("Guess 1: TX, wrong",)


def test_a_state_already_missed_on_this_card_is_ruled_out_as_a_right_guess() -> None:
    table = named(guessing(), "B", "TX").buttons("no")
    named(table, "B", "Texas")
    assert table.prompt == "B TX: rules say\nWRONG. Agree?"
    assert table.controller.prompt.page.lines[1] == (
        "The rules say: cannot be right: TX was already guessed wrong for this card: "
        "expected a different state"
    )
    table.buttons("yes")
    assert (table.last("action")["correct"], table.last("action")["state"]) == (False, "TX")


def test_the_dealer_overrules_the_rules_with_a_reason_on_the_record() -> None:
    table = named(named(guessing(), "B", "TX").buttons("no"), "B", "TX").buttons("no")
    assert [o.label for o in table.controller.prompt.options] == list(OVERRULE_REASONS)
    table.buttons("next", "yes")
    overrule = table.last("action")
    assert overrule == {
        "t": overrule["t"], "event": "action", "action": "state_iq.overrule", "team": "B",
        "state": "TX", "reason": "judge's ruling",
    }  # fmt: skip


def test_an_unknown_state_is_the_atlas_error_and_changes_nothing() -> None:
    table = named(guessing(), "B", "Kentuky")
    assert table.last("entry_refused")["reason"] == (
        "unknown state 'Kentuky': expected a state name or postal code; did you mean Kentucky?"
    )
    assert table.prompt == "B guess 1, clue A: right?"


def test_only_the_guessing_team_names_a_state() -> None:
    table = named(guessing(), "A", "TX")
    assert table.last("entry_refused")["reason"] == "seat A has no state to enter now"


def test_undo_takes_back_a_typed_state_before_the_dealer_answers() -> None:
    table = named(guessing(), "B", "TX").buttons("undo")
    assert table.prompt == "B guess 1, clue A: right?"


def test_level_3_takes_the_state_named_and_rules_out_the_teams_own_card() -> None:
    table = Table(game=2, format="combo3").buttons("next", "yes").count().buttons("yes")
    named(table, "B", "Ohio").buttons("yes")  # B names A's card on its first guess
    named(table, "A", "OH")
    assert table.prompt == "A OH: rules say\nWRONG. Agree?"
    assert "OH is Team A's own card" in table.controller.prompt.page.lines[1]


@pytest.mark.parametrize("reason", ["", " ", "x" * 81, "two\nlines"])
def test_an_overrule_reason_is_one_short_line(reason: str) -> None:
    state = StateIQState(first_team=Team.A, plunging=frozenset(), clue_order="ABC")
    with pytest.raises(InvalidInput, match=r"overrule reason .*: expected 1 to 80 characters"):
        StateIQ().apply(state, StateIQOverrule(Team.A, "TX", reason))


def _press(t: float, button: str) -> list[str]:
    return [
        json.dumps({"t": t, "press": f"console.{button}"}),
        json.dumps({"t": t + 0.1, "release": f"console.{button}"}),
    ]


SCRIPT = [
    '{"setup": {"game": 2}}',
    *_press(1, "next"),
    *_press(2, "yes"),
    *_press(3, "count"),
    *_press(10, "yes"),
    json.dumps({"t": 12, "entry": {"seat": "B", "name": "state", "value": "TX"}}),
    *_press(13, "no"),
    json.dumps({"t": 15, "entry": {"seat": "B", "name": "state", "value": "texas"}}),
    *_press(16, "no"),
    *_press(17, "yes"),
]


def test_a_named_guess_and_its_overrule_rebuild_from_the_journal(tmp_path: Path) -> None:
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
    assert isinstance(rebuilt.log[-1], StateIQOverrule)
