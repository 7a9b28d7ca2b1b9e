"""The director's tournament day on the page (issue 21, items 5, 7 and 8), with aiohttp's test
client: the public search ("where do I play next?") and the projector, a round's prints behind
the director's login, and undoing a pairing with a confirmation (R820-R822)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.page.views_public import MAX_FOUND, PROJECTOR_PER_PAGE
from firmware_py.director.hub.staff import Role, StaffRecord
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_page_helpers import (
    NOW,
    add_staff,
    director_page,
    error_line,
    log_in,
    make_record,
    origin,
    serve,
    state,
)

Client = TestClient[Any, Any]
STAFF_PASSWORD = "a staff member's password"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


@pytest.fixture
def page(record: TournamentDB) -> DirectorPage:
    return director_page(record)


def _get(page: DirectorPage, path: str, *, role: Role | None = None) -> tuple[int, str]:
    """``path`` read by anyone, or by a staff member of ``role`` (a director: the director's
    own account)."""

    async def scenario(client: Client) -> tuple[int, str]:
        if role is Role.DIRECTOR:
            await log_in(client)
        elif role is not None:
            name = f"{role.value}-staff"
            if StaffRecord(page.record).find(name) is None:
                add_staff(page.record, name, role, STAFF_PASSWORD)
            await log_in(client, STAFF_PASSWORD, name)
        answer = await client.get(path)
        return answer.status, await answer.text()

    return serve(page, scenario)


def _match_of(record: TournamentDB, team: str) -> tuple[int, str]:
    """Table and opponent of ``team`` in the latest round."""
    for match in record.rounds()[-1].matches:
        if team in (match.a, match.b):
            return match.table, match.b if match.a == team else match.a
    raise AssertionError(f"{team} plays no match")


def _enter(record: TournamentDB, table: int, a: int = 40, b: int = 30) -> None:
    with record.transaction() as tournament:
        number = len(tournament.rounds)
        record.add_result(tournament.result(number, table, a, b), now=NOW, by="director")


# --- the public page: where do I play next? ----------------------------------------------------


def test_a_search_by_team_name_answers_table_opponent_round_and_game_first(
    page: DirectorPage, record: TournamentDB
) -> None:
    table, opponent = _match_of(record, "Eagles")
    status, html = _get(page, "/public?q=eag")
    assert status == 200
    found = html[html.index('id="found"') : html.index('id="pairings-title"')]
    assert f"<strong>Table {table}</strong> · against <strong>{opponent}</strong>" in found
    assert "<dt>Round</dt><dd>1 of 3</dd>" in found
    assert "<dt>Game</dt><dd>All: games 1 to 5 in turn, 20 minutes</dd>" in found
    # the answer first, then the latest pairings, then the standings
    assert html.index('id="found"') < html.index('id="pairings-title"')
    assert html.index('id="pairings-title"') < html.index('id="standings-title"')


def test_the_search_is_a_plain_get_form_answered_by_the_server(page: DirectorPage) -> None:
    _, html = _get(page, "/public")
    assert '<form method="get" action="/public" role="search"' in html
    assert 'name="q"' in html and 'id="found"' not in html  # no answer until asked


def test_a_search_finds_a_team_by_a_players_name_while_names_are_public(
    page: DirectorPage,
) -> None:
    page.public_names = PublicNames.PLAYERS  # --public-names players
    _, html = _get(page, "/public?q=cy")
    assert "Cy plays for this team." in html and "<h3>Hawks (Adams)</h3>" in html
    assert '<label for="q">Team or player name</label>' in html
    assert "Hawks (Cy, Di)" in html  # the pairings and standings name the players too


def test_a_players_name_finds_nothing_while_only_teams_are_public(page: DirectorPage) -> None:
    assert page.public_names is PublicNames.TEAMS  # the default (R817)
    _, html = _get(page, "/public?q=cy")
    assert "Hawks (Adams)" not in html and "Cy" not in html
    assert "No team named like &#x27;cy&#x27;" in html
    assert '<label for="q">Team name</label>' in html


@pytest.mark.parametrize("path", ["/public?q=eagles", "/public?q=cy", "/projector"])
def test_no_name_is_public_under_public_names_none(page: DirectorPage, path: str) -> None:
    page.public_names = PublicNames.NONE
    status, html = _get(page, path)
    assert status == 200 and "This tournament does not publish names" in html
    for name in ("Eagles", "Hawks", "Owls", "Ravens", "Ann", "Cy"):
        assert name not in html


def test_a_search_that_finds_nothing_says_so_in_one_line_and_escaped(
    page: DirectorPage,
) -> None:
    page.public_names = PublicNames.PLAYERS
    status, html = _get(page, "/public?q=%3Cscript%3Ealert(1)%3C/script%3E")
    assert status == 200
    assert "<script>alert" not in html
    assert "No team or player named like &#x27;&lt;script&gt;alert(1)&lt;/script&gt;&#x27;" in html


def test_a_team_with_the_bye_is_told_so(tmp_path: Path) -> None:
    teams = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls"))
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with TournamentDB.create(tmp_path / "t.db", config, teams, now=NOW, by="d") as record:
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="d")
        bye = record.rounds()[0].bye
        assert bye is not None
        _, html = _get(director_page(record), f"/public?q={bye}")
    assert "<strong>Round 1 of 3: a bye</strong>" in html


def test_the_answer_shows_what_the_table_plays_now_and_the_result_once_in(
    page: DirectorPage, record: TournamentDB
) -> None:
    table, _ = _match_of(record, "Eagles")
    page.board.take_state(table, state(table), 0.0)
    _, html = _get(page, "/public?q=eagles")
    assert "<dt>Now</dt><dd>G3 Border-Up, 12:41</dd>" in html
    _enter(record, table, 40, 30)
    _, html = _get(director_page(record, page.board), "/public?q=eagles")
    side_a = record.rounds()[0].matches[table - 1].a == "Eagles"
    assert f"<dt>Result</dt><dd>{'won 40-30' if side_a else 'lost 30-40'}</dd>" in html


def test_a_search_matching_too_many_teams_asks_for_more_of_the_name(tmp_path: Path) -> None:
    teams = tuple(Entrant(f"Team {n:02d}", "", ()) for n in range(MAX_FOUND + 4))
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with TournamentDB.create(tmp_path / "t.db", config, teams, now=NOW, by="d") as record:
        _, html = _get(director_page(record), "/public?q=team")
    assert html.count('class="card found"') == MAX_FOUND
    assert "4 more teams match &#x27;team&#x27;: type more of the name" in html
    assert "No round is paired yet" in html


# --- the projector --------------------------------------------------------------------------------


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[TournamentDB]:
    """200 teams, round 1 paired: 100 tables."""
    teams = tuple(Entrant(f"Team {n:03d}", f"School {n % 40}", ()) for n in range(200))
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=10)
    with TournamentDB.create(tmp_path / "hall.db", config, teams, now=NOW, by="d") as record:
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="d")
        yield record


def _refresh_to(html: str) -> str:
    found = re.search(r'http-equiv="refresh" content="\d+;url=([^"]+)"', html)
    assert found is not None, "no refresh"
    return found.group(1)


def test_the_projector_shows_100_pairings_in_pages_then_the_standings_and_goes_round(
    hall: TournamentDB,
) -> None:
    pairing_pages = -(-100 // PROJECTOR_PER_PAGE)  # 4
    standing_pages = -(-200 // PROJECTOR_PER_PAGE)  # 7
    total = pairing_pages + standing_pages
    page = director_page(hall)

    async def scenario(client: Client) -> list[str]:
        return [await (await client.get(f"/projector?page={n}")).text() for n in range(1, 13)]

    pages = serve(page, scenario)
    shown = [re.findall(r'<span class="n">(\d+)</span>', html) for html in pages]
    assert shown[0][:2] == ["1", "2"] and len(shown[0]) == PROJECTOR_PER_PAGE
    assert [len(rows) for rows in shown[:pairing_pages]] == [32, 32, 32, 4]
    assert "Round 1 of 10" in pages[0] and f"1/{total}" in pages[0]
    assert "Standings" in pages[pairing_pages] and "Team" in pages[pairing_pages]
    assert [_refresh_to(html) for html in pages[:2]] == ["/projector?page=2", "/projector?page=3"]
    assert _refresh_to(pages[total - 1]) == "/projector?page=1"
    assert pages[total] == pages[0]  # a page past the last wraps around
    assert "<script" not in pages[0]


def test_the_projector_gives_the_results_a_column_once_one_is_in(
    page: DirectorPage, record: TournamentDB
) -> None:
    _, before = _get(page, "/projector")
    _enter(record, 2, 40, 30)
    _, after = _get(director_page(record), "/projector")
    assert '<ol class="pairings">' in before and 'class="s"' not in before
    assert '<ol class="pairings scored">' in after and '<span class="s">40-30</span>' in after


def test_the_projector_takes_any_page_parameter_as_page_1(page: DirectorPage) -> None:
    status, html = _get(page, "/projector?page=-3x")
    assert status == 200 and "1/2" in html


# --- printing a round ----------------------------------------------------------------------------


@pytest.mark.parametrize("what", ["sheets", "pairings"])
def test_printing_a_round_needs_a_staff_login(page: DirectorPage, what: str) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get(f"/print/round/1/{what}")
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 403
    assert line == "printing a round is for staff: log in first (/login)"


def test_a_rounds_sheets_are_one_document_with_a_page_per_table(
    page: DirectorPage, record: TournamentDB
) -> None:
    status, html = _get(page, "/print/round/1/sheets", role=Role.VIEWER)
    assert status == 200
    assert html.count('<section class="print-sheet ') == 2  # and its density (R969)
    for table in (1, 2):
        assert f"Result sheet · round 1, table {table}" in html
    assert "<li>Ann</li>" in html and "Team A&#x27;s captain" in html  # each whole sheet
    assert "<header>" not in html  # nothing printed but the sheets


def test_a_rounds_pairings_for_the_wall_list_tables_and_every_team_by_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    status, html = _get(page, "/print/round/1/pairings", role=Role.VIEWER)
    assert status == 200
    by_table = html[html.index("By table") : html.index("Find your team")]
    assert re.findall(r"<tr><td>(\d+)</td>", by_table) == ["1", "2"]
    teams = re.findall(r"<li><span>([^<]+)</span><span>([^<]+)</span></li>", html)
    assert [team for team, _ in teams] == ["Eagles", "Hawks", "Owls", "Ravens"]
    table, _ = _match_of(record, "Eagles")
    assert teams[0][1].startswith(f"table {table} (")


def test_printing_a_round_not_paired_is_a_404_in_words(page: DirectorPage) -> None:
    status, html = _get(page, "/print/round/4/sheets", role=Role.VIEWER)
    assert status == 404 and "round 4 is not paired: expected a round from 1 to 1" in html


# --- undoing a pairing ---------------------------------------------------------------------------


def _undo_form(csrf: str, **more: str) -> dict[str, str]:
    return {"csrf": csrf, "reason": "paired before the check", "confirm": "yes", **more}


def test_the_directors_page_offers_the_rounds_prints_and_its_undo(page: DirectorPage) -> None:
    _, html = _get(page, "/", role=Role.DIRECTOR)
    for link in ("/print/round/1/sheets", "/print/round/1/pairings", "/undo/round/1"):
        assert f'href="{link}"' in html


@pytest.mark.parametrize("role", [Role.VIEWER, Role.RESULTS])
def test_other_staff_are_offered_the_rounds_prints_without_its_undo(
    page: DirectorPage, role: Role
) -> None:
    _, html = _get(page, "/", role=role)
    assert "Round 1: print</h2>" in html
    for link in ("/print/round/1/sheets", "/print/round/1/pairings"):
        assert f'href="{link}"' in html
    assert "/undo/round/1" not in html


def test_undoing_asks_for_a_confirmation_first(page: DirectorPage, record: TournamentDB) -> None:
    status, html = _get(page, "/undo/round/1", role=Role.DIRECTOR)
    assert status == 200
    assert "Undo round 1's pairing? 2 tables; no result is\nin" in html
    assert 'action="/undo/round/1"' in html and 'name="confirm" value="yes"' in html
    assert len(record.rounds()) == 1  # asking changes nothing


def test_the_confirmation_needs_a_login(page: DirectorPage) -> None:
    status, html = _get(page, "/undo/round/1")
    assert status == 403
    assert "the confirmation of undoing a pairing is for staff: log in first (/login)" in html


def test_the_confirmation_needs_a_directors_account(page: DirectorPage) -> None:
    status, html = _get(page, "/undo/round/1", role=Role.RESULTS)
    assert status == 403
    assert (
        "seeing the confirmation of undoing a pairing needs a director&#x27;s account: "
        "results-staff is results staff" in html
    )


def test_confirmed_the_pairing_is_undone_kept_and_the_hub_told(
    page: DirectorPage, record: TournamentDB
) -> None:
    told: list[str] = []
    page.after_change = lambda: told.append("changed")

    async def scenario(client: Client) -> str:
        csrf = await log_in(client)
        answer = await client.post("/undo/round/1", data=_undo_form(csrf), headers=origin(client))
        return await answer.text()

    html = serve(page, scenario)
    assert "round 1&#x27;s pairing undone: 2 matches withdrawn" in html
    assert "No round is paired yet" in html and "Pair round 1" in html
    assert record.rounds() == () and told == ["changed"]
    (undone,) = record.withdrawn_rounds()
    assert (undone.withdrawn_by, undone.reason) == ("director", "paired before the check")


def test_an_undo_without_the_confirmation_is_refused(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        form = _undo_form(csrf)
        del form["confirm"]
        answer = await client.post("/undo/round/1", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        400,
        "undoing a pairing: expected the confirmation (the Confirm button)",
    )
    assert len(record.rounds()) == 1


def test_an_undo_without_the_sessions_token_is_refused(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> int:
        await log_in(client)
        answer = await client.post(
            "/undo/round/1", data=_undo_form("a-guess"), headers=origin(client)
        )
        return answer.status

    assert serve(page, scenario) == 403
    assert len(record.rounds()) == 1


def test_an_undo_without_a_reason_is_refused(page: DirectorPage, record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        form = _undo_form(csrf, reason="  ")
        answer = await client.post("/undo/round/1", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (409, "undoing a pairing with an empty reason: expected why")
    assert len(record.rounds()) == 1


def test_once_a_result_is_in_the_undo_is_refused_in_words_and_not_offered(
    page: DirectorPage, record: TournamentDB
) -> None:
    _enter(record, 2)

    async def scenario(client: Client) -> tuple[str, str, int, str]:
        csrf = await log_in(client)
        home = await (await client.get("/")).text()
        asked = await (await client.get("/undo/round/1")).text()
        answer = await client.post("/undo/round/1", data=_undo_form(csrf), headers=origin(client))
        return home, asked, answer.status, await error_line(answer)

    home, asked, status, line = serve(page, scenario)
    assert 'href="/undo/round/1"' not in home and "Undo: not once a result is in (1 of 2" in home
    assert 'id="undo-form"' not in asked
    assert "round 1&#x27;s pairing cannot be undone: a result is in (table 2)" in asked
    assert status == 409 and line.startswith("round 1&#x27;s pairing cannot be undone")
    assert len(record.rounds()) == 1 and record.withdrawn_rounds() == ()


def test_only_the_latest_rounds_pairing_is_undone(page: DirectorPage, record: TournamentDB) -> None:
    for table in (1, 2):
        _enter(record, table)
    with record.transaction() as tournament:
        record.add_round(tournament.pair(2), tournament.plan(2), now=NOW, by="director")

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await client.post("/undo/round/1", data=_undo_form(csrf), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 409
    assert line == "round 1 is not the latest round: only round 2&#x27;s pairing can be undone"
    assert len(record.rounds()) == 2
