"""Editing a round's draw before it starts (issue 27, R1064-R1066): a swap of two teams, the
rematch and same-school warnings, the record's who/why, and the refusals in words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.record.draw import draw_changes, plan_swap, swap_in_draw
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Entrant, Match, RoundPairing
from rules.tournament.draw_edit import draw_warnings, pairing_stamp, swap_teams
from tests.hub_page_helpers import NOW, make_record
from tests.test_tournament_cli import main

ROUND = RoundPairing(2, (Match(1, "Eagles", "Hawks"), Match(2, "Owls", "Ravens")), "Kites")
LATER = "2026-05-09T09:30:00+00:00"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Round 1 paired: Hawks v Owls at table 1, Eagles v Ravens at table 2 (no result)."""
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def test_a_swap_gives_each_team_the_others_table_and_side() -> None:
    assert swap_teams(ROUND, "eagles", "Ravens").matches == (
        Match(1, "Ravens", "Hawks"),
        Match(2, "Owls", "Eagles"),
    )


def test_a_swap_with_the_bye_gives_the_bye_to_the_other_team() -> None:
    swapped = swap_teams(ROUND, "Kites", "Owls")
    assert swapped.bye == "Owls"
    assert swapped.matches[1] == Match(2, "Kites", "Ravens")


def test_two_teams_of_one_table_are_not_swapped() -> None:
    with pytest.raises(InvalidInput, match="both play at table 1: expected teams at two tables"):
        swap_teams(ROUND, "Eagles", "Hawks")


def test_a_team_not_in_the_round_is_named() -> None:
    with pytest.raises(InvalidInput, match="round 2: unknown team 'Crows': expected one of"):
        swap_teams(ROUND, "Crows", "Hawks")


def test_a_swap_that_makes_a_rematch_is_warned() -> None:
    earlier = (RoundPairing(1, (Match(1, "Ravens", "Hawks"), Match(2, "Owls", "Eagles"))),)
    after = swap_teams(ROUND, "Eagles", "Ravens")
    assert draw_warnings(after, ROUND, earlier, ()) == (
        "table 1: Ravens and Hawks met in round 1 (a rematch)",
        "table 2: Owls and Eagles met in round 1 (a rematch)",
    )


def test_a_swap_that_makes_a_same_school_pair_is_warned_and_one_it_kept_is_not() -> None:
    schools = (Entrant("Eagles", "Lincoln"), Entrant("Owls", "Lincoln"), Entrant("Hawks", ""))
    before = RoundPairing(1, (Match(1, "Eagles", "Owls"), Match(2, "Hawks", "Ravens")))
    assert draw_warnings(before, before, (), schools) == ()
    after = swap_teams(before, "Eagles", "Hawks")
    assert draw_warnings(after, before, (), schools) == ()
    back = swap_teams(after, "Hawks", "Eagles")
    assert draw_warnings(back, after, (), schools) == (
        "table 1: Eagles and Owls are of one school",
    )


def test_the_swap_is_stored_with_who_when_and_why(record: TournamentDB) -> None:
    swap_in_draw(record, 1, "Hawks", "Ravens", reason="table 1's buzzers", now=LATER, by="amy")
    assert record.rounds()[0].matches == (Match(1, "Ravens", "Owls"), Match(2, "Eagles", "Hawks"))
    (change,) = draw_changes(record, 1)
    assert (change.changed_by, change.changed_at, change.reason) == (
        "amy",
        LATER,
        "table 1's buzzers",
    )
    assert change.change == "Hawks and Ravens swapped (tables 1 and 2)"
    assert record.withdrawn_rounds()[-1].pairing.matches == (
        Match(1, "Hawks", "Owls"),
        Match(2, "Eagles", "Ravens"),
    )


def test_a_warned_swap_is_refused_until_confirmed(record: TournamentDB) -> None:
    with pytest.raises(IllegalAction, match="Eagles and Owls are of one school: confirm to swap"):
        swap_in_draw(record, 1, "Eagles", "Hawks", reason="why", now=LATER, by="amy")
    assert draw_changes(record, 1) == ()
    swap_in_draw(record, 1, "Eagles", "Hawks", reason="why", now=LATER, by="amy", confirmed=True)
    assert draw_changes(record, 1)[0].warnings == ("table 1: Eagles and Owls are of one school",)


def test_the_draw_cannot_change_once_a_result_is_in(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 2, 40, 30), now=NOW, by="director")
    with pytest.raises(
        IllegalAction,
        match=r"round 1's draw cannot change: the round has started, a result is in \(table 2\)",
    ):
        swap_in_draw(record, 1, "Hawks", "Ravens", reason="why", now=LATER, by="amy")


def test_a_swap_made_from_a_draw_changed_since_swaps_nothing(record: TournamentDB) -> None:
    seen = plan_swap(record, 1, "Hawks", "Ravens").stamp
    swap_in_draw(record, 1, "Owls", "Eagles", reason="one", now=LATER, by="amy", confirmed=True)
    with pytest.raises(
        IllegalAction, match="round 1's draw has changed since this page was loaded"
    ):
        swap_in_draw(record, 1, "Hawks", "Ravens", reason="two", now=LATER, by="amy", expected=seen)
    assert len(draw_changes(record, 1)) == 1
    assert pairing_stamp(record.rounds()[0]) != seen


def test_a_swap_needs_a_reason(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="with an empty reason: expected why"):
        swap_in_draw(record, 1, "Hawks", "Ravens", reason="  ", now=LATER, by="amy")


def test_an_undone_and_paired_again_round_shows_no_earlier_change(record: TournamentDB) -> None:
    swap_in_draw(record, 1, "Hawks", "Ravens", reason="one", now=LATER, by="amy")
    record.unpair_round(1, now=LATER, by="amy", reason="start again")
    with record.transaction() as tournament:
        record.add_round(tournament.pair(1), tournament.plan(1), now=LATER, by="amy")
    assert draw_changes(record, 1) == ()


# --- gametable tournament swap ------------------------------------------------------------------


def test_the_swap_command_swaps_and_says_what_it_did(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--round", "1", "--teams", "hawks", "ravens", "--reason", "buzzer", "--by", "amy"]
    assert main(["tournament", "swap", *args, "--db", str(record.path)]) == 0
    assert capsys.readouterr().out == "round 1: Hawks and Ravens swapped (tables 1 and 2)\n"
    assert draw_changes(record, 1)[0].changed_by == "amy"


def test_a_warned_swap_command_does_what_its_line_says_run_again_with_confirm(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["tournament", "swap", "--round", "1", "--teams", "Eagles", "Hawks"]
    command += ["--reason", "seen late", "--db", str(record.path)]
    assert main(command) == 2
    said = capsys.readouterr().err.strip()
    assert said.endswith(
        "table 1: Eagles and Owls are of one school: nothing swapped; run again with "
        "--confirm to swap anyway"
    )
    assert len(said.splitlines()) == 1
    assert draw_changes(record, 1) == ()
    assert main([*command, "--confirm"]) == 0
    assert len(draw_changes(record, 1)) == 1


def test_a_swap_command_with_a_bad_round_is_one_line(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["tournament", "swap", "--round", "two", "--teams", "Eagles", "Hawks"]
    assert main([*command, "--reason", "x", "--db", str(record.path)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1
    assert "--round" in said[0] and "two" in said[0]


def test_a_swap_command_without_a_reason_is_refused_before_any_warning(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["tournament", "swap", "--round", "1", "--teams", "Eagles", "Hawks"]
    assert main([*command, "--reason", " ", "--db", str(record.path)]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("changing round 1's draw with an empty reason: expected why")
    )
