"""A result sheet is one page of A4 and of Letter whatever its names (issue 26, R969): set at
the first density that holds it, as the Pentathlon's card is (R841). Printed by chromium to
PDF on both papers, pages counted by ``pdfinfo``, each page's words read by ``pdftotext``."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.page.sheet_density import COMPACT, DENSE, NORMAL
from firmware_py.director.hub.page.views import sheet_density_of, sheet_page
from firmware_py.director.hub.page.views_print import round_sheets_page
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_page_helpers import NOW
from tests.print_helpers import PAPERS, pdf_pages, print_on_papers

TABLES = 4
LONGEST = "Wwwwwwwwww Wwwwwwwwww Wwwwwwwwww Wwwwwwwww"  # 40 characters, a team name's most
LONG_TOURNAMENT = "The Lincoln County Academic Games League's Spring Invitational Tournament 2026"
LONG_REASON = (
    "scoring slip on the sheet: game 3 was 10, not 0; the captains agreed and the dealer "
    "initialled the change at the desk"
)


def _entrant(number: int, *, players: int, longest: bool) -> Entrant:
    if not longest:
        return Entrant(f"Team {number}", "Adams", tuple(f"Player {p}" for p in range(players)))
    name = f"{number:02d}{LONGEST[2:]}"
    return Entrant(name, LONGEST, tuple(f"{p}{LONGEST[:29]}" for p in range(players)))


def _round(path: Path, *, players: int, longest: bool, amendments: int = 0) -> TournamentDB:
    """A round of four tables, every result in; table 1's amended ``amendments`` times."""
    teams = tuple(_entrant(n, players=players, longest=longest) for n in range(1, 2 * TABLES + 1))
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=4)
    record = TournamentDB.create(path, config, teams, now=NOW, by="director")
    if longest:
        record.set_venue(name=LONG_TOURNAMENT, time_zone="America/New_York", now=NOW, by="d")
    with record.transaction() as tournament:
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    with record.transaction() as tournament:
        for match in tournament.rounds[0].matches:
            entry = tournament.result(1, match.table, 40, 30)
            record.add_result(entry, now=NOW, by=f"table {match.table}")
    for version in range(amendments):
        with record.transaction() as tournament:
            entry = tournament.result(1, 1, 45 + 5 * version, 30)
            record.add_result(entry, now=NOW, by="director", amend_reason=LONG_REASON)
    return record


def _pages(record: TournamentDB, tmp_path: Path) -> dict[str, list[str]]:
    """The round's sheets as chromium prints them on each paper: each page's words."""
    return _printed(round_sheets_page(record, 1, printed_at=NOW), tmp_path)


def _printed(html: str, tmp_path: Path) -> dict[str, list[str]]:
    """``html`` as chromium prints it on each paper: each page's words."""
    return {paper: pdf_pages(pdf) for paper, pdf in print_on_papers(html, tmp_path).items()}


@pytest.mark.parametrize(
    ("players", "amendments"), [(6, 0), (6, 3), (3, 1)], ids=["six-players", "amended", "three"]
)
def test_a_sheet_of_the_longest_names_prints_on_one_page_of_a4_and_of_letter(
    tmp_path: Path, players: int, amendments: int
) -> None:
    with _round(tmp_path / "t.db", players=players, longest=True, amendments=amendments) as r:
        printed = _pages(r, tmp_path)
    for paper, pages in printed.items():
        assert len(pages) == TABLES, f"{paper}: {len(pages)} pages for {TABLES} sheets"
        for table, page in enumerate(pages, start=1):
            assert f"Result sheet · round 1, table {table}" in page and "Director" in page


def test_a_sheet_of_usual_names_prints_on_one_page_of_a4_and_of_letter(tmp_path: Path) -> None:
    with _round(tmp_path / "t.db", players=4, longest=False, amendments=1) as record:
        printed = _pages(record, tmp_path)
    assert {paper: len(pages) for paper, pages in printed.items()} == dict.fromkeys(PAPERS, TABLES)


def test_a_sheet_is_set_as_tightly_as_its_names_need(tmp_path: Path) -> None:
    with _round(tmp_path / "usual.db", players=3, longest=False) as usual:
        assert sheet_density_of(usual, usual.load(), 1, 1) == NORMAL
    with _round(tmp_path / "two.db", players=2, longest=True) as long:
        assert sheet_density_of(long, long.load(), 1, 1) == COMPACT
    with _round(tmp_path / "six.db", players=6, longest=True) as longest:
        assert sheet_density_of(longest, longest.load(), 1, 1) == DENSE


@pytest.mark.parametrize(
    ("players", "longest", "amendments"),
    [(3, False, 0), (6, True, 3)],
    ids=["usual", "longest"],
)
def test_a_tables_own_sheet_page_prints_on_one_page_of_a4_and_of_letter(
    tmp_path: Path, players: int, longest: bool, amendments: int
) -> None:
    # /sheet/R/T prints the page's header above the sheet, which a round's prints do not
    path = tmp_path / "t.db"
    with _round(path, players=players, longest=longest, amendments=amendments) as record:
        printed = _printed(sheet_page(record, 1, 1, printed_at=NOW), tmp_path)
    assert {paper: len(pages) for paper, pages in printed.items()} == dict.fromkeys(PAPERS, 1)
