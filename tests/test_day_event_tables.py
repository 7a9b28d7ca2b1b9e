"""An event of a day is paired at the tables that play for it (issue 27, R1172): a match put
at a table of another event would be played by no table of its own."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.changes import pair_next_round
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.day_tables import at_event_tables
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction
from rules.tournament import TournamentFormat, new_config, pair_round
from tests.cli_helpers import assert_bad_input
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import NOW, TEAMS, error_line, log_in, origin
from tests.test_day_cli import day, ok, on_event  # noqa: F401  (the day fixture)
from tests.test_tournament_pentathlon_cli import PLAYERS_CSV

Capture = pytest.CaptureFixture[str]
JUNIOR, SENIOR = (slug for slug, _ in EVENTS)


def _tables(record: Path, number: int) -> tuple[int, ...]:
    with TournamentDB.open(record) as opened:
        (pairing,) = [p for p in opened.rounds() if p.round == number]
        return tuple(match.table for match in pairing.matches)


# --- gametable tournament pair --day DAY --event SLUG ---------------------------------------


def test_an_events_round_paired_by_command_is_at_the_tables_playing_for_it(
    capsys: Capture,
    day: Path,  # noqa: F811
) -> None:
    """combo3 plays at tables 4-6: its three matches are there, not at tables 1-3 (combo4's)."""
    ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"))
    assert _tables(day.parent / "combo3.db", 1) == (4, 5, 6)


def test_an_event_with_too_few_tables_is_refused_and_nothing_paired(
    capsys: Capture,
    day: Path,  # noqa: F811
) -> None:
    ok(capsys, "day", "assign", str(day), "6", "combo4", "--reason", "a table short")
    before = (day.parent / "combo3.db").read_bytes()
    assert_bad_input(
        capsys,
        "tournament", "pair", "--round", "1", *on_event(day, "combo3"),
        names="round 1 of combo3 has 3 matches but only tables 4-5 play for it: give it more "
        "tables first ('Move tables to an event' on the day page, or 'gametable day assign'); "
        "nothing paired",
    )  # fmt: skip
    assert (day.parent / "combo3.db").read_bytes() == before


def test_a_pentathlon_seat_of_a_days_event_is_refused_at_another_events_table(
    capsys: Capture,
    day: Path,  # noqa: F811
) -> None:
    """combo4 plays at tables 1-3, the Pentathlon at table 7."""
    (day.parent / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    record = str(day.parent / "penta.db")
    ok(capsys, "tournament", "pentathlon", "new", "--players", str(day.parent / "players.csv"),
       "--db", record)  # fmt: skip
    ok(capsys, "day", "event", str(day), "penta", "Pentathlon", "--record", record)
    ok(capsys, "day", "assign", str(day), "7", "penta", "--reason", "afternoon")
    before = (day.parent / "penta.db").read_bytes()
    assert_bad_input(
        capsys,
        "tournament", "pentathlon", "seat", "--round", "1", "--table", "2",
        "--game", "contig-60", "--a", "Ann Lee", "--b", "Ben Cho", *on_event(day, "penta"),
        names="table 2 does not play for penta: its tables are 7; give the table to the event "
        "first ('Move tables to an event' on the day page, or 'gametable day assign'): nothing "
        "seated",
    )  # fmt: skip
    assert (day.parent / "penta.db").read_bytes() == before


# --- the event's Pair button on the day's page ---------------------------------------------


def _finish_round_one(record: Path) -> None:
    with TournamentDB.open(record) as opened:
        for table in (1, 2):
            with opened.transaction() as tournament:
                opened.add_result(tournament.result(1, table, 40, 30), now=NOW, by="director")


async def _pair_round_two(client: TestClient[Any, Any]) -> tuple[int, str]:
    csrf = await log_in(client)
    form = {"csrf": csrf, "round": "2"}
    answer = await client.post(f"/events/{SENIOR}/pair", data=form, headers=origin(client))
    line = await error_line(answer) if answer.status != 200 else ""
    return answer.status, line


def test_an_events_round_paired_on_its_page_is_at_the_tables_playing_for_it(
    tmp_path: Path,
) -> None:
    """The senior event plays at tables 3 and 4 (the junior one at 1 and 2)."""
    path = make_day(tmp_path)
    _finish_round_one(tmp_path / f"{SENIOR}.sqlite")
    with opened_day(path) as pages:
        assert serve_day(pages, _pair_round_two) == (200, "")
    assert _tables(tmp_path / f"{SENIOR}.sqlite", 2) == (3, 4)


def test_an_event_with_too_few_tables_is_refused_on_its_page_in_words(tmp_path: Path) -> None:
    path = make_day(tmp_path)
    _finish_round_one(tmp_path / f"{SENIOR}.sqlite")
    with DayRecord.open(path) as record:
        record.assign([4], JUNIOR, now=NOW, by="director", reason="a table short")
    with opened_day(path) as pages:
        status, line = serve_day(pages, _pair_round_two)
    assert status == 409
    assert line.startswith(f"round 2 of {SENIOR} has 2 matches but only table 3 plays for it")
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        assert [p.round for p in senior.rounds()] == [1]


# --- the event's draw: a match moved to one of its own tables only ---------------------------


def _senior_round_two_with_a_spare(tmp_path: Path) -> Path:
    """The senior event's round 2 paired from its page at tables 3 and 4; table 5 its spare."""
    path = make_day(tmp_path)
    _finish_round_one(tmp_path / f"{SENIOR}.sqlite")
    with opened_day(path) as pages:
        assert serve_day(pages, _pair_round_two) == (200, "")
    with DayRecord.open(path) as record:
        record.assign([5], SENIOR, now=NOW, by="director", reason="a spare")
    return path


def _move(table: int, team: str) -> Callable[[TestClient[Any, Any]], Awaitable[tuple[int, str]]]:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "team": team, "table": str(table), "reason": "a wobbly table"}
        address = f"/events/{SENIOR}/draw/round/2/move"
        answer = await client.post(address, data=form, headers=origin(client))
        return answer.status, await error_line(answer) if answer.status != 200 else ""

    return scenario


def _first_team(tmp_path: Path) -> str:
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        return senior.rounds()[-1].matches[0].a


def test_a_match_is_not_moved_to_a_table_of_another_event(tmp_path: Path) -> None:
    path = _senior_round_two_with_a_spare(tmp_path)
    with opened_day(path) as pages:
        status, line = serve_day(pages, _move(1, _first_team(tmp_path)))
    assert status == 409
    assert line == (
        f"table 1 does not play for {SENIOR}: its tables are 3-5; give the table to the event "
        "first (&#x27;Move tables to an event&#x27; on the day page, or &#x27;gametable day "
        "assign&#x27;): nothing moved"
    )
    assert _tables(tmp_path / f"{SENIOR}.sqlite", 2) == (3, 4)


def test_a_match_is_moved_to_a_spare_table_of_its_event(tmp_path: Path) -> None:
    path = _senior_round_two_with_a_spare(tmp_path)
    with opened_day(path) as pages:
        assert serve_day(pages, _move(5, _first_team(tmp_path))) == (200, "")
    assert _tables(tmp_path / f"{SENIOR}.sqlite", 2) == (4, 5)


def test_an_events_draw_offers_its_own_spare_tables_only(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{SENIOR}/draw/round/2")).text()

    path = _senior_round_two_with_a_spare(tmp_path)
    with opened_day(path) as pages:
        html = serve_day(pages, scenario)
    offered = re.findall(r'<option value="(\d+)">table \d+</option>', html)
    assert offered == ["5"]


# --- a round of one match said in the singular (R1183) ----------------------------------------


def test_an_event_of_one_match_without_tables_is_refused_in_the_singular() -> None:
    # a two-team event before its table is assigned: "has 1 match", not "1 matches"
    with pytest.raises(IllegalAction, match=r"round 1 of senior has 1 match but no table plays"):
        at_event_tables(pair_round(1, ("Eagles", "Hawks"), seed=1), (), "senior")


def test_a_round_of_one_match_paired_on_the_page_says_one_match(tmp_path: Path) -> None:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with TournamentDB.create(
        tmp_path / "t.db", config, TEAMS[:2], now=NOW, by="director"
    ) as record:
        assert pair_next_round(record, now=NOW) == "round 1 paired: 1 match"
