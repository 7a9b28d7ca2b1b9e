"""Moving a match to a free table on the page (issue 27, R1068): a director picks a match of the
latest round and a free table of the tournament, with a reason; the tables are told; the change
is shown on the round's sheets, its pairings and the record of both tables; every refusal is
the draw's page again with one line (table in use, no such table, the same table, the round
started, a stale form, a table that is no number)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.staff import Role
from firmware_py.director.record.draw import draw_changes
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Match
from tests.hub_page_helpers import (
    NOW,
    add_staff,
    director_page,
    log_in,
    make_record,
    origin,
    serve,
)

Client = TestClient[Any, Any]
# round 1 of the helpers' record: Hawks v Owls at table 1, Eagles v Ravens at table 2; the
# fixture's room holds tables 1-4, so 3 and 4 are free


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        opened.add_room("Ballroom B", (1, 2, 3, 4), building="", now=NOW, by="director")
        yield opened


def _page(record: TournamentDB, told: list[int] | None = None) -> DirectorPage:
    page = director_page(record)
    if told is not None:
        page.after_change = lambda: told.append(len(record.rounds()))
    return page


async def _move(client: Client, form: dict[str, str]) -> tuple[int, str]:
    answer = await client.post("/draw/round/1/move", data=form, headers=origin(client))
    return answer.status, unescape(await answer.text())


def _move_form(html: str) -> str:
    found = re.search(r'<form[^>]*id="move-form">(.*?)</form>', html, re.S)
    assert found is not None, "no move form"
    return found[1]


async def _drawn(client: Client) -> dict[str, str]:
    """The move form's hidden fields, as the director's browser has them."""
    await log_in(client)
    html = await (await client.get("/draw/round/1")).text()
    return dict(re.findall(r'name="(csrf|draw)" value="([^"]*)"', _move_form(html)))


def test_the_move_form_offers_each_match_and_only_the_free_tables(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        await log_in(client)
        return _move_form(unescape(await (await client.get("/draw/round/1")).text()))

    form = serve(_page(record), scenario)
    assert re.findall(r'<option value="(\d+)">([^<]*)</option>', form) == [
        ("3", "Ballroom B, table 3"),
        ("4", "Ballroom B, table 4"),
    ]
    assert "table 1: Hawks v Owls" in form and "table 2: Eagles v Ravens" in form


def test_with_no_free_table_the_page_says_how_to_get_one(tmp_path: Path) -> None:
    async def scenario(client: Client) -> str:
        await log_in(client)
        return unescape(await (await client.get("/draw/round/1")).text())

    with TournamentDB.open(make_record(tmp_path / "plain.db")) as plain:
        html = serve(_page(plain), scenario)
    assert 'id="move-form"' not in html
    assert "No free table: every table of the tournament has a match this round." in html
    assert 'add a room holding it on <a href="/rooms">Rooms</a>' in html


def test_a_move_changes_the_draw_and_tells_the_tables(record: TournamentDB) -> None:
    told: list[int] = []

    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        return await _move(client, form | {"team": "Hawks", "table": "4", "reason": "buzzers"})

    status, html = serve(_page(record, told), scenario)
    assert status == 200
    assert "round 1: Hawks v Owls moved from table 1 to table 4; the tables are told" in html
    assert record.rounds()[0].matches == (Match(2, "Eagles", "Ravens"), Match(4, "Hawks", "Owls"))
    assert told == [1]


def test_the_move_is_shown_on_the_sheets_the_pairings_and_both_tables_records(
    record: TournamentDB,
) -> None:
    async def scenario(client: Client) -> list[str]:
        form = await _drawn(client)
        await _move(client, form | {"team": "Owls", "table": "3", "reason": "buzzers"})
        pages: tuple[str, ...] = (
            "/print/round/1/pairings",
            "/print/round/1/sheets",
            "/sheet/1/3",
            "/",
        )
        pages += ("/tables/1", "/tables/3")
        return [unescape(await (await client.get(path)).text()) for path in pages]

    line = "draw changed by director at Sat 9 May 2026, 09:00 UTC: buzzers (Hawks v Owls moved "
    shown = serve(_page(record), scenario)
    for html in shown:
        assert line + "from table 1 to table 3)" in html
    table_3 = shown[-1]
    assert "Round 1: Hawks (A) v Owls (B)" in table_3


def test_a_table_a_move_did_not_touch_shows_no_change(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        form = await _drawn(client)
        await _move(client, form | {"team": "Owls", "table": "3", "reason": "buzzers"})
        return await (await client.get("/tables/2")).text()

    assert "draw changed" not in serve(_page(record), scenario)


@pytest.mark.parametrize(
    ("team", "table", "status", "said"),
    [
        (
            "Hawks",
            "2",
            409,
            "table 2 is in use in round 1 (Eagles v Ravens): expected a free table (3-4), or "
            "swap the teams instead",
        ),
        (
            "Hawks",
            "9",
            409,
            "table 9 is not one of the tournament's tables (1-4): expected a free table (3-4); "
            "to play at table 9, add a room holding it",
        ),
        ("Hawks", "1", 409, "Hawks already plays at table 1: expected another table"),
        ("Hawks", "x1", 400, "moving a match to table 'x1': expected a table number such as 12"),
        ("", "3", 400, "moving a match: expected the match and the free table to move it to"),
    ],
    ids=["in-use", "no-such-table", "same-table", "not-a-number", "no-match"],
)
def test_a_move_refused_is_the_draw_again_with_one_line(
    record: TournamentDB, team: str, table: str, status: int, said: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        return await _move(client, form | {"team": team, "table": table, "reason": "why"})

    answered, html = serve(_page(record), scenario)
    assert answered == status
    assert f'<p class="error" role="alert">{said}</p>' in html
    assert 'id="move-form"' in html  # the draw again, to try again
    assert draw_changes(record, 1) == ()


def test_a_move_once_a_result_is_in_is_refused_in_words(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        with record.transaction() as tournament:
            record.add_result(tournament.result(1, 1, 40, 30), now=NOW, by="director")
        return await _move(client, form | {"team": "Ravens", "table": "3", "reason": "x"})

    status, html = serve(_page(record), scenario)
    assert status == 409
    assert "round 1's draw cannot change: the round has started, a result is in (table 1)" in html
    assert draw_changes(record, 1) == ()


def test_a_move_from_a_page_left_open_while_the_draw_changed_moves_nothing(
    record: TournamentDB,
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        await _move(client, form | {"team": "Hawks", "table": "3", "reason": "one"})
        return await _move(client, form | {"team": "Ravens", "table": "4", "reason": "two"})

    status, html = serve(_page(record), scenario)
    assert status == 409
    assert "round 1's draw has changed since this page was loaded: nothing moved" in html
    assert len(draw_changes(record, 1)) == 1


def test_a_move_without_a_reason_is_refused(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        return await _move(client, form | {"team": "Hawks", "table": "3", "reason": " "})

    status, html = serve(_page(record), scenario)
    assert status == 409
    assert "changing round 1's draw with an empty reason: expected why" in html


def test_results_staff_may_not_move_a_match(record: TournamentDB) -> None:
    add_staff(record, "desk", Role.RESULTS, "the desk's password")

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, "the desk's password", "desk")
        return await _move(client, {"csrf": csrf, "team": "Hawks", "table": "3", "reason": "x"})

    status, html = serve(_page(record), scenario)
    assert status == 403
    assert "changing a draw needs a director's account: desk is results staff" in html
    assert draw_changes(record, 1) == ()
