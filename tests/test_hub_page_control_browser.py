"""The control room in a real browser (Playwright driving Debian's chromium) with a hall of 200
tables: three publish through a real mosquitto to the hub, the other 197 are put on the hub's
board directly (as the hub puts what it hears). The director sees the problems first, the
tiles sorted by what needs attention, finds a team, filters the offline tables, settles a
conflict from the queue's link; the same page on a phone (390x844). Its screenshots, in the
test's own directory, are docs/hub/control-1280.png and docs/hub/control-390.png."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.hub.wire.service import utc_now
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from firmware_py.table.hub_wire import Decision, state_topic, status_topic
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_helpers import Broker, Peer
from tests.hub_page_helpers import PASSWORD, add_staff, state
from tests.test_hub_page_problems import hub_and_page

TABLES = 200
BY_BROKER = (1, 2, 3)  # through mosquitto (the test broker's accounts); the others directly
OFFLINE, STUCK, UNSAVED, SILENT, CONFLICT, REFUSED = 17, 3, 58, 73, 120, 88
STUCK_SCREEN = {"title": "G2", "big": "", "lines": [], "footer": "", "alert": "STUCK A.stand"}
ADJECTIVES = ("Blue", "Red", "Swift", "Bold", "Quiet", "Bright", "Iron", "Silver", "Golden",
              "Wild", "North", "South", "East", "West", "High", "Deep", "Lone", "Lucky", "Brave",
              "Clever")  # fmt: skip
MASCOTS = ("Eagles", "Hawks", "Owls", "Ravens", "Foxes", "Bears", "Wolves", "Otters", "Lions",
           "Tigers", "Herons", "Badgers", "Falcons", "Comets", "Rockets", "Pilots", "Rivers",
           "Borders", "Mapmakers", "Scholars")  # fmt: skip


def minutes_ago(minutes: float) -> str:
    """A time on the record's clock (the hub's: UTC, to the second), ``minutes`` ago."""
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


def hall_record(path: Path) -> Path:
    """400 teams, round 1 paired at tables 1 to 200; tables 101 to 200 have their result."""
    teams = tuple(
        Entrant(f"{adjective} {mascot}", f"School {n % 37 + 1}", ())
        for n, (adjective, mascot) in enumerate((a, m) for a in ADJECTIVES for m in MASCOTS)
    )
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=4)
    made, paired, entered = minutes_ago(90), minutes_ago(50), minutes_ago(25)
    with TournamentDB.create(path, config, teams, now=made, by="director") as record:
        record.upgrade_for_hub()
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=paired, by="director")
        with record.transaction() as tournament:
            for table in range(101, TABLES + 1):
                result = tournament.result(1, table, 40, 20 + table % 3 * 5)
                record.add_result(result, now=entered, by="director", source=DIRECTOR_SOURCE)
    store_password(path, PASSWORD)
    return path


def table_reports(
    record: TournamentDB, table: int, seq: int, points: tuple[int, int], *, minutes: float
) -> None:
    """Table ``table``'s result as the hub applies it, ``minutes`` ago."""
    session = {"action": "match.start", "round": 1, "minutes": 20}
    a, b = points
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    at = minutes_ago(minutes)
    decision = Decision("5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a", seq, at, session, event)
    apply_result(record, table, decision, now=at)


def fill_the_board(page: DirectorPage) -> None:
    """Every table but those on the broker: playing (1-100), done (101-200), and the faults."""
    now = time.time()
    for table in range(1, TABLES + 1):
        if table in BY_BROKER:
            continue
        playing = table <= 100
        page.board.take_status(table, b"offline" if table == OFFLINE else b"online", now - 90)
        heard = now - 400 if table == SILENT else now - table % 50
        seconds = 59 - table % 60
        changes = {
            "in_game": playing,
            "clock": f"{table % 20}:{seconds:02d}" if playing else None,
            "game": f"G{table % 4 + 1} Border-Up" if playing else "Match over",
            "scores": {"A": table % 9 * 5, "B": table % 7 * 5},
            "saved": table != UNSAVED,
        }
        page.board.take_state(table, state(table, **changes), heard)
    page.refusals.add(
        131, None, None, "a decision that is not JSON: expected a JSON object", now - 180
    )
    page.changed()


@dataclass
class Seen:
    counted: str
    first_tiles: list[str]
    stuck_tile: str
    found: list[str]
    found_count: str
    offline: list[str]
    form: dict[str, str]
    conflicts_after: int
    phone_overflow: int
    phone_queue: list[str]  # the viewer's queue: its links
    search_height: float  # px: the grid's search box on the laptop
    phone_more: str  # under the phone's queue: how many problems show
    phone_all: tuple[str, int, int]  # after "Show all": the line, the items shown, in all


async def visible_tiles(page: Page) -> list[str]:
    tiles = page.locator("#tables .tile:not([hidden])")
    return [str(await tile.get_attribute("id")) for tile in await tiles.all()]


async def the_control_room(broker: Broker, record_path: Path, shots: Path) -> Seen:
    tables = {n: Peer(broker, str(n), will=(status_topic(n), "offline")) for n in BY_BROKER}
    try:
        async with (
            hub_and_page(broker, record_path, utc_now) as page,
            async_playwright() as playwright,
        ):
            table_reports(page.record, CONFLICT, 1, (40, 30), minutes=12)  # the record: 40-20
            table_reports(page.record, REFUSED, 2, (43, 20), minutes=8)  # not a multiple of 5
            fill_the_board(page)
            for number, peer in tables.items():
                await asyncio.to_thread(peer.publish, status_topic(number), "online", retain=True)
                await asyncio.to_thread(
                    peer.publish, state_topic(number), state(number), retain=True
                )
            base = f"http://127.0.0.1:{page.port}"
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            director = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await director.goto(f"{base}/login")
            await director.fill("#password", PASSWORD)
            await director.click("form button")
            await expect(director.locator("#tile-count")).to_have_text(
                f"{TABLES} of {TABLES} tables", timeout=WAIT_MS
            )
            counted = await director.locator("#tile-count").inner_text()
            search_height = await director.locator("#tile-search").evaluate(
                "box => box.getBoundingClientRect().height"
            )
            await expect(director.locator("#table-1")).to_contain_text("12:41", timeout=WAIT_MS)
            # a name the tile may cut with "…" is whole in its title (an outside audit, issue 21)
            first_team = director.locator("#table-1 .team").first
            shown_team = (await first_team.inner_text()).removeprefix("A ")
            assert await first_team.get_attribute("title") == shown_team

            # live, through the broker: table 3's button sticks, table 2 vanishes (its will)
            stuck = state(STUCK, screen=STUCK_SCREEN, clock="9:12")
            await asyncio.to_thread(tables[STUCK].publish, state_topic(STUCK), stuck, retain=True)
            vanished = tables[2].client.socket()
            assert vanished is not None
            vanished.close()
            await expect(director.locator(f"#table-{STUCK} .chip")).to_have_text(
                "STUCK A.stand", timeout=WAIT_MS
            )
            await expect(director.locator("#table-2 .chip")).to_have_text(
                "OFFLINE", timeout=WAIT_MS
            )
            await director.wait_for_timeout(600)  # the grid rearranges at most 4 times a second
            first_tiles = (await visible_tiles(director))[:8]
            stuck_tile = await director.locator(f"#table-{STUCK}").inner_text()
            await director.screenshot(path=str(shots / "control-1280.png"))

            # find a team
            team = (await page_match(page, 150))[1]
            await director.fill("#tile-search", team.lower())
            await expect(director.locator("#tile-count")).to_have_text(
                f"1 of {TABLES} tables", timeout=WAIT_MS
            )
            found = await visible_tiles(director)
            found_count = await director.locator("#tile-count").inner_text()
            await director.fill("#tile-search", "")
            await director.select_option("#tile-problem", "offline")
            await expect(director.locator("#tile-count")).to_have_text(
                f"2 of {TABLES} tables", timeout=WAIT_MS
            )
            offline = await visible_tiles(director)
            await director.select_option("#tile-problem", "")

            # settle the conflict from the queue: the link fills the form with the table's points
            conflict = director.locator("#problems .problem.conflict")
            await conflict.get_by_role("link", name="Amend to the table's points").click()
            form = director.locator("#result-form")
            await expect(form.locator("[name=b_points]")).to_have_value("30", timeout=WAIT_MS)
            filled = {
                name: await form.locator(f"[name={name}]").input_value()
                for name in ("round", "table", "a_points", "b_points")
            }
            await form.locator("[name=reason]").fill("the sheet, signed: 40-30")
            await form.locator("button").click()
            await expect(director.locator(".notice")).to_contain_text("amended", timeout=WAIT_MS)
            conflicts_after = await director.locator("#problems .problem.conflict").count()

            # a viewer on a phone: the same grid, read only (R811)
            password = add_staff(page.record, "vic", Role.VIEWER)
            phone = await (await browser.new_context(viewport=PHONE)).new_page()
            await phone.goto(base)  # sent to the login, and back after it (R816)
            await phone.fill("#name", "vic")
            await phone.fill("#password", password)
            await phone.click("#login-form button")
            await expect(phone.locator("#tile-count")).to_have_text(
                f"{TABLES} of {TABLES} tables", timeout=WAIT_MS
            )
            await expect(phone.locator(f"#table-{STUCK}")).to_contain_text("STUCK", timeout=WAIT_MS)
            await phone.wait_for_timeout(600)
            phone_queue = [
                str(await link.get_attribute("href"))
                for link in await phone.locator("#problems .problem.refused a").all()
            ]
            overflow = await phone.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            more = phone.locator("#problems-more")
            await expect(more).to_be_visible(timeout=WAIT_MS)
            phone_more = await more.inner_text()
            await phone.screenshot(path=str(shots / "control-390.png"))
            await phone.click("#problems-all")
            await expect(more).to_contain_text("all shown", timeout=WAIT_MS)
            phone_all = (
                await more.inner_text(),
                await phone.locator("#problems > li").evaluate_all(
                    "items => items.filter(item => item.getBoundingClientRect().bottom"
                    " <= item.closest('ol').getBoundingClientRect().bottom + 1).length"
                ),
                await phone.locator("#problems > li").count(),
            )
            await browser.close()
            return Seen(
                counted,
                first_tiles,
                stuck_tile,
                found,
                found_count,
                offline,
                filled,
                conflicts_after,
                int(overflow),
                phone_queue,
                float(search_height),
                phone_more,
                phone_all,
            )
    finally:
        for peer in tables.values():
            peer.close()


async def page_match(page: DirectorPage, table: int) -> tuple[str, str]:
    match = page.record.paired_match(1, table)
    assert match is not None
    return match.a, match.b


def test_the_director_runs_a_hall_of_200_tables_from_the_control_room(
    broker: Broker, tmp_path: Path
) -> None:
    record_path = hall_record(tmp_path / "hall.db")
    seen = asyncio.run(the_control_room(broker, record_path, tmp_path))
    assert seen.counted == "200 of 200 tables"
    # what needs attention first: the tables with a problem, worst kind first (R802)
    problem_tables = {CONFLICT, REFUSED, 131, UNSAVED, STUCK, OFFLINE, 2, SILENT}
    assert {int(tile.removeprefix("table-")) for tile in seen.first_tiles} == problem_tables
    assert seen.first_tiles[0] == f"table-{CONFLICT}"
    assert "STUCK A.stand" in seen.stuck_tile and " v " not in seen.stuck_tile
    with TournamentDB.open(record_path) as record:
        match = record.paired_match(1, STUCK)
        assert match is not None
        assert f"A {match.a}" in seen.stuck_tile and f"B {match.b}" in seen.stuck_tile
    assert seen.found == ["table-150"] and seen.found_count == "1 of 200 tables"
    assert sorted(seen.offline) == ["table-17", "table-2"]
    assert seen.form == {"round": "1", "table": str(CONFLICT), "a_points": "40", "b_points": "30"}
    assert seen.conflicts_after == 0
    assert seen.phone_overflow <= 0
    # one line, as tall as the filters beside it (the public page's search styles not on it)
    assert seen.search_height < 60
    # the viewer reads the refused result, with no link to a form they cannot use (R811)
    assert seen.phone_queue == [f"/sheet/1/{REFUSED}", f"/tables/{REFUSED}"]
    # the phone's queue scrolls in a box: it says how many show, and shows them all on a tap
    said = re.fullmatch(
        r"(\d+) problems, (\d+) shown(?:, 1 in part)?: "
        r"scroll the list for the rest, or Show all \1",
        seen.phone_more,
    )
    assert said is not None, seen.phone_more
    total, shown = said.groups()
    assert 0 < int(shown) < int(total)
    assert seen.phone_all == (f"{total} problems, all shown Show fewer", int(total), int(total))
    for shot in ("control-1280.png", "control-390.png"):
        assert (tmp_path / shot).stat().st_size > 10_000
