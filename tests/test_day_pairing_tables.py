"""An event of a day is paired at the tables the day gives it (issue 27, R1126): two events
never share a table in a round, so each table's decisions reach one event's match."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction
from rules.tournament import Entrant, TournamentFormat, new_config
from rules.tournament.records import Match, RoundPairing, at_tables
from tests.day_page_helpers import opened_day, serve_day
from tests.hub_page_helpers import NOW, PASSWORD, log_in, origin
from tests.test_hub_delivery import GAMETABLE

TEAMS = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls", "Ravens"))


def test_a_rounds_matches_go_to_the_tables_given_lowest_first() -> None:
    pairing = RoundPairing(1, (Match(1, "A", "B"), Match(2, "C", "D")), "E")
    placed = at_tables(pairing, (14, 9, 30))
    assert placed.matches == (Match(9, "A", "B"), Match(14, "C", "D"))
    assert placed.bye == "E"


def test_too_few_tables_for_a_round_is_refused_naming_what_it_needs() -> None:
    pairing = RoundPairing(2, (Match(1, "A", "B"), Match(2, "C", "D")))
    with pytest.raises(IllegalAction, match=r"round 2 needs 2 tables and the event has 1 \(7\)"):
        at_tables(pairing, (7,))


def _day(folder: Path, *, assign: bool = True, events: int = 2) -> Path:
    """A day of ``events`` Combo 4 events of four teams, nothing paired; tables 1-2 play for
    the first, 5 and 9 for the second (when ``assign``)."""
    path = folder / "day.sqlite"
    with DayRecord.create(path, name="League", time_zone="UTC", now=NOW, by="d") as day:
        for slug in ("junior", "senior")[:events]:
            record = folder / f"{slug}.db"
            config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
            TournamentDB.create(record, config, TEAMS, now=NOW, by="d").close()
            day.add_event(slug, slug.title(), record, now=NOW, by="d")
        if assign:
            day.assign((1, 2), "junior", now=NOW, by="d", reason="room A")
            if events > 1:
                day.assign((5, 9), "senior", now=NOW, by="d", reason="room B")
    store_password(path, PASSWORD)
    return path


def _tables(record: Path, round_number: int = 1) -> list[int]:
    with TournamentDB.open(record) as opened:
        (paired,) = [r for r in opened.rounds() if r.round == round_number]
        return [match.table for match in paired.matches]


def _pair(folder: Path, event: str) -> subprocess.CompletedProcess[str]:
    command = ("tournament", "pair", "--round", "1", "--day", "day.sqlite", "--event", event)
    return subprocess.run(
        [str(GAMETABLE), *command],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_pairs_an_event_at_its_tables(tmp_path: Path) -> None:
    _day(tmp_path)
    done = _pair(tmp_path, "senior")
    assert done.returncode == 0, done.stderr
    assert _tables(tmp_path / "senior.db") == [5, 9]


def test_an_event_without_enough_tables_is_refused_and_nothing_paired(tmp_path: Path) -> None:
    _day(tmp_path)
    with DayRecord.open(tmp_path / "day.sqlite") as day:
        day.assign((9,), "junior", now=NOW, by="d", reason="borrowed")
    done = _pair(tmp_path, "senior")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "gametable: error: round 1 of senior needs 2 tables; senior has 1 table in day.sqlite "
        "(table 5): assign more with 'gametable day assign day.sqlite TABLES "
        "senior --reason TEXT'"
    )
    with TournamentDB.open(tmp_path / "senior.db") as opened:
        assert opened.rounds() == ()


def test_a_day_of_one_event_with_no_tables_given_numbers_them_from_1(tmp_path: Path) -> None:
    _day(tmp_path, assign=False, events=1)
    assert _pair(tmp_path, "junior").returncode == 0
    assert _tables(tmp_path / "junior.db") == [1, 2]


def test_the_days_page_pairs_an_event_at_its_tables(tmp_path: Path) -> None:
    path = _day(tmp_path)

    async def scenario(client: TestClient[Any, Any]) -> int:
        csrf = await log_in(client)
        answer = await client.post(
            "/events/senior/pair", data={"csrf": csrf}, headers=origin(client)
        )
        return answer.status

    with opened_day(path) as pages:
        assert serve_day(pages, scenario) == 200
    assert _tables(tmp_path / "senior.db") == [5, 9]
