"""A team or its players edited (issue 27, R1067): name, school or players, with a reason; the
old values kept with who and when; every reader (the rounds, the standings, the sheets, another
connection such as the running hub's) reads the team as it stands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.page.views import sheet_body
from firmware_py.director.record.export import record_json
from firmware_py.director.record.teams import edit_team, prepare_team_edits, team_edits
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput
from rules.tournament import Entrant
from tests.hub_page_helpers import NOW, make_record
from tests.test_tournament_cli import main

LATER = "2026-05-09T10:00:00+00:00"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Round 1 paired: Hawks v Owls at table 1, Eagles v Ravens at table 2."""
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def _rename(record: TournamentDB) -> None:
    edit_team(record, "eagles", name="Lincoln Eagles", reason="their name", now=LATER, by="amy")


def test_a_renamed_team_is_read_by_its_new_name_everywhere(record: TournamentDB) -> None:
    _rename(record)
    assert record.entrants()[0] == Entrant("Lincoln Eagles", "Lincoln", ("Ann", "Bo"))
    assert "Lincoln Eagles" in record.rounds()[0].teams
    assert "Lincoln Eagles" in [row.team for row in record.load().standings()]


def test_a_result_is_entered_for_a_renamed_teams_match(record: TournamentDB) -> None:
    _rename(record)
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 2, 40, 30), now=LATER, by="director")
    assert record.results()[0].a == "Lincoln Eagles"


def test_the_edit_keeps_the_old_values_who_when_and_why(record: TournamentDB) -> None:
    _rename(record)
    edit_team(record, "Lincoln Eagles", players="Ann;Bo;Cy", reason="Cy came", now=LATER, by="amy")
    first, second = team_edits(record)
    assert (first.before.name, first.after.name, first.edited_by) == (
        "Eagles",
        "Lincoln Eagles",
        "amy",
    )
    assert second.change == "players 'Ann; Bo' to 'Ann; Bo; Cy'"
    assert record_json(record)["team_edits"][1]["before"]["players"] == ["Ann", "Bo"]


def test_the_result_sheet_shows_the_team_as_edited(record: TournamentDB) -> None:
    edit_team(record, "Eagles", players="Ann;Zoe", reason="Bo is ill", now=LATER, by="amy")
    sheet = sheet_body(record, record.load(), 1, 2, printed_at=LATER)
    assert "Zoe" in sheet
    assert "Bo" not in sheet


def test_another_connection_reads_an_edit_made_while_it_was_open(tmp_path: Path) -> None:
    path = make_record(tmp_path / "t.db")
    with TournamentDB.open(path) as hub, TournamentDB.open(path) as command:
        prepare_team_edits(hub)  # as the hub does when it starts
        edit_team(command, "Owls", name="Night Owls", reason="x", now=LATER, by="amy")
        assert "Night Owls" in hub.rounds()[0].teams


def test_an_edit_taking_another_teams_name_or_player_is_refused(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="duplicate team name 'owls' \\(already in the field\\)"):
        edit_team(record, "Hawks", name="owls", reason="x", now=LATER, by="amy")
    with pytest.raises(InvalidInput, match="player 'Ann' is already on team 'Eagles'"):
        edit_team(record, "Hawks", school="Lincoln", players="Ann", reason="x", now=NOW, by="a")
    assert team_edits(record) == ()


def test_an_edit_needs_a_reason_and_a_change(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="with an empty reason: expected why"):
        edit_team(record, "Hawks", name="Falcons", reason=" ", now=LATER, by="amy")
    with pytest.raises(InvalidInput, match="nothing to change"):
        edit_team(record, "Hawks", school="Adams", reason="x", now=LATER, by="amy")


def test_the_team_edit_command_says_what_changed(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["tournament", "team", "edit", "--team", "ravens", "--school", "Polk"]
    assert main([*command, "--reason", "missed", "--db", str(record.path)]) == 0
    assert capsys.readouterr().out == "team 'Ravens' edited: school '' to 'Polk'\n"


def test_the_team_edit_command_without_a_change_is_one_line(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["tournament", "team", "edit", "--team", "ravens", "--reason", "x"]
    assert main([*command, "--db", str(record.path)]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("editing team 'ravens': expected --name, --school or --players (what changes)")
    )
