"""Rooms on the page (R1112, R1113): the public page, a round's printed sheets and wall
pairings and a single result sheet say "Ballroom B, table 2" where they said "table 2"; a room's
own projector shows its tables' pairings alone; an unknown room is one line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import NOW, director_page, error_line, log_in, make_record, serve

Client = TestClient[Any, Any]


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Round 1 paired at tables 1 and 2; table 2 in Ballroom B, table 1 in no room."""
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        opened.add_room("Ballroom B", [2, 3], building="", now=NOW, by="director")
        yield opened


@pytest.fixture
def page(record: TournamentDB) -> DirectorPage:
    return director_page(record)


def _get(page: DirectorPage, path: str, *, staff: bool = False) -> tuple[int, str]:
    async def scenario(client: Client) -> tuple[int, str]:
        if staff:
            await log_in(client)
        answer = await client.get(path)
        return answer.status, await answer.text()

    return serve(page, scenario)


def _team_at(record: TournamentDB, table: int) -> str:
    match = next(m for m in record.rounds()[-1].matches if m.table == table)
    return match.a


def test_the_public_answer_names_the_room_of_the_teams_table(
    page: DirectorPage, record: TournamentDB
) -> None:
    _, html = _get(page, f"/public?q={_team_at(record, 2)}")
    assert "<strong>Ballroom B, table 2</strong> · against" in html
    assert "<dt>Table</dt><dd>Ballroom B, table 2</dd>" in html


def test_a_table_in_no_room_is_named_as_before_on_the_public_page(
    page: DirectorPage, record: TournamentDB
) -> None:
    _, html = _get(page, f"/public?q={_team_at(record, 1)}")
    assert "<strong>Table 1</strong> · against" in html
    assert "<dt>Table</dt><dd>1</dd>" in html


def test_the_public_pairings_have_a_room_column_once_there_are_rooms(
    page: DirectorPage,
) -> None:
    _, html = _get(page, "/public")
    assert '<th scope="col">room</th><th scope="col">table</th>' in html
    assert "<tr><td>Ballroom B</td><td>2</td>" in html
    assert "<tr><td></td><td>1</td>" in html


def test_the_pairings_have_no_room_column_while_there_are_no_rooms(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "plain.db")) as plain:
        _, html = _get(director_page(plain), "/public")
    assert '<th scope="col">room</th>' not in html


def test_each_printed_result_sheet_names_its_room(page: DirectorPage) -> None:
    _, html = _get(page, "/print/round/1/sheets", staff=True)
    assert "Result sheet · round 1, Ballroom B, table 2</h2>" in html
    assert "Result sheet · round 1, table 1</h2>" in html
    assert "Round 1, Ballroom B, table 2: " in html  # the line the signatures are for


def test_a_single_result_sheet_names_its_room(page: DirectorPage) -> None:
    _, html = _get(page, "/sheet/1/2", staff=True)
    assert "Result sheet · round 1, Ballroom B, table 2" in html
    assert "<dt>Table</dt><dd>Ballroom B, table 2</dd>" in html


def test_the_wall_pairings_name_each_teams_room_and_table(
    page: DirectorPage, record: TournamentDB
) -> None:
    _, html = _get(page, "/print/round/1/pairings", staff=True)
    team = _team_at(record, 2)
    assert f"<li><span>{team}</span><span>Ballroom B, table 2 (A)</span></li>" in html
    assert f"<li><span>{_team_at(record, 1)}</span><span>table 1 (A)</span></li>" in html
    assert '<th scope="col">room</th><th scope="col">table</th>' in html
    assert "<tr><td>Ballroom B</td><td>2</td>" in html
    assert '<table class="wall-tables rooms">' in html  # its columns styled one on


def test_a_rooms_projector_shows_its_tables_pairings_alone(page: DirectorPage) -> None:
    status, html = _get(page, "/projector?room=ballroom%20b")
    assert status == 200
    assert re.findall(r'<span class="n">(\d+)</span>', html) == ["2"]
    assert "Round 1 of 3 · All: games 1 to 5 in turn · Ballroom B" in html


def test_a_rooms_projector_sends_the_screen_on_within_the_room(page: DirectorPage) -> None:
    _, html = _get(page, "/projector?room=Ballroom%20B")
    assert 'content="15;url=/projector?page=2&amp;room=Ballroom%20B"' in html


def test_the_halls_projector_still_shows_every_table(page: DirectorPage) -> None:
    _, html = _get(page, "/projector")
    assert re.findall(r'<span class="n">(\d+)</span>', html)[:2] == ["1", "2"]


def test_an_unknown_room_on_the_projector_is_one_line_naming_the_rooms(
    page: DirectorPage,
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get("/projector?room=Attic")
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 404
    assert (
        line
        == "no room named &#x27;Attic&#x27;: expected one of the rooms (&#x27;Ballroom B&#x27;)"
    )
