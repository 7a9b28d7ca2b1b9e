"""Border-Up's showing typed on the table's web page: the rules core checks the groups, the
dealer agrees (the showing is recorded with its groups) or overrules with a reason (R478)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.families.geoplunge.flows.border_up import OVERRULE_REASONS, read_groups
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable, parse_script
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from rules.actions import encode
from rules.errors import InvalidInput
from rules.geoplunge.games.border_up import BorderUpRules, BorderUpState, Overrule
from rules.geoplunge.teams import Team
from tests.test_table import Table, _race

VALID = "KS,MO,KY,WV,PA / MD,VA,NC"  # the rulebook's example, 5 + 3
BROKEN = "KS,MO,KY,WV,PA / MD,VA,TX"  # Texas borders neither Maryland nor Virginia


def shouted_a(**settings: object) -> Table:
    """Game 1 on its own: nobody plunges, A shouts alone, no ThreeOPlunge."""
    return _race(Table(game=1, **settings)).press("A.shout").at(40.0).buttons("no")


def typed(table: Table, seat: str, text: str) -> Table:
    table.t += 1.0
    table.virtual.enter(Entry(seat, "groups", text), table.t)
    return table


def test_the_shouting_team_may_type_its_groups_for_the_rules_to_check() -> None:
    table = shouted_a()
    entry = table.controller.prompt.entry
    assert table.prompt == "Team A: groups valid?"
    assert entry is not None and (entry.name, entry.seats) == ("groups", ("A",))
    typed(table, "A", VALID)
    assert table.prompt == "Team A: rules say\nVALID. Agree?"
    assert table.controller.prompt.page.lines[:2] == (
        "Team A shows: KS, MO, KY, WV, PA / MD, VA, NC",
        "The rules say: valid",
    )


def test_the_dealer_agreeing_records_the_showing_with_its_groups() -> None:
    table = typed(shouted_a(), "A", VALID).buttons("yes")
    show = table.last("action")
    assert (show["action"], show["groups"]) == (
        "border_up.show",
        [["KS", "MO", "KY", "WV", "PA"], ["MD", "VA", "NC"]],
    )
    assert table.last("game_result")["winner"] == "A"


def test_the_rules_find_a_broken_group_and_say_why() -> None:
    table = typed(shouted_a(), "A", BROKEN)
    assert table.prompt == "Team A: rules say\nNOT VALID. Agree?"
    assert any("TX" in line for line in table.controller.prompt.page.lines[2:])
    table.buttons("yes")
    result = table.last("game_result")
    assert (result["winner"], result["bonus"]) == ("B", True)  # A shouted without valid groups


def test_the_dealer_overrules_the_rules_with_a_reason_on_the_record() -> None:
    table = typed(shouted_a(), "A", BROKEN).buttons("no")
    assert [o.label for o in table.controller.prompt.options] == ["typed wrong", "judge's ruling"]
    table.buttons("next", "yes")  # a judge, shown the cards, ruled them valid
    overrule = table.last("action")
    assert overrule == {
        "t": overrule["t"], "event": "action", "action": "border_up.overrule", "team": "A",
        "valid": True, "reason": "judge's ruling",
    }  # fmt: skip
    assert table.last("game_result")["winner"] == "A"


def test_a_valid_check_may_be_overruled_for_a_card_not_in_the_teams_hand() -> None:
    table = typed(shouted_a(), "A", VALID).buttons("no")
    assert table.prompt == "Overrule: Team A\nNOT VALID. Why?"
    assert [o.label for o in table.controller.prompt.options] == list(OVERRULE_REASONS[True])


def test_undo_takes_back_a_typed_showing_before_the_dealer_answers() -> None:
    table = typed(shouted_a(), "A", BROKEN).buttons("undo")
    assert table.prompt == "Team A: groups valid?"
    assert table.last("undo")["what"] == "answer"


def test_an_unknown_state_is_the_rules_error_and_changes_nothing() -> None:
    table = typed(shouted_a(), "A", "KS,MO,KY,WV,Pensylvania / MD,VA,NC")
    refused = table.last("entry_refused")
    assert "Pensylvania" in refused["reason"]
    assert table.prompt == "Team A: groups valid?"


def test_only_the_team_that_shouted_types_groups() -> None:
    table = typed(shouted_a(), "B", VALID)
    assert table.last("entry_refused")["reason"] == "seat B has no groups to enter now"


@pytest.mark.parametrize("text", ["KS,,MO / MD", "KS,MO /", " / "])
def test_an_empty_state_or_group_is_one_line_naming_the_form(text: str) -> None:
    with pytest.raises(InvalidInput, match="expected states split by commas and groups split by /"):
        read_groups(text)


def test_groups_may_be_split_by_slashes_semicolons_or_bars() -> None:
    assert read_groups("KS, MO; MD,VA | NC") == [["KS", "MO"], ["MD", "VA"], ["NC"]]


@pytest.mark.parametrize("reason", ["", " ", "x" * 81, "two\nlines"])
def test_an_overrule_reason_is_one_short_line(reason: str) -> None:
    state = BorderUpState(plunging=frozenset(), shouters=frozenset({Team.A}))
    with pytest.raises(InvalidInput, match=r"overrule reason .*: expected 1 to 80 characters"):
        BorderUpRules().apply(state, Overrule(Team.A, True, reason))


SCRIPT = [
    '{"setup": {"game": 1}}',
    '{"t": 1, "press": "console.count"}',
    '{"t": 1.1, "release": "console.count"}',
    '{"t": 8, "press": "console.go"}',
    '{"t": 8.1, "release": "console.go"}',
    '{"t": 10, "press": "A.shout"}',
    '{"t": 10.1, "release": "A.shout"}',
    '{"t": 12, "press": "console.no"}',
    '{"t": 12.1, "release": "console.no"}',
    json.dumps({"t": 20, "entry": {"seat": "A", "name": "groups", "value": BROKEN}}),
    '{"t": 25, "press": "console.no"}',
    '{"t": 25.1, "release": "console.no"}',
    '{"t": 26, "press": "console.yes"}',
    '{"t": 26.1, "release": "console.yes"}',
]


def test_a_typed_showing_and_its_overrule_rebuild_from_the_journal(tmp_path: Path) -> None:
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
    assert encode(rebuilt.log[-1])["action"] == "border_up.overrule"
