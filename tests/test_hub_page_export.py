"""The record's downloads on the director's page (issue 27, R1060, R1061): the standings and
the results as CSV, the whole record as ``gametable tournament export``'s JSON; for a director
and results staff only; CSV that a spreadsheet shows and never runs as a formula."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.staff import Role, StaffRecord
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.export import spreadsheet_safe
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_page_helpers import (
    NOW,
    PASSWORD,
    add_staff,
    director_page,
    log_in,
    make_record,
    serve,
)
from tests.test_tournament_cli import main

Client = TestClient[Any, Any]
STAFF_PASSWORD = "a staff member's password"
Answer = tuple[int, dict[str, str], str]


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def _get(page: DirectorPage, path: str, *, role: Role | None = None) -> Answer:
    """``path`` read by anyone, or by a staff member of ``role``: status, headers, body."""

    async def scenario(client: Client) -> Answer:
        if role is Role.DIRECTOR:
            await log_in(client)
        elif role is not None:
            name = f"{role.value}-staff"
            if StaffRecord(page.record).find(name) is None:
                add_staff(page.record, name, role, STAFF_PASSWORD)
            await log_in(client, STAFF_PASSWORD, name)
        answer = await client.get(path, allow_redirects=False)
        return answer.status, dict(answer.headers), await answer.text()

    return serve(page, scenario)


def _enter(record: TournamentDB, table: int, a: int, b: int) -> None:
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, table, a, b), now=NOW, by="results-staff")


def _rows(body: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body)))


def test_the_standings_download_is_a_csv_of_every_team_in_rank_order(
    record: TournamentDB,
) -> None:
    _enter(record, 1, 40, 30)
    status, headers, body = _get(director_page(record), "/export/standings.csv", role=Role.DIRECTOR)
    assert status == 200
    assert headers["Content-Type"].startswith("text/csv")
    assert headers["Content-Disposition"] == 'attachment; filename="tournament-standings.csv"'
    rows = _rows(body)
    assert rows[0][:3] == ["rank", "team", "wins"]
    assert [row[1] for row in rows[1:]] == [s.team for s in record.load().standings()]


def test_the_results_download_names_each_match_its_points_and_who_entered_it(
    record: TournamentDB,
) -> None:
    _enter(record, 1, 40, 30)
    match = record.rounds()[0].matches[0]
    _, _, body = _get(director_page(record), "/export/results.csv", role=Role.RESULTS)
    assert _rows(body) == [
        [
            "round",
            "table",
            "team_a",
            "team_b",
            "a_points",
            "b_points",
            "winner",
            "entered_by",
            "entered_at",
        ],
        ["1", "1", match.a, match.b, "40", "30", match.a, "results-staff", NOW],
    ]


def test_the_record_download_is_what_gametable_tournament_export_prints(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    _enter(record, 2, 10, 10)
    status, headers, body = _get(director_page(record), "/export/record.json", role=Role.DIRECTOR)
    assert status == 200
    assert headers["Content-Type"].startswith("application/json")
    assert main(["tournament", "export", "--db", str(record.path)]) == 0
    assert json.loads(body) == json.loads(capsys.readouterr().out)


def test_the_download_is_named_after_the_tournament(record: TournamentDB) -> None:
    record.set_venue(name='Spring Open / "2027"', now=NOW, by="director")
    _, headers, _ = _get(director_page(record), "/export/results.csv", role=Role.DIRECTOR)
    assert headers["Content-Disposition"] == 'attachment; filename="spring-open-2027-results.csv"'


@pytest.mark.parametrize("path", ["/export/standings.csv", "/export/record.json"])
def test_a_game_leader_is_refused_the_downloads_in_words(record: TournamentDB, path: str) -> None:
    status, _, body = _get(director_page(record), path, role=Role.VIEWER)
    assert status == 403
    assert (
        "seeing the record&#x27;s downloads needs a results or director&#x27;s account: "
        "viewer-staff is a viewer" in body
    )


def test_no_download_without_a_staff_login(record: TournamentDB) -> None:
    status, _, body = _get(director_page(record), "/export/record.json")
    assert status == 403
    assert "the record&#x27;s downloads is for staff: log in first (/login)" in body
    assert '"teams"' not in body


def test_an_unknown_download_is_refused_naming_the_ones_there_are(record: TournamentDB) -> None:
    status, _, body = _get(director_page(record), "/export/passwords.csv", role=Role.DIRECTOR)
    assert status == 404
    assert "no export &#x27;passwords.csv&#x27;: expected one of standings.csv" in body


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("Eagles", "Eagles"),
        (40, 40),
    ],
)
def test_a_text_cell_starting_as_a_formula_is_prefixed_and_a_number_kept(
    cell: object, shown: object
) -> None:
    assert spreadsheet_safe(cell) == shown


def test_a_team_named_as_a_formula_reaches_the_csv_prefixed(tmp_path: Path) -> None:
    teams = (Entrant("=1+1", "@school"), Entrant("Hawks"), Entrant("-Owls"), Entrant("Ravens"))
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    path = tmp_path / "formula.db"
    with (
        TournamentDB.create(path, config, teams, now=NOW, by="director") as made,
        made.transaction() as tournament,
    ):
        made.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    store_password(path, PASSWORD)
    with TournamentDB.open(path) as opened:
        _, _, body = _get(director_page(opened), "/export/standings.csv", role=Role.DIRECTOR)
    teams_shown = sorted(row[1] for row in _rows(body)[1:])
    assert teams_shown == sorted(["'=1+1", "Hawks", "'-Owls", "Ravens"])


def test_the_downloads_are_linked_for_results_staff_and_not_for_a_game_leader(
    record: TournamentDB,
) -> None:
    _, _, results_view = _get(director_page(record), "/", role=Role.RESULTS)
    _, _, viewer_view = _get(director_page(record), "/", role=Role.VIEWER)
    assert 'href="/export/results.csv"' in results_view
    assert "/export/" not in viewer_view
