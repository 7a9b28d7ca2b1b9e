"""A round's result sheets on both papers (issue 26, finding 3; R983): printed by chromium on A4
and on US Letter (the default paper of American school events), each sheet is one page, and its
signature block is never on a page of its own: a loose signature page is what a dealer signs by
mistake. Pages counted by ``pdfinfo``, each page's words read by ``pdftotext``."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.page.views_print import round_sheets_page
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_page_helpers import NOW
from tests.print_helpers import pdf_pages, print_on_papers

TABLES = 12
AMENDED = (3, 7)  # the two amended results of the round
RESULT = "the match's result (the tournament record)"  # the result's caption
LONG_NAME = "Lincoln-Douglas Academy of Mathematics and Science"  # a long team name
LONG_REASON = (
    "scoring slip on the sheet: game 3 was 10, not 0; the captains agreed and the dealer "
    "initialled the change at the desk"
)


def _round_record(path: Path, *, amendments: int, long_names: bool) -> TournamentDB:
    """A round of 12 tables, every result in; tables 3 and 7 amended ``amendments`` times."""
    stem = f"{LONG_NAME} Team" if long_names else "Team"
    school = f"{LONG_NAME} Magnet" if long_names else "School"
    players = (
        ("Alexandria Montgomery-Whitfield", "Bartholomew Kensington", "Christabel Fairweather")
        if long_names
        else ("Ann", "Bo", "Cy")
    )
    teams = tuple(Entrant(f"{stem} {i}", f"{school} {i}", players) for i in range(2 * TABLES))
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=4)
    record = TournamentDB.create(path, config, teams, now=NOW, by="director")
    with record.transaction() as tournament:
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    with record.transaction() as tournament:
        for match in tournament.rounds[0].matches:
            entry = tournament.result(1, match.table, 40, 30)
            record.add_result(entry, now=NOW, by=f"table {match.table}")
    for table in AMENDED:
        for version in range(amendments):
            with record.transaction() as tournament:
                entry = tournament.result(1, table, 45 + 5 * version, 30)
                record.add_result(
                    entry,
                    now=NOW,
                    by="director",
                    amend_reason=LONG_REASON if long_names else "scoring slip",
                )
    return record


def _printed(tmp_path: Path, *, amendments: int, long_names: bool) -> dict[str, Path]:
    """The round's sheets as the director's browser prints them, on each paper."""
    with _round_record(tmp_path / "t.db", amendments=amendments, long_names=long_names) as record:
        html = round_sheets_page(record, 1, printed_at=NOW)
    return print_on_papers(html, tmp_path)


def _pages(pdf: Path) -> list[str]:
    """Each page's words, in their places on the page."""
    return pdf_pages(pdf, layout=True)


@pytest.mark.parametrize("long_names", [False, True], ids=["short-names", "long-names"])
def test_a_round_with_amended_results_prints_a_sheet_a_page_on_a4_and_letter(
    tmp_path: Path, long_names: bool
) -> None:
    """The issue's round: 12 tables, two results amended (three times over with long names and
    reasons); 12 pages on each paper, each with its sheet's title, result and signatures."""
    amendments = 3 if long_names else 1
    for paper, pdf in _printed(tmp_path, amendments=amendments, long_names=long_names).items():
        pages = _pages(pdf)
        assert len(pages) == TABLES, f"{paper}: {len(pages)} pages for {TABLES} sheets"
        for page in pages:
            assert "Result sheet" in page and RESULT in page and "Director" in page


def test_a_sheet_too_long_for_its_page_takes_its_result_and_signatures_on_together(
    tmp_path: Path,
) -> None:
    """A result amended fourteen times with long names runs past a page even at the densest
    setting (R969): the signatures go on with the result and versions they sign, never alone
    on a page."""
    for paper, pdf in _printed(tmp_path, amendments=14, long_names=True).items():
        pages = _pages(pdf)
        assert len(pages) == TABLES + len(AMENDED), f"{paper}: {len(pages)} pages"
        for page in pages:
            if "Team A's captain" in page:
                assert RESULT in page, f"{paper}: a signature block without the result it signs"
