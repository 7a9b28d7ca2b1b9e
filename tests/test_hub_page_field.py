"""The field from the page (issue 27, R1062, R1063): a director pastes a spreadsheet's rows or
a teams CSV; the preview lists every team and names every bad line, nothing saved; Confirm
adds the teams, recorded with who and when; a stale preview adds nothing; after round 1 is
paired the page refuses in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.app import MAX_BODY
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.field import LATE, added_by
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import TournamentFormat, new_config
from tests.hub_page_helpers import (
    NOW,
    PASSWORD,
    TEAMS,
    add_staff,
    director_page,
    log_in,
    make_record,
    origin,
    serve,
)

Client = TestClient[Any, Any]
PASTED = "name\tschool\tplayers\nSwans\tAdams\tFay;Gil\nCranes\t\tHo\n"
BAD = (
    "name,school,players\n"
    "Swans,Adams,Fay;Gil\n"
    "EAGLES,Lincoln,Zed\n"  # line 3: in the field already
    "Cranes,Adams\n"  # line 4: two fields
    "Swifts,Adams,Fay\n"  # line 5: Fay plays for Swans
    "Kites,,Jo\n"
)


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """The four teams of the helpers' record, round 1 not paired yet."""
    path = tmp_path / "tournament.db"
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    TournamentDB.create(path, config, TEAMS, now=NOW, by="director").close()
    store_password(path, PASSWORD)
    with TournamentDB.open(path) as opened:
        yield opened


async def _preview(client: Client, pasted: str, csrf: str | None = None) -> tuple[int, str]:
    """``pasted`` previewed by the director (logged in now, or with the session of ``csrf``)."""
    csrf = csrf or await log_in(client)
    answer = await client.post(
        "/field/preview", data={"csrf": csrf, "teams": pasted}, headers=origin(client)
    )
    return answer.status, await answer.text()


def _confirm_form(html: str) -> dict[str, str]:
    """The preview's Confirm form, as the browser would send it."""
    form = re.search(
        r'<form method="post" action="/field" id="field-confirm">(.*?)</form>', html, re.S
    )
    assert form is not None, "no Confirm on the preview"
    fields = {
        name: unescape(value)
        for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1))
    }
    return fields


def _bad_lines(html: str) -> list[str]:
    found = re.search(r'id="bad-lines".*?<ol>(.*?)</ol>', html)
    return [] if found is None else [unescape(i) for i in re.findall(r"<li>(.*?)</li>", found[1])]


def test_the_preview_lists_every_team_of_pasted_spreadsheet_rows(record: TournamentDB) -> None:
    status, html = serve(director_page(record), lambda c: _preview(c, PASTED))
    assert status == 200
    assert "<td>Swans</td><td>Adams</td><td>Fay; Gil</td>" in html
    assert "<td>Cranes</td>" in html
    assert "Confirm: add these 2 teams to the 4 in the field" in html


def test_the_preview_names_every_bad_line_and_offers_no_confirm(record: TournamentDB) -> None:
    _, html = serve(director_page(record), lambda c: _preview(c, BAD))
    assert _bad_lines(html) == [
        "the pasted rows line 3: duplicate team name 'EAGLES' (already in the field): "
        "expected every team name once",
        "the pasted rows line 4: 2 field(s): expected 3 (name,school,players); "
        "quote a field that holds a comma",
        "the pasted rows line 5: player 'Fay' is already on team 'Swans' (the pasted rows "
        "line 2): expected each player on one team (two children of one name at one school: "
        "tell them apart, e.g. 'Sam Lee (5th)')",
    ]
    assert "<td>Kites</td>" in html
    assert 'id="field-confirm"' not in html


def test_a_preview_saves_nothing(record: TournamentDB) -> None:
    serve(director_page(record), lambda c: _preview(c, PASTED))
    assert [e.name for e in record.entrants()] == [e.name for e in TEAMS]


def test_the_confirmed_preview_adds_its_teams_with_who_and_when(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        _, html = await _preview(client, PASTED)
        answer = await client.post("/field", data=_confirm_form(html), headers=origin(client))
        return await answer.text()

    shown = serve(director_page(record), scenario)
    assert "2 teams added to the field: 6 now" in shown
    assert [e.name for e in record.entrants()][-2:] == ["Swans", "Cranes"]
    assert added_by(record) == {"Swans": ("director", NOW), "Cranes": ("director", NOW)}
    assert set(record.short_names()) == {e.name for e in record.entrants()}


def test_a_preview_made_stale_by_another_addition_adds_nothing(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        _, first = await _preview(client, PASTED, csrf)
        _, second = await _preview(client, "name,school,players\nKites,,Jo\n", csrf)
        await client.post("/field", data=_confirm_form(second), headers=origin(client))
        answer = await client.post("/field", data=_confirm_form(first), headers=origin(client))
        return answer.status, await answer.text()

    status, html = serve(director_page(record), scenario)
    assert status == 409
    assert (
        "the field has changed since this preview (4 teams then, 5 now): preview the teams again"
        in unescape(html)
    )
    assert [e.name for e in record.entrants()][-1] == "Kites"


def test_a_confirm_whose_teams_differ_from_its_preview_adds_nothing(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        _, html = await _preview(client, PASTED)
        form = _confirm_form(html) | {"teams": PASTED + "Kites\t\tJo\n"}
        answer = await client.post("/field", data=form, headers=origin(client))
        return answer.status, await answer.text()

    status, html = serve(director_page(record), scenario)
    assert status == 409
    assert "the preview listed 2 teams, the form holds 3: preview the teams again" in html
    assert len(record.entrants()) == len(TEAMS)


def test_after_round_1_is_paired_the_field_is_refused_in_words(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "paired.db")) as paired:
        status, html = serve(director_page(paired), lambda c: _preview(c, PASTED))
        assert status == 409
        assert unescape(LATE) in unescape(html)
        assert len(paired.entrants()) == len(TEAMS)


def test_results_staff_may_not_enter_teams(record: TournamentDB) -> None:
    add_staff(record, "desk", Role.RESULTS, "the desk's password")

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, "the desk's password", "desk")
        answer = await client.post(
            "/field/preview", data={"csrf": csrf, "teams": PASTED}, headers=origin(client)
        )
        return answer.status, await answer.text()

    status, html = serve(director_page(record), scenario)
    assert status == 403
    assert "entering teams needs a director&#x27;s account: desk is results staff" in html


def test_a_field_of_hundreds_of_teams_fits_where_another_form_is_refused(
    record: TournamentDB,
) -> None:
    rows = "".join(f"Team {n},School {n},Player {n}a;Player {n}b\n" for n in range(300))
    pasted = "name,school,players\n" + rows
    assert len(pasted) > MAX_BODY

    async def scenario(client: Client) -> tuple[int, int]:
        csrf = await log_in(client)
        big = {"csrf": csrf, "teams": pasted}
        field = await client.post("/field/preview", data=big, headers=origin(client))
        other = await client.post("/pair", data=big, headers=origin(client))
        return field.status, other.status

    assert serve(director_page(record), scenario) == (200, 413)


def test_the_directors_page_leads_to_the_field_before_round_1(record: TournamentDB) -> None:
    async def scenario(client: Client) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    assert 'href="/field" id="field-link"' in serve(director_page(record), scenario)
