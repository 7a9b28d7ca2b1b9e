"""A whole tournament day run from the director's page alone (issue 21's "Done when"): 128
teams of Combo 4 over 10 rounds at 64 tables, in Playwright's chromium (the director at
1280x800, a results-staff member on a 390x844 phone), behind a real mosquitto, with results
arriving from 64 simulated tables over the delivery protocol (tests/hub_hall_helpers.py).

The director logs in, adds the results-staff account, and pairs every round from the page;
the tables hear each round's pairings from the hub and report their results; the page follows
(the tiles, the problem queue). In round 1 a table's result conflicts with the director's entry
and the director settles it from the queue, a table never reports and the results-staff member
enters its result from the phone's queue, the director amends a result with a reason and prints
the round's sheets and its wall pairings (PDF pages counted). Round 2's pairing is undone
through its confirmation and paired again. The later rounds' results come in bulk. After the
last round the director closes the tournament: the champion recorded from the page.

``make test`` plays the whole day; the screenshots (``shots``) are docs/hub/day-*.png
(scripts/make_hub_tournament_day_screenshots.py writes them there).
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_hall_helpers import Hall, hall_broker, hub_as_run, round_points
from tests.hub_helpers import Broker
from tests.hub_page_helpers import NOW, PASSWORD
from tests.test_hub_page_day_browser import MASCOTS, PLAYERS, SCHOOLS, TOURNAMENT, VENUE_ZONE

TABLES = 64
ROUNDS = 10
CONFLICT_TABLE = 5  # round 1: the director enters its sheet first, the table disagrees
SILENT_TABLE = 9  # round 1: never reports; the results staff enter its sheet
AMENDED_TABLE = 12  # round 1: the director amends its result with a reason
STAFF, STAFF_PASSWORD = "rita", "results at the desk"
SETTLE_REASON = "the sheet was misread: the table's points stand"
AMEND_REASON = "scoring slip on the sheet: game 3 was 10, not 0"
REOPEN_REASON = "table 1 reported after the close: its sheet to check"
UNDO_REASON = "paired before the late sheet was checked"


def day_record(path: Path) -> Path:
    """128 teams (32 schools, 4 teams each), 10 rounds of Combo 4, nothing paired yet; the
    director's password set."""
    draw = random.Random(21)
    teams = tuple(
        Entrant(f"{school} {mascot}", school, tuple(draw.sample(PLAYERS, 3)))
        for school in SCHOOLS
        for mascot in MASCOTS
    )
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=ROUNDS)
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        record.set_venue(name=TOURNAMENT, time_zone=VENUE_ZONE, now=NOW, by="director")
    store_password(path, PASSWORD)
    return path


@pytest.fixture
def hall_of_64(tmp_path: Path) -> Iterator[Broker]:
    """The shipped broker config with the hub's account and one for each of 64 tables."""
    running = hall_broker(tmp_path / "broker", TABLES)
    try:
        yield running
    finally:
        running.stop()


@dataclass
class Seen:
    """What the director and the results-staff member saw through the day."""

    notices: list[str] = field(default_factory=list)
    tile_paired: str = ""  # table 1's tile once round 1 is paired
    tile_teams: tuple[str, str] = ("", "")  # table 1's match as the table heard it
    find_height: float = 0.0  # the grid's "Find" box, in CSS pixels
    tile_reported: str = ""  # table 3's tile once its result is in
    queue_before: str = ""  # the problem queue once round 1's reports are in
    queue_after: str = ""  # and once the conflict and the missing result are settled
    phone_queue: str = ""
    sheet_pages: int = 0
    wall_pages: int = 0
    undo_question: str = ""
    close_question: str = ""
    closed: str = ""
    late_report: str = ""  # a table's result arriving after the close, in the queue (R850)
    reopened: str = ""
    closed_again: str = ""
    rounds_paired: int = 0
    seconds: float = 0.0


def _pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    (pages,) = [line for line in info.stdout.splitlines() if line.startswith("Pages:")]
    return int(pages.split()[1])


async def _notice(page: Page, says: str) -> str:
    notice = page.locator(".notice")
    await expect(notice).to_contain_text(says, timeout=WAIT_MS)
    return await notice.inner_text()


async def _log_in(page: Page, base: str, password: str, name: str = "") -> None:
    await page.goto(f"{base}/login")
    if name:
        await page.fill("#name", name)
    await page.fill("#password", password)
    await page.click("#login-form button")
    await expect(page.locator("#tables")).to_be_visible(timeout=WAIT_MS)


async def _pair(director: Page, base: str, number: int) -> str:
    await director.goto(base)
    await director.click("#pair-form button")
    return await _notice(director, f"round {number} paired: {TABLES} matches")


async def _enter(
    director: Page, round_number: int, table: int, points: tuple[int, int], reason: str = ""
) -> None:
    a, b = points
    form = director.locator("#result-form")
    await form.locator("[name=round]").fill(str(round_number))
    await form.locator("[name=table]").fill(str(table))
    await form.locator("[name=a_points]").fill(str(a))
    await form.locator("[name=b_points]").fill(str(b))
    if reason:
        await form.locator("[name=reason]").fill(reason)
    await form.locator("button").click()


async def _all_in(page: DirectorPage, round_number: int) -> None:
    """Until the record holds a result for every match of the round (the hub applies them)."""
    deadline = time.monotonic() + 60
    while True:
        entered = {r.table for r in page.record.load().results if r.round == round_number}
        if len(entered) == TABLES:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"round {round_number}: {len(entered)} of {TABLES} results in")
        await asyncio.sleep(0.2)


async def _print(director: Page, url: str, pdf: Path) -> int:
    await director.goto(url)
    await director.pdf(path=str(pdf), format="A4")
    return _pdf_pages(pdf)


async def a_tournament_day(broker: Broker, record_path: Path, shots: Path) -> Seen:
    seen = Seen()
    started = time.monotonic()
    hall = Hall(broker, TABLES)
    try:
        async with hub_as_run(broker, record_path) as page, async_playwright() as playwright:
            base = f"http://127.0.0.1:{page.port}"
            await hall.online()
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            director = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await _log_in(director, base, PASSWORD)

            # the results desk's account, added from the page
            await director.goto(f"{base}/staff")
            await director.fill("#staff-form [name=name]", STAFF)
            await director.select_option("#staff-form [name=role]", "results")
            await director.fill("#staff-form [name=password]", STAFF_PASSWORD)
            await director.click("#staff-form button")
            seen.notices.append(await _notice(director, f"{STAFF} added"))

            # round 1: paired from the page; the tables hear it
            seen.notices.append(await _pair(director, base, 1))
            matches = await hall.paired(1)
            tile = director.locator("#table-1")
            await expect(tile).to_contain_text(matches[1].a, timeout=WAIT_MS)
            seen.tile_paired = await tile.inner_text()
            seen.tile_teams = (matches[1].a, matches[1].b)
            found = await director.locator("#tile-search").bounding_box()
            seen.find_height = 0.0 if found is None else found["height"]
            await director.screenshot(path=str(shots / "day-paired-1280.png"))

            # the director enters table 5's sheet before the table reports
            points = round_points(1, TABLES)
            a, b = points[CONFLICT_TABLE]
            await _enter(director, 1, CONFLICT_TABLE, (b, a))  # the sheet misread: A and B swapped
            seen.notices.append(await _notice(director, f"round 1 table {CONFLICT_TABLE}"))

            # the tables report; table 9 stays silent
            del points[SILENT_TABLE]
            await hall.report(1, points)
            await until_tile(director, 3, f"A {points[3][0]} B {points[3][1]}")
            seen.tile_reported = await director.locator("#table-3").inner_text()
            await _until_queue(director, base, "Conflict")
            seen.queue_before = await director.locator("#problems").inner_text()
            await director.screenshot(path=str(shots / "day-following-1280.png"))

            # the conflict, settled from the queue: amended to the table's points
            conflict = director.locator("li.problem.conflict")
            await conflict.get_by_role("link", name="Amend to the table's points").click()
            form = director.locator("#result-form")
            await expect(form.locator("[name=a_points]")).to_have_value(str(a), timeout=WAIT_MS)
            await form.locator("[name=reason]").fill(SETTLE_REASON)
            await form.scroll_into_view_if_needed()
            await director.screenshot(path=str(shots / "day-settle-1280.png"))
            await form.locator("button").click()
            seen.notices.append(await _notice(director, "amended, version 2"))

            # the silent table's sheet, entered at the results desk from a phone
            phone = await (await browser.new_context(viewport=PHONE)).new_page()
            await _log_in(phone, base, STAFF_PASSWORD, STAFF)
            await phone.goto(f"{base}/problems")
            missing = phone.locator("li.problem.missing")
            await expect(missing).to_contain_text("1 of 64 results missing", timeout=WAIT_MS)
            seen.phone_queue = await phone.locator("#problems").inner_text()
            await phone.screenshot(path=str(shots / "day-missing-390.png"))
            await missing.locator("summary").click()
            await missing.get_by_role("link", name=str(SILENT_TABLE), exact=True).click()
            phone_form = phone.locator("#result-form")
            await expect(phone_form.locator("[name=table]")).to_have_value(str(SILENT_TABLE))
            await phone_form.locator("[name=a_points]").fill("45")
            await phone_form.locator("[name=b_points]").fill("30")
            await phone_form.scroll_into_view_if_needed()
            await phone.screenshot(path=str(shots / "day-enter-390.png"))
            await phone_form.locator("button").click()
            seen.notices.append(await _notice(phone, f"round 1 table {SILENT_TABLE}"))

            # an amendment with its reason
            await director.goto(base)
            a, b = points[AMENDED_TABLE]
            await _enter(director, 1, AMENDED_TABLE, (a + 10, b), AMEND_REASON)
            seen.notices.append(await _notice(director, "amended, version 2"))
            await _until_queue(director, base, "")
            seen.queue_after = await director.locator("#problems-title").inner_text()

            # the round's prints
            seen.sheet_pages = await _print(
                director, f"{base}/print/round/1/sheets", shots / "sheets.pdf"
            )
            seen.wall_pages = await _print(
                director, f"{base}/print/round/1/pairings", shots / "wall.pdf"
            )

            # round 2: paired, undone through its confirmation, paired again
            seen.notices.append(await _pair(director, base, 2))
            await hall.paired(2)
            await director.click("#undo-link")
            question = director.locator("#undo-title")
            await expect(question).to_be_visible(timeout=WAIT_MS)
            seen.undo_question = await question.inner_text()
            await director.fill("#undo-form [name=reason]", UNDO_REASON)
            await director.screenshot(path=str(shots / "day-undo-1280.png"))
            await director.click("#undo-form button")
            seen.notices.append(await _notice(director, "round 2's pairing undone"))
            await hall.withdrawn(2)

            # rounds 2 to 10: paired from the page, the results in bulk from the tables
            for number in range(2, ROUNDS + 1):
                seen.notices.append(await _pair(director, base, number))
                await hall.paired(number)
                await hall.report(number, round_points(number, TABLES))
                await _all_in(page, number)
            seen.rounds_paired = len(page.record.rounds())

            # the end of the day: closed from the page, the champion recorded
            await director.goto(base)
            await director.click("#close-link")
            close = director.locator("#close-title")
            await expect(close).to_be_visible(timeout=WAIT_MS)
            seen.close_question = await close.inner_text()
            await director.screenshot(path=str(shots / "day-close-1280.png"), full_page=True)
            await director.locator("#close-form input[name=champion]").first.check()
            await director.click("#close-form button")
            seen.notices.append(await _notice(director, "the tournament is closed"))
            seen.closed = await director.locator("#closed").inner_text()
            await director.locator("#closed").scroll_into_view_if_needed()
            await director.screenshot(path=str(shots / "day-closed-1280.png"))
            await phone.goto(f"{base}/public")
            await phone.screenshot(path=str(shots / "day-closed-public-390.png"))

            # a table's result after the close: nothing changes, it waits in the queue (R850)
            await hall.report(ROUNDS, {1: (0, 0)})
            await _until_queue(director, base, "Conflict")
            seen.late_report = await director.locator("#problems .problem.conflict").inner_text()
            # reopened with a reason, from the championship page, and closed again
            await director.goto(f"{base}/close")
            await director.screenshot(path=str(shots / "day-reopen-1280.png"))
            await director.fill("#reopen-form [name=reason]", REOPEN_REASON)
            await director.click("#reopen-form button")
            seen.reopened = await _notice(director, "the tournament is reopened")
            await director.goto(f"{base}/close")
            await director.locator("#close-form input[name=champion]").first.check()
            await director.click("#close-form button")
            seen.closed_again = await _notice(director, "the tournament is closed")
            await browser.close()
    finally:
        hall.close()
    seen.seconds = time.monotonic() - started
    return seen


async def until_tile(director: Page, table: int, says: str) -> None:
    await expect(director.locator(f"#table-{table}")).to_contain_text(says, timeout=WAIT_MS)


async def _until_queue(director: Page, base: str, kind: str) -> None:
    """Reload the page until the queue shows a problem of ``kind`` ("" for none at all)."""
    deadline = time.monotonic() + 30
    while True:
        await director.goto(base)
        count = await director.locator("#problem-count").inner_text()
        shown = await director.locator("#problems").inner_text()
        if (kind and kind in shown) or (not kind and count.strip() == "0"):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the queue never showed {kind or 'nothing'}: {shown!r}")
        await asyncio.sleep(0.3)


def test_a_director_runs_a_ten_round_day_of_128_teams_from_the_page_alone(
    hall_of_64: Broker, tmp_path: Path
) -> None:
    record_path = day_record(tmp_path / "day.db")
    seen = asyncio.run(a_tournament_day(hall_of_64, record_path, tmp_path))
    print(f"the day took {seen.seconds:.1f} s; sheets {seen.sheet_pages} pages")
    assert seen.rounds_paired == ROUNDS
    assert "Conflict" in seen.queue_before and "Results missing" in seen.queue_before
    assert seen.queue_after.startswith("Problems 0")
    assert "1 of 64 results missing" in seen.phone_queue
    assert seen.sheet_pages == TABLES
    assert seen.wall_pages >= 2
    assert seen.undo_question.startswith("Undo round 2's pairing? 64 tables")
    assert seen.close_question.startswith("Close the tournament? The championship:")
    a_team, b_team = seen.tile_teams
    assert 20 < seen.find_height < 60  # one line, not the public search's 12rem
    assert f"online\nA {a_team}\nB {b_team}" in seen.tile_paired
    reported_a, reported_b = round_points(1, TABLES)[3]
    assert f"A {reported_a} B {reported_b}" in seen.tile_reported  # the table's own score
    assert seen.notices[:2] == ["rita added (results)", "round 1 paired: 64 matches"]
    assert any(n.startswith("round 2's pairing undone: 64 matches") for n in seen.notices)
    assert seen.notices.count("round 2 paired: 64 matches") == 2
    assert seen.notices[-1].startswith("the tournament is closed: ")
    a, b = round_points(1, TABLES)[CONFLICT_TABLE]
    with TournamentDB.open(record_path) as record:
        settled = record.result_history(1, CONFLICT_TABLE)
        assert [(e.entered_by, e.a_points, e.b_points, e.reason) for e in settled] == [
            ("director", b, a, None),  # the sheet, misread
            ("director", a, b, SETTLE_REASON),  # amended to the table's points, from the queue
        ]
        silent = record.current_result(1, SILENT_TABLE)
        assert silent is not None and (silent.entered_by, silent.version) == (STAFF, 1)
        amended = record.result_history(1, AMENDED_TABLE)
        assert [(e.entered_by, e.reason) for e in amended] == [
            (f"table {AMENDED_TABLE}", None),
            ("director", AMEND_REASON),
        ]
        assert record.current_result(3, 7).entered_by == "table 7"  # type: ignore[union-attr]
        tournament = record.load()
        assert tournament.complete and len(tournament.results) == ROUNDS * TABLES
        champion = record.champion()
        assert champion is not None and seen.closed.startswith(f"Closed: {champion} is the")
        assert [(r.reopened_by, r.reason) for r in record.reopenings()] == [
            ("director", REOPEN_REASON)
        ]
        assert record.current_result(ROUNDS, 1).entered_by == "table 1"  # type: ignore[union-attr]
        assert champion in tournament.qualification().finalists  # type: ignore[operator]
    assert "the table reports 0-0, not applied: the tournament is closed" in seen.late_report
    assert seen.reopened.startswith("the tournament is reopened: ")
    assert seen.closed_again.startswith("the tournament is closed: ")
