"""A round of one event of a day is paired at the tables playing for the event (issue 27, R1165),
from its page and from `gametable tournament pair --day --event`; too few tables is refused in
words and nothing is paired."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction
from rules.tournament import Match, RoundPairing
from rules.tournament.event_tables import placed_at_tables
from tests.cli_helpers import assert_bad_input
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import NOW, error_line, log_in, origin
from tests.test_day_cli import Capture, day, ok, on_event, snapshot

__all__ = ["day"]  # the CLI's day of two events, a fixture

JUNIOR, SENIOR = (slug for slug, _ in EVENTS)
ROUND_2 = RoundPairing(2, (Match(1, "Eagles", "Hawks"), Match(2, "Owls", "Ravens")), "Larks")


def test_a_round_is_placed_at_the_events_tables_lowest_first_in_its_order() -> None:
    placed = placed_at_tables(ROUND_2, {41, 17, 30}, "senior")
    assert placed == RoundPairing(
        2, (Match(17, "Eagles", "Hawks"), Match(30, "Owls", "Ravens")), "Larks"
    )


def test_too_few_tables_playing_for_the_event_is_refused_naming_them_and_what_to_do() -> None:
    with pytest.raises(IllegalAction) as refused:
        placed_at_tables(ROUND_2, {17}, "senior")
    assert str(refused.value) == (
        "round 2 needs 2 tables and only table 17 plays for senior: give it 1 more on the day "
        "page (or 'gametable day assign'), then pair again"
    )


def test_an_event_with_no_table_is_refused_saying_so() -> None:
    with pytest.raises(IllegalAction, match="round 2 needs 2 tables and no table plays for senior"):
        placed_at_tables(ROUND_2, (), "senior")


# --- the command --------------------------------------------------------------------------


def paired_tables(record: Path, number: int) -> tuple[int, ...]:
    with TournamentDB.open(record) as opened:
        return opened.paired_tables(number)


def test_the_command_pairs_an_events_round_at_the_tables_playing_for_it(
    capsys: Capture, day: Path
) -> None:
    shown = ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"))
    assert [match["table"] for match in shown["pairings"]] == [4, 5, 6]
    assert paired_tables(day.parent / "combo3.db", 1) == (4, 5, 6)


def test_the_command_refuses_a_round_with_too_few_tables_and_pairs_nothing(
    capsys: Capture, day: Path
) -> None:
    ok(capsys, "day", "assign", str(day), "3", "combo3", "--reason", "Combo 3 grew")
    before = snapshot(day)
    assert_bad_input(
        capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo4"),
        names="round 1 needs 3 tables and only 2 play for combo4 (tables 1-2): give it 1 more",
    )  # fmt: skip
    assert snapshot(day) == before


# --- the page -----------------------------------------------------------------------------


def _round_one_played(day_path: Path, slug: str) -> Path:
    path = day_path.parent / f"{slug}.sqlite"
    with TournamentDB.open(path) as record, record.transaction() as tournament:
        for match in tournament.rounds[0].matches:
            entry = tournament.result(1, match.table, 40, 30)
            record.add_result(entry, now=NOW, by="director")
    return path


async def _pair_round_2(client: TestClient[Any, Any]) -> tuple[int, str]:
    csrf = await log_in(client)
    form = {"csrf": csrf, "round": "2"}
    answer = await client.post(f"/events/{SENIOR}/pair", data=form, headers=origin(client))
    line = await error_line(answer) if answer.status != 200 else ""
    return answer.status, line


def test_an_events_page_pairs_its_round_at_the_tables_playing_for_it(tmp_path: Path) -> None:
    day_path = make_day(tmp_path)  # the senior event's tables: 3 and 4
    senior = _round_one_played(day_path, SENIOR)
    with opened_day(day_path) as pages:
        status, _ = serve_day(pages, _pair_round_2)
    assert status == 200
    assert paired_tables(senior, 2) == (3, 4)


def test_an_events_page_refuses_a_round_with_too_few_tables_in_words(tmp_path: Path) -> None:
    day_path = make_day(tmp_path)
    senior = _round_one_played(day_path, SENIOR)
    with DayRecord.open(day_path) as opened:
        opened.assign([4], JUNIOR, now=NOW, by="director", reason="the junior room grew")
    with opened_day(day_path) as pages:
        status, line = serve_day(pages, _pair_round_2)
    assert status == 409
    assert line == (
        f"round 2 needs 2 tables and only table 3 plays for {SENIOR}: give it 1 more on the day "
        "page (or &#x27;gametable day assign&#x27;), then pair again"
    )
    assert paired_tables(senior, 2) == ()


def test_the_tables_playing_for_an_event_are_those_whose_newest_assignment_is_its(
    tmp_path: Path,
) -> None:
    day_path = make_day(tmp_path)  # junior: tables 1-2, senior: 3-4
    with DayRecord.open(day_path) as opened:
        opened.assign([2], SENIOR, now=NOW, by="director", reason="the senior room grew")
        assert opened.tables_playing_for(JUNIOR) == (1,)
        assert opened.tables_playing_for(SENIOR) == (2, 3, 4)
