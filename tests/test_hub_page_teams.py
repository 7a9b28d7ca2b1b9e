"""Editing a team on the page (issue 27, R1067): a director edits a team's name, school or
players with a reason; the page lists the edit with its old values, who and why; the sheets
show the team as edited; results staff may not."""

from __future__ import annotations

from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.staff import Role
from firmware_py.director.record.teams import team_edits
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import (
    add_staff,
    csrf_of,
    director_page,
    log_in,
    make_record,
    origin,
    serve,
)

Client = TestClient[Any, Any]


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def _edit(**changes: str) -> dict[str, str]:
    return {"team": "Eagles", "name": "Eagles", "school": "Lincoln", "players": "Ann;Bo"} | changes


def test_a_director_edits_a_teams_players_and_the_page_lists_the_edit(
    record: TournamentDB,
) -> None:
    async def scenario(client: Client) -> list[str]:
        await log_in(client)
        form = await (await client.get("/teams?team=eagles")).text()
        data = _edit(csrf=csrf_of(form), players="Ann;Zoe", reason="Bo is ill")
        edited = await client.post("/teams/edit", data=data, headers=origin(client))
        sheet = await client.get("/sheet/1/2")
        return [unescape(await edited.text()), await sheet.text()]

    page, sheet = serve(director_page(record), scenario)
    assert "Eagles edited: players 'Ann; Bo' to 'Ann; Zoe'" in page
    assert "<td>director</td><td>Eagles</td><td>players 'Ann; Bo' to 'Ann; Zoe'</td>" in page
    assert "Zoe" in sheet
    assert team_edits(record)[0].reason == "Bo is ill"


def test_a_rename_to_another_teams_name_is_refused_in_words(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        data = _edit(csrf=csrf, name="OWLS", reason="typo")
        answer = await client.post("/teams/edit", data=data, headers=origin(client))
        return answer.status, unescape(await answer.text())

    status, html = serve(director_page(record), scenario)
    assert status == 409
    assert "team 'Eagles': duplicate team name 'OWLS' (already in the field)" in html
    assert team_edits(record) == ()


def test_results_staff_may_not_edit_a_team(record: TournamentDB) -> None:
    add_staff(record, "desk", Role.RESULTS, "the desk's password")

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, "the desk's password", "desk")
        data = _edit(csrf=csrf, name="X", reason="x")
        answer = await client.post("/teams/edit", data=data, headers=origin(client))
        return answer.status, unescape(await answer.text())

    status, html = serve(director_page(record), scenario)
    assert status == 403
    assert "editing a team needs a director's account: desk is results staff" in html
