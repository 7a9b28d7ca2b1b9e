"""Changing a draw on the page (issue 27, R1064-R1066): a director swaps two teams of the latest
round before a result is in, with a reason; a rematch or same-school pair is warned and made
only by the second step; the change is shown on the round's sheets and pairings; the tables'
pairings follow; refused in words once a result is in."""

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
# round 1 of the helpers' record: Hawks v Owls at table 1, Eagles v Ravens at table 2;
# Eagles and Owls are both of Lincoln


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def _page(record: TournamentDB, told: list[int] | None = None) -> DirectorPage:
    page = director_page(record)
    if told is not None:
        page.after_change = lambda: told.append(len(record.rounds()))
    return page


async def _swap(client: Client, form: dict[str, str]) -> tuple[int, str]:
    answer = await client.post("/draw/round/1", data=form, headers=origin(client))
    return answer.status, unescape(await answer.text())


def _form_of(html: str, form_id: str) -> dict[str, str]:
    found = re.search(rf'<form[^>]*id="{form_id}">(.*?)</form>', html, re.S)
    assert found is not None, f"no form {form_id}"
    return {
        name: unescape(value)
        for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', found[1])
    }


async def _drawn(client: Client) -> dict[str, str]:
    """The swap form's hidden fields, as the director's browser has them."""
    await log_in(client)
    html = await (await client.get("/draw/round/1")).text()
    return _form_of(html, "swap-form")


def test_a_swap_changes_the_draw_and_tells_the_tables(record: TournamentDB) -> None:
    told: list[int] = []

    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        return await _swap(
            client, form | {"first": "Hawks", "second": "Ravens", "reason": "table 1's buzzer"}
        )

    status, html = serve(_page(record, told), scenario)
    assert status == 200
    assert "round 1: Hawks and Ravens swapped (tables 1 and 2); the tables are told" in html
    assert record.rounds()[0].matches == (Match(1, "Ravens", "Owls"), Match(2, "Eagles", "Hawks"))
    assert told == [1]


def test_a_swap_making_a_same_school_pair_is_warned_and_nothing_swapped(
    record: TournamentDB,
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        return await _swap(
            client, form | {"first": "Eagles", "second": "Hawks", "reason": "seen late"}
        )

    status, html = serve(_page(record), scenario)
    assert status == 200
    assert 'id="swap-warning"' in html
    assert "table 1: Eagles and Owls are of one school" in html
    assert "Confirm: swap anyway" in html
    assert draw_changes(record, 1) == ()


def test_the_warnings_confirm_makes_the_swap(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        form = await _drawn(client)
        _, warned = await _swap(
            client, form | {"first": "Eagles", "second": "Hawks", "reason": "seen late"}
        )
        confirm = _form_of(warned, "swap-confirm") | {"confirm": "yes"}
        return (await _swap(client, confirm))[1]

    assert "Eagles and Hawks swapped" in serve(_page(record), scenario)
    (change,) = draw_changes(record, 1)
    assert change.warnings == ("table 1: Eagles and Owls are of one school",)
    assert change.reason == "seen late"


def test_the_change_is_shown_on_the_rounds_sheets_and_pairings(record: TournamentDB) -> None:
    async def scenario(client: Client) -> list[str]:
        form = await _drawn(client)
        await _swap(client, form | {"first": "Hawks", "second": "Ravens", "reason": "buzzer"})
        pages = ("/print/round/1/pairings", "/print/round/1/sheets", "/sheet/1/2", "/")
        return [unescape(await (await client.get(path)).text()) for path in pages]

    line = "draw changed by director at Sat 9 May 2026, 09:00 UTC: buzzer (Hawks and Ravens "
    for html in serve(_page(record), scenario):
        assert line + "swapped (tables 1 and 2))" in html


def test_the_public_page_shows_the_draw_but_not_who_changed_it(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        form = await _drawn(client)
        await _swap(client, form | {"first": "Hawks", "second": "Ravens", "reason": "buzzer"})
        return await (await client.get("/public")).text()

    assert "draw changed" not in serve(_page(record), scenario)


def test_a_swap_once_a_result_is_in_is_refused_in_words(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        with record.transaction() as tournament:
            record.add_result(tournament.result(1, 1, 40, 30), now=NOW, by="director")
        return await _swap(client, form | {"first": "Hawks", "second": "Ravens", "reason": "x"})

    status, html = serve(_page(record), scenario)
    assert status == 409
    assert "round 1's draw cannot change: the round has started, a result is in (table 1)" in html


def test_a_swap_from_a_page_left_open_while_the_draw_changed_swaps_nothing(
    record: TournamentDB,
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        form = await _drawn(client)
        await _swap(client, form | {"first": "Hawks", "second": "Ravens", "reason": "one"})
        return await _swap(client, form | {"first": "Owls", "second": "Eagles", "reason": "two"})

    status, html = serve(_page(record), scenario)
    assert status == 409
    assert "round 1's draw has changed since this page was loaded: nothing swapped" in html
    assert len(draw_changes(record, 1)) == 1


def test_results_staff_may_not_change_a_draw(record: TournamentDB) -> None:
    add_staff(record, "desk", Role.RESULTS, "the desk's password")

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, "the desk's password", "desk")
        form = {"csrf": csrf, "first": "Hawks", "second": "Ravens", "reason": "x"}
        return await _swap(client, form)

    status, html = serve(_page(record), scenario)
    assert status == 403
    assert "changing a draw needs a director's account: desk is results staff" in html
