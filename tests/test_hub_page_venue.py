"""The tournament's name on every page and printed sheet, and times as the venue reads them
(issue 26, R962); a closed tournament said at the top of ``/`` (R850)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction
from tests.hub_page_helpers import NOW, director_page, log_in, make_record, serve

NAME = "Spring Invitational 2026"
STAFF_PATHS = (
    "/",
    "/close",
    "/problems",
    "/staff",
    "/tables/1",
    "/sheet/1/1",
    "/print/round/1/sheets",
    "/print/round/1/pairings",
    "/undo/round/1",
)
PUBLIC_PATHS = ("/login", "/public", "/projector?page=1")


@pytest.fixture
def record(tmp_path: Path) -> Any:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as opened:
        opened.set_venue(name=NAME, time_zone="America/Chicago", now=NOW, by="director")
        yield opened


def _pages(record: TournamentDB, paths: tuple[str, ...], *, staff: bool) -> dict[str, str]:
    async def scenario(client: TestClient[Any, Any]) -> dict[str, str]:
        if staff:
            await log_in(client)
        shown = {}
        for path in paths:
            answer = await client.get(path, headers={"Accept": "text/html"})
            assert answer.status == 200, (path, answer.status)
            shown[path] = await answer.text()
        return shown

    return serve(director_page(record), scenario)


def test_every_staff_page_and_printed_sheet_names_the_tournament(record: TournamentDB) -> None:
    unnamed = [
        path for path, html in _pages(record, STAFF_PATHS, staff=True).items() if NAME not in html
    ]
    assert unnamed == []


def test_the_public_pages_and_the_hall_screen_name_the_tournament(record: TournamentDB) -> None:
    unnamed = [
        path for path, html in _pages(record, PUBLIC_PATHS, staff=False).items() if NAME not in html
    ]
    assert unnamed == []


def test_the_page_title_names_the_tournament_not_the_software(record: TournamentDB) -> None:
    shown = _pages(record, ("/",), staff=True)["/"]
    assert f"<title>Tournament director · combo4 · {NAME}</title>" in shown


def test_a_sheet_is_printed_with_the_venues_local_time(record: TournamentDB) -> None:
    shown = _pages(record, ("/sheet/1/1", "/print/round/1/pairings"), staff=True)
    # NOW is 09:00 UTC on 9 May: 04:00 in Chicago, on daylight saving time
    assert "<dt>Printed</dt><dd>Sat 9 May 2026, 04:00 CDT</dd>" in shown["/sheet/1/1"]
    assert "printed Sat 9 May 2026, 04:00 CDT" in shown["/print/round/1/pairings"]
    assert NOW not in shown["/sheet/1/1"]


def test_the_undo_confirmation_says_when_the_round_was_paired_in_local_time(
    record: TournamentDB,
) -> None:
    shown = _pages(record, ("/undo/round/1",), staff=True)["/undo/round/1"]
    assert "paired by director at\nSat 9 May 2026, 04:00 CDT." in shown


def test_a_record_without_a_name_is_titled_tournament(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as plain:
        shown = _pages(plain, ("/",), staff=True)["/"]
    assert '<p class="venue">Tournament</p>' in shown


def _close(record: TournamentDB) -> str:
    """Every round played (A wins each match) and the champion recorded by ann; its name."""
    for number in range(1, 4):
        with record.transaction() as tournament:
            if number > 1:
                record.add_round(tournament.pair(number), tournament.plan(number), now=NOW, by="d")
        with record.transaction() as tournament:
            for match in tournament.rounds[number - 1].matches:
                record.add_result(tournament.result(number, match.table, 40, 20), now=NOW, by="d")
    finalists = record.load().qualification().finalists
    assert finalists is not None
    record.set_champion(finalists[0], now=NOW, by="ann")
    return finalists[0]


def test_the_top_of_the_directors_page_says_the_tournament_is_closed(
    record: TournamentDB,
) -> None:
    champion = _close(record)
    shown = _pages(record, ("/",), staff=True)["/"]
    banner = shown.index('id="closed-banner"')
    assert banner < shown.index('id="problems"')
    assert (
        f"<strong>The tournament is closed</strong>: {champion} is the champion (recorded "
        "by ann at Sat 9 May 2026, 04:00 CDT)" in shown
    )


def test_a_refusal_while_closed_says_when_it_closed_as_the_venue_reads_it(
    record: TournamentDB,
) -> None:
    _close(record)
    with pytest.raises(IllegalAction) as refused:
        record.require_open("round 1 table 1's result")
    assert "recorded as champion by ann at Sat 9 May 2026, 04:00 CDT)" in str(refused.value)


def test_the_signatures_of_a_sheet_name_its_match_should_they_print_on_a_page_of_their_own(
    record: TournamentDB,
) -> None:
    """R967: 40-character names push the captains' signatures onto a second page; that page
    says which tournament, round, table and teams it signs for."""
    shown = _pages(record, ("/sheet/1/1",), staff=True)["/sheet/1/1"]
    signatures = shown[shown.index('<div class="signatures">') :]
    match = record.load().match(1, 1)
    assert signatures.index(f"Round 1, table 1: {match.a} v {match.b} · {NAME}") < signatures.index(
        "sign-line"
    )


def test_the_wall_pairings_find_your_team_page_names_its_round_and_tournament(
    record: TournamentDB,
) -> None:
    """R967: "Find your team" prints on a page of its own, posted apart from "By table"."""
    shown = _pages(record, ("/print/round/1/pairings",), staff=True)["/print/round/1/pairings"]
    by_team = shown[shown.index('<section class="wall-by-team">') :].split("</section>")[0]
    assert f"Round 1 of 3 · {NAME}" in by_team
