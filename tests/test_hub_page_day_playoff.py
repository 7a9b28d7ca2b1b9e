"""The end of a tournament day with a playoff, in a real browser (Playwright driving Debian's
chromium), from the director's page alone (issue 26): eight teams tie for the championship's
two places; the director records a playoff game; a table then corrects its own result (more
points, the same winner: the hub records it on its own, R173), which seeds the playoff
differently, so the playoff stops (R960) and the queue says so; the director voids it from the
page with a reason, plays it again and closes the tournament. Then a reopening: reopened with a
reason, a result amended from the page, the playoff stopped again, voided, played, closed
again. The hall's screen shows the playoff and the champion, each inside 1920x1080.

The screenshots are docs/hub/playoff-*.png and projector-champion-1920.png
(scripts/make_hub_playoff_screenshots.py writes them there).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, Qualify, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, LAPTOP, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, director_page
from tests.test_hub_page_day_browser import (
    PROJECTOR,
    SCHOOLS,
    SMALL_PROJECTOR,
    TOURNAMENT,
    VENUE_ZONE,
)
from tests.test_hub_page_problems import LATER, reported

TEAMS = tuple(f"{school} {mascot}" for school in SCHOOLS[:8] for mascot in ("Owls", "Foxes"))
TABLES = len(TEAMS) // 2
VOID_REASON = "a table corrected its round 1 sheet after game 1"
REOPEN_REASON = "Adams Owls' sheet to check again after the close"
AMEND_REASON = "the sheet added up again: 20 points more, the same winner"


def playoff_record(path: Path) -> Path:
    """Sixteen teams of Combo 4, one round qualifying by wins, round 1 reported by its eight
    tables through the hub: the eight winners tie for the championship's two places (a
    Border-Up playoff of seven games); the director's password set."""
    teams = tuple(Entrant(name, name.split()[0], ()) for name in TEAMS)
    config = new_config(TournamentFormat.COMBO4, seed=26, rounds=1, qualify=Qualify.WINS)
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        record.set_venue(name=TOURNAMENT, time_zone=VENUE_ZONE, now=NOW, by="director")
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        record.upgrade_for_hub()
        for table in range(1, TABLES + 1):
            apply_result(record, table, reported(table, 1, 20 + 10 * table, 10), now=NOW)
    store_password(path, PASSWORD)
    return path


@dataclass
class Seen:
    """What the director and the hall's screen showed."""

    bracket_rows: list[str] = field(default_factory=list)  # /close after game 1
    queue: str = ""  # the problem queue once a table corrected its result
    stopped: str = ""  # /close's line then
    forms_when_stopped: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    projector_fits: dict[str, bool] = field(default_factory=dict)
    stopped_again: str = ""  # after the reopening's amendment
    champions: list[str] = field(default_factory=list)


async def _notice(page: Page, says: str) -> str:
    notice = page.locator(".notice")
    await expect(notice).to_contain_text(says, timeout=WAIT_MS)
    return await notice.inner_text()


async def _play_the_playoff(director: Page, base: str) -> None:
    """Every game from /close, its higher seed (the first choice) winning, until Close."""
    while True:
        await director.goto(f"{base}/close")
        if await director.locator("#close-form").count():
            return
        await director.locator("#playoff-form input[name=winner]").first.check()
        await director.click("#playoff-form button")
        await _notice(director, "won;")


async def _void(director: Page, reason: str, shot: Path | None = None) -> str:
    await director.fill("#void-form [name=reason]", reason)
    if shot is not None:
        await _shot(director, shot)
    await director.click("#void-form button")
    return await _notice(director, "the playoff voided")


async def _close(director: Page, base: str) -> str:
    await director.goto(f"{base}/close")
    await director.locator("#close-form input[name=champion]").first.check()
    await director.click("#close-form button")
    return await _notice(director, "the tournament is closed")


async def _shot(page: Page, png: Path) -> None:
    await page.screenshot(path=str(png), full_page=True)


async def _fits(screen: Page) -> bool:
    return bool(
        await screen.evaluate(
            "() => document.documentElement.scrollHeight <= innerHeight"
            " && document.documentElement.scrollWidth <= innerWidth"
        )
    )


def _lowest_seed_table(record: TournamentDB) -> tuple[int, tuple[int, int]]:
    """The table whose winner is the playoff's lowest seed now, and its points."""
    playoff = record.load().qualification().playoff
    assert playoff is not None
    lowest = playoff.seeds[-1]
    (result,) = [r for r in record.load().results if lowest in (r.a, r.b)]
    return result.table, (result.a_points, result.b_points)


async def a_playoff_day(record_path: Path, shots: Path) -> Seen:
    seen = Seen()
    with TournamentDB.open(record_path) as record:
        page = director_page(record)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                director = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await director.goto(f"{base}/login")
                await director.fill("#password", PASSWORD)
                await director.click("#login-form button")
                await expect(director.locator("#tables")).to_be_visible(timeout=WAIT_MS)

                # game 1 of the playoff, from /close
                await director.click("#close-link")
                await director.locator("#playoff-form input[name=winner]").first.check()
                await director.click("#playoff-form button")
                seen.notices.append(await _notice(director, "playoff game"))
                seen.bracket_rows = await director.locator(
                    "table.bracket tbody tr"
                ).all_inner_texts()
                await director.screenshot(
                    path=str(shots / "playoff-bracket-1280.png"), full_page=True
                )

                # a table corrects its own result: the same winner, more points (R173)
                table, (a, b) = _lowest_seed_table(record)
                corrected = apply_result(record, table, reported(table, 2, a + 100, b), now=LATER)
                assert corrected.event is not None and corrected.event.outcome == "amended"
                await director.goto(base)
                problem = director.locator("#problems li.problem", has_text="Playoff stopped")
                await expect(problem).to_be_visible(timeout=WAIT_MS)
                seen.queue = await problem.inner_text()
                await problem.get_by_role("link", name="The championship page").click()
                seen.stopped = await director.locator("#playoff-stopped p").first.inner_text()
                seen.forms_when_stopped = [
                    str(await form.get_attribute("id"))
                    for form in await director.locator("form").all()
                ]
                seen.notices.append(
                    await _void(director, VOID_REASON, shots / "playoff-stopped-1280.png")
                )

                # played again from the standings as they are, and closed
                await _play_the_playoff(director, base)
                await director.screenshot(
                    path=str(shots / "playoff-close-1280.png"), full_page=True
                )
                seen.champions.append(await _close(director, base))

                screen = await (await browser.new_context(viewport=PROJECTOR)).new_page()
                await screen.goto(f"{base}/projector?page=1")
                seen.projector_fits["champion"] = await _fits(screen)
                await screen.screenshot(path=str(shots / "projector-champion-1920.png"))
                await screen.goto(f"{base}/projector?page=2")
                seen.projector_fits["playoff"] = await _fits(screen)
                await screen.screenshot(path=str(shots / "projector-playoff-1920.png"))

                # reopened, a result amended from the page, the playoff stopped again
                await director.goto(f"{base}/close")
                await director.fill("#reopen-form [name=reason]", REOPEN_REASON)
                await director.click("#reopen-form button")
                seen.notices.append(await _notice(director, "the tournament is reopened"))
                table, (a, b) = _lowest_seed_table(record)
                form = director.locator("#result-form")
                await form.locator("[name=round]").fill("1")
                await form.locator("[name=table]").fill(str(table))
                await form.locator("[name=a_points]").fill(str(a + 200))
                await form.locator("[name=b_points]").fill(str(b))
                await form.locator("[name=reason]").fill(AMEND_REASON)
                await form.locator("button").click()
                seen.notices.append(await _notice(director, "amended, version"))
                await director.goto(f"{base}/close")
                seen.stopped_again = await director.locator("#stopped-title").inner_text()
                seen.notices.append(await _void(director, AMEND_REASON))
                await _play_the_playoff(director, base)
                seen.champions.append(await _close(director, base))
                await browser.close()
        finally:
            await page.stop()
    return seen


def test_a_playoff_stopped_by_a_change_is_voided_played_again_and_closed_from_the_page(
    tmp_path: Path,
) -> None:
    record_path = playoff_record(tmp_path / "playoff.db")
    seen = asyncio.run(a_playoff_day(record_path, tmp_path))
    rows = [row.split("\t") for row in seen.bracket_rows]
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5", "6", "7"]
    assert rows[0][3] in rows[0][1].split(" v ")  # game 1, its two teams and its winner
    assert rows[1][3] == "to play" and rows[2][1].endswith(" v the winner of game 2")
    assert "The playoff stopped: playoff game 1 was played as" in seen.queue
    assert seen.stopped.startswith("Playoff game 1 was played as")
    assert seen.forms_when_stopped == ["void-form"]  # no next game, no Close
    assert seen.notices[1].startswith("the playoff voided (1 game, kept in the record)")
    assert seen.projector_fits == {"champion": True, "playoff": True}
    assert seen.stopped_again.startswith("The playoff stopped: game 1")
    assert [c.startswith("the tournament is closed: ") for c in seen.champions] == [True, True]
    with TournamentDB.open(record_path) as record:
        exported = record.export()
        assert record.champion() is not None
        assert len(record.playoff_games()) == 7
    assert [(v["games"], v["voided_by"], v["reason"]) for v in exported["playoff_voids"]] == [
        (1, "director", VOID_REASON),
        (7, "director", AMEND_REASON),
    ]
    assert [r["reason"] for r in exported["reopenings"]] == [REOPEN_REASON]


LONGEST = "Wwwwwwwwww Wwwwwwwwww Wwwwwwwwww Wwwwwwwww"  # 40 characters, a team name's most
LONG_TOURNAMENT = "The Lincoln County Academic Games League's Spring Invitational Tournament 2026"


async def _champion_screens(path: Path) -> dict[str, tuple[bool, str]]:
    """The champion's screen at 1920x1080 and 1280x720: whether it fits, and its header."""
    with TournamentDB.open(path) as record:
        page = director_page(record)
        await page.start()
        seen = {}
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                for size in (PROJECTOR, SMALL_PROJECTOR):
                    screen = await (await browser.new_context(viewport=size)).new_page()
                    await screen.goto(f"http://127.0.0.1:{page.port}/projector?page=1")
                    header = await screen.locator("header").inner_text()
                    seen[f"{size['width']}"] = (await _fits(screen), header)
                await browser.close()
        finally:
            await page.stop()
    return seen


def test_a_champion_of_40_characters_fits_the_hall_screen_at_both_sizes(tmp_path: Path) -> None:
    teams = tuple(Entrant(name, name, ()) for name in (LONGEST, "Borders", "Rivers", "Peaks"))
    config = new_config(TournamentFormat.COMBO4, seed=1, rounds=1)
    path = tmp_path / "long.db"
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        record.set_venue(name=LONG_TOURNAMENT, now=NOW, by="director")
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        with record.transaction() as tournament:
            for match in tournament.rounds[0].matches:
                a, b = (20, 40) if match.b == LONGEST else (40, 20)
                record.add_result(tournament.result(1, match.table, a, b), now=NOW, by="d")
        record.set_champion(LONGEST, now=NOW, by="director")
    seen = asyncio.run(_champion_screens(path))
    assert {size: fits for size, (fits, _) in seen.items()} == {"1920": True, "1280": True}
    assert all(header.rstrip().endswith("· 1/3") for _, header in seen.values())
