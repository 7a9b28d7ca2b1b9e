"""The page of a day of several events (issue 27, R1140-R1144): each event's pages under
/events/<slug>, the day at a glance, one login for the day, accounts of one event, tables moved
between events, the public page and the projectors by event."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.changes import enter_result
from firmware_py.director.hub.page.within import inside, rooted_within
from firmware_py.director.hub.staff import StaffRecord
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import OFFLINE, ONLINE
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import (
    NOW,
    NOW_SHOWN,
    PASSWORD,
    csrf_of,
    error_line,
    log_in,
    origin,
    state,
)
from tests.test_hub_page_close import _play_out

JUNIOR, SENIOR = (slug for slug, _ in EVENTS)
HTML = {"Accept": "text/html"}


def result(csrf: str, table: int = 1) -> dict[str, str]:
    return {"csrf": csrf, "round": "1", "table": str(table), "a_points": "40", "b_points": "30"}


async def add_account(
    client: TestClient[Any, Any], csrf: str, name: str, role: str, event: str = ""
) -> ClientResponse:
    form = {
        "csrf": csrf,
        "name": name,
        "role": role,
        "event": event,
        "password": f"{name} pass 123",
    }
    return await client.post("/staff/add", data=form, headers=origin(client))


# --- an event's pages, under its address (R1140) ---------------------------------------------


def test_an_events_page_is_its_records_page_under_its_address(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        answer = await client.get(f"/events/{SENIOR}/")
        assert answer.status == 200
        return await answer.text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert "Combo 4 Senior" in html
    assert f'href="/events/{SENIOR}/public"' in html


def test_an_events_links_and_forms_stay_inside_it(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{JUNIOR}/")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    rooted = re.findall(r'(?:href|action|src)="(/[^"]*)"', html)
    outside = [
        link
        for link in rooted
        if not link.startswith((f"/events/{JUNIOR}/", "/static/")) and link != "/"
    ]
    assert rooted and outside == []


def test_an_events_page_names_the_day_and_its_time_zone(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{JUNIOR}/checkin")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert 'class="day-banner"><a href="/">Spring League</a> · America/Chicago' in html


def test_an_events_scripts_read_its_address_from_the_page(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{JUNIOR}/")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert f'<meta name="gametable-base" content="/events/{JUNIOR}">' in html
    assert 'src="/static/board.js"' in html


def test_a_change_on_an_events_page_is_made_in_its_record_and_returns_inside_it(
    tmp_path: Path,
) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        answer = await client.post(
            f"/events/{SENIOR}/result",
            data=result(csrf),
            headers=origin(client),
            allow_redirects=False,
        )
        assert answer.status == 303
        return answer.headers["Location"]

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        location = serve_day(pages, scenario)
    assert location == f"/events/{SENIOR}/"
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        assert senior.current_result(1, 1) is not None
    with TournamentDB.open(tmp_path / f"{JUNIOR}.sqlite") as junior:
        assert junior.current_result(1, 1) is None


def test_an_events_staff_view_sends_a_browser_to_the_login_inside_it(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        answer = await client.get(f"/events/{JUNIOR}/teams", headers=HTML, allow_redirects=False)
        assert answer.status == 303
        return answer.headers["Location"]

    with opened_day(make_day(tmp_path)) as pages:
        location = serve_day(pages, scenario)
    assert location == f"/events/{JUNIOR}/login?next=/events/{JUNIOR}/teams"


def test_an_events_address_without_its_slash_is_its_page(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        answer = await client.get(f"/events/{JUNIOR}", allow_redirects=False)
        return answer.headers["Location"]

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == f"/events/{JUNIOR}/"


def test_an_unknown_event_is_refused_naming_the_days_events(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        answer = await client.get("/events/combo3")
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 404
    assert line == f"no event &#x27;combo3&#x27; this day: its events are {JUNIOR}, {SENIOR}"


def test_an_events_grid_shows_the_tables_playing_for_it(tmp_path: Path) -> None:
    board = LiveBoard()
    for table in (1, 3):  # a junior table, a senior table
        board.take_status(table, OFFLINE.encode(), heard=0.0)

    async def scenario(client: TestClient[Any, Any]) -> tuple[list[int], list[int]]:
        await log_in(client)
        grid = await (await client.get(f"/events/{JUNIOR}/api/board")).json()
        queue = await (await client.get(f"/events/{JUNIOR}/api/problems")).json()
        offline = [p["table"] for p in queue["problems"] if p["kind"] == "offline"]
        return [row["table"] for row in grid["rows"]], offline

    with opened_day(make_day(tmp_path), board) as pages:
        assert serve_day(pages, scenario) == ([1], [1])


def test_an_events_queue_holds_the_hubs_refusals_of_its_own_tables(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> list[int]:
        await log_in(client)
        queue = await (await client.get(f"/events/{JUNIOR}/api/problems")).json()
        return [p["table"] for p in queue["problems"] if p["kind"] == "not_applied"]

    with opened_day(make_day(tmp_path)) as pages:
        for table in (2, 3):  # a junior table's decision, a senior table's
            pages.lobby.refusals.add(table, "j-1", 5, "decision 5: not applied", 0.0)
        assert serve_day(pages, scenario) == [2]


# 11:00 UTC on Sun 29 Nov 2026: 05:00 in Chicago, the day's zone (Central Standard Time)
REFUSED_AT = datetime(2026, 11, 29, 11, 0, tzinfo=UTC).timestamp()


def an_events_queue(tmp_path: Path, address: str) -> str:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{JUNIOR}{address}")).text()

    with opened_day(make_day(tmp_path)) as pages:
        pages.lobby.refusals.add(2, "j-1", 5, "decision 5: not applied", REFUSED_AT)
        return serve_day(pages, scenario)


def test_an_events_queue_says_since_when_on_the_days_clock(tmp_path: Path) -> None:
    # R1181: under "Spring League · America/Chicago" a problem began at 05:00 CST, not 11:00 UTC
    assert "since 05:00 CST, " in an_events_queue(tmp_path, "/")


def test_an_events_problem_page_says_since_when_on_the_days_clock(tmp_path: Path) -> None:
    assert "since 05:00 CST, " in an_events_queue(tmp_path, "/problems")


def test_an_events_live_queue_carries_the_days_clock_for_its_script(tmp_path: Path) -> None:
    # R1181: static/board.js draws and ticks "since" from this, as the page first drew it
    queue = json.loads(an_events_queue(tmp_path, "/api/problems"))
    assert [p["clock"] for p in queue["problems"] if p["table"] == 2] == ["05:00 CST"]


def test_rooted_addresses_are_put_under_the_event_once() -> None:
    base = "/events/a"
    assert inside(base, "/teams") == "/events/a/teams"
    assert inside(base, "/events/a/teams") == "/events/a/teams"
    assert inside(base, "/static/page.css") == "/static/page.css"
    assert inside(base, "//elsewhere.example/") == "//elsewhere.example/"
    assert rooted_within(base, '<a href="/">x</a><img src="/static/a.png">') == (
        '<a href="/events/a/">x</a><img src="/static/a.png">'
    )


# --- one login for the day (R1141, R1142) ----------------------------------------------------


def test_one_login_opens_every_events_pages(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> list[int]:
        await log_in(client)
        return [(await client.get(f"/events/{slug}/")).status for slug, _ in EVENTS]

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == [200, 200]


def test_a_login_asked_for_on_an_events_page_comes_back_to_it(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[str, int]:
        asked = await client.get(f"/events/{JUNIOR}/teams", headers=HTML)
        form = {"password": PASSWORD, "name": "", "next": f"/events/{JUNIOR}/teams"}
        answer = await client.post(
            f"/events/{JUNIOR}/login", data=form, headers=origin(client), allow_redirects=False
        )
        assert 'action="/events/combo4-junior/login"' in await asked.text()
        other = await client.get(f"/events/{SENIOR}/")
        return answer.headers["Location"], other.status

    with opened_day(make_day(tmp_path)) as pages:
        location, other = serve_day(pages, scenario)
    assert (location, other) == (f"/events/{JUNIOR}/teams", 200)


def test_the_days_accounts_are_kept_in_the_day_record(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> int:
        csrf = await log_in(client)
        return (await add_account(client, csrf, "sam", "results", JUNIOR)).status

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        assert serve_day(pages, scenario) == 200
    with DayRecord.open(path) as day:
        names = [row["name"] for row in day.connection.execute("SELECT name FROM staff")]
    assert "sam" in names


def test_results_staff_of_one_event_are_refused_on_another_in_words(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, int, str]:
        csrf = await log_in(client)
        await add_account(client, csrf, "sam", "results", JUNIOR)
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        await log_in(client, "sam pass 123", name="sam")
        own = await client.get(f"/events/{JUNIOR}/")
        other = await client.get(f"/events/{SENIOR}/")
        return own.status, other.status, await error_line(other)

    with opened_day(make_day(tmp_path)) as pages:
        own, other, line = serve_day(pages, scenario)
    assert (own, other) == (200, 403)
    assert line == (
        "seeing the director&#x27;s page needs this event&#x27;s staff or a director: sam is "
        f"results staff of the event &#x27;{JUNIOR}&#x27; only"
    )


def test_results_staff_of_one_event_enter_its_results(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> int:
        csrf = await log_in(client)
        await add_account(client, csrf, "sam", "results", JUNIOR)
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        csrf = await log_in(client, "sam pass 123", name="sam")
        answer = await client.post(
            f"/events/{JUNIOR}/result", data=result(csrf), headers=origin(client)
        )
        return answer.status

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == 200
    with TournamentDB.open(tmp_path / f"{JUNIOR}.sqlite") as junior:
        assert junior.current_result(1, 1) is not None


def test_an_account_added_again_with_an_event_keeps_its_own_events(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, int]:
        csrf = await log_in(client)
        await add_account(client, csrf, "sam", "results")
        again = await add_account(client, csrf, "sam", "results", JUNIOR)
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        await log_in(client, "sam pass 123", name="sam")
        return again.status, (await client.get(f"/events/{SENIOR}/")).status

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == (409, 200)


def test_a_refused_change_on_an_events_page_is_shown_there(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        form = {**result(csrf), "table": "9"}
        answer = await client.post(f"/events/{SENIOR}/result", data=form, headers=origin(client))
        return answer.status, await answer.text()

    with opened_day(make_day(tmp_path)) as pages:
        status, html = serve_day(pages, scenario)
    assert status == 409
    assert 'class="error" role="alert">' in html
    assert f'action="/events/{SENIOR}/result"' in html


def test_an_events_staff_link_opens_the_days_staff_page(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[str, int, str]:
        csrf = await log_in(client)
        shown = await client.get(f"/events/{JUNIOR}/staff", allow_redirects=False)
        form = {"csrf": csrf, "name": "sam", "role": "results", "password": "sam pass 123"}
        added = await client.post(f"/events/{JUNIOR}/staff/add", data=form, headers=origin(client))
        return shown.headers["Location"], added.status, await error_line(added)

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        location, status, line = serve_day(pages, scenario)
    assert (location, status) == ("/staff", 409)
    assert line == (
        "a day&#x27;s staff accounts are managed on the day&#x27;s Staff page (/staff), each of "
        "every event or of one: nothing changed"
    )
    with DayRecord.open(path) as day:
        assert StaffRecord(day).find("sam") is None


def test_a_director_is_every_events_director_never_one_events(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await add_account(client, csrf, "kim", "director", JUNIOR)
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 400
    assert line == (
        "a director is every event&#x27;s director: expected results or viewer for one event, "
        "or every event"
    )


# --- the day at a glance ---------------------------------------------------------------------


def test_the_glance_is_for_staff(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        answer = await client.get("/", headers=HTML, allow_redirects=False)
        return answer.headers["Location"]

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == "/login?next=/"


def test_the_glance_names_the_tournament_its_time_zone_and_every_event(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert "Spring League" in html and "America/Chicago" in html
    for slug, name in EVENTS:
        assert f'<a href="/events/{slug}/">{name}</a>' in html


def test_the_glance_says_an_event_is_closed_and_its_champion(tmp_path: Path) -> None:
    # R1182: a closed event's line is not "round 3, 2 in, 0 out" like one still playing
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    path = make_day(tmp_path)
    with TournamentDB.open(tmp_path / f"{JUNIOR}.sqlite") as record:
        champion = _play_out(record)[0]
        record.set_champion(champion, now=NOW, by="director")
    with opened_day(path) as pages:
        html = serve_day(pages, scenario)
    assert f'3 · <strong class="closed">closed: {champion} champion</strong>' in html
    senior = html.index(f'<a href="/events/{SENIOR}/">')
    assert "closed:" not in html[senior : html.index("</tr>", senior)]


def test_the_glance_counts_each_events_results_in_and_out(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        await client.post(f"/events/{SENIOR}/result", data=result(csrf), headers=origin(client))
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    rows = re.findall(r"<tr>(.*?)</tr>", html.split('class="events')[1].split("</table>")[0])
    junior, senior = rows[1:]
    assert "0 in, 2 out" in junior and "1 in, 1 out" in senior


def test_each_tile_names_its_event(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert (
        f'<a class="tile offline" href="/events/{SENIOR}/tables/3"><span class="head">Table 3 '
        '<span class="status not-heard">not heard</span></span>'
        '<span class="event">Combo 4 Senior</span></a>' in html
    )


def test_the_queue_is_filtered_by_event(tmp_path: Path) -> None:
    board = LiveBoard()
    board.take_status(3, OFFLINE.encode(), heard=0.0)  # a senior table, offline

    async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
        await log_in(client)
        every = await (await client.get("/")).text()
        junior = await (await client.get(f"/?event={JUNIOR}")).text()
        return every, junior

    with opened_day(make_day(tmp_path), board) as pages:
        every, junior = serve_day(pages, scenario)
    offline = "<strong>Offline</strong> · Combo 4 Senior, table 3"
    assert offline in every and offline not in junior


def test_a_table_that_plays_for_no_event_is_in_the_queue(tmp_path: Path) -> None:
    board = LiveBoard()
    board.take_status(14, OFFLINE.encode(), heard=0.0)

    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path), board) as pages:
        html = serve_day(pages, scenario)
    assert "table 14: plays for no event. Assign it on the day page" in html


def test_an_unknown_event_filter_is_refused_in_words(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        await log_in(client)
        answer = await client.get("/?event=combo3")
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 404
    assert line == f"no event &#x27;combo3&#x27; this day: its events are {JUNIOR}, {SENIOR}"


def test_an_unknown_room_filter_is_refused_in_words(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        await log_in(client)
        answer = await client.get("/?room=Ballroom")
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 404
    assert line.startswith("no room &#x27;Ballroom&#x27; this day: its rooms are none yet")


# --- moving tables between events (R1143) ----------------------------------------------------


def test_a_director_moves_free_tables_to_an_event(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        form = {"csrf": csrf, "tables": "5-6", "event": SENIOR, "reason": "more seniors"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return await answer.text()

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        html = serve_day(pages, scenario)
    assert "tables 5-6 now play for Combo 4 Senior (by director)" in html
    with DayRecord.open(path) as day:
        assert day.event_of(5) == SENIOR and day.assignment_history(6)[-1].reason == "more seniors"


def assign_on_the_page(tmp_path: Path, tables: str) -> str:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        form = {"csrf": csrf, "tables": tables, "event": SENIOR, "reason": "more seniors"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return await answer.text()

    with opened_day(make_day(tmp_path)) as pages:
        return serve_day(pages, scenario)


def test_one_table_moved_on_the_page_is_said_as_the_command_line_says_it(tmp_path: Path) -> None:
    # R1180: "table 5 now plays", as `gametable day assign` answers, not "tables 5 now play"
    assert "table 5 now plays for Combo 4 Senior (by director)" in assign_on_the_page(tmp_path, "5")


def test_tables_already_the_events_are_named_beside_those_moved(tmp_path: Path) -> None:
    # R1180: the command line's "(table 3 already did)": the director sees what was asked for
    html = assign_on_the_page(tmp_path, "3,5-6")
    assert "tables 5-6 now play for Combo 4 Senior (table 3 already did) (by director)" in html


def test_a_table_whose_match_is_unfinished_is_not_moved(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "tables": "1", "event": SENIOR, "reason": "more seniors"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 409
    assert line == (
        "nothing moved: table 1: its round 1 match in combo4-junior (Hawks v Owls) has no "
        "result yet (a table moves between rounds)"
    )
    with DayRecord.open(path) as day:
        assert day.event_of(1) == JUNIOR


def test_tables_written_wrong_are_refused_in_words(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        form = {"csrf": csrf, "tables": "5-x", "event": SENIOR, "reason": "more"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        line = serve_day(pages, scenario)
    assert line == (
        "tables &#x27;5-x&#x27;: &#x27;5-x&#x27; is not a table or a range: expected like 1-12,15"
    )


def test_only_a_director_moves_tables(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        await add_account(client, csrf, "sam", "results")
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        csrf = await log_in(client, "sam pass 123", name="sam")
        form = {"csrf": csrf, "tables": "5", "event": SENIOR, "reason": "more"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 403
    assert line == "moving tables needs a director&#x27;s account: sam is results staff"


# --- anyone: the public page and the projectors by event --------------------------------------


def test_the_public_page_lists_every_events_public_page(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[str, int]:
        listing = await (await client.get("/public")).text()
        own = await client.get(f"/events/{JUNIOR}/public")
        return listing, own.status

    with opened_day(make_day(tmp_path)) as pages:
        listing, status = serve_day(pages, scenario)
    assert f'<a href="/events/{JUNIOR}/public">Combo 4 Junior</a>' in listing
    assert "Spring League" in listing and status == 200


def test_the_projectors_are_listed_by_event_and_room(tmp_path: Path) -> None:
    path = make_day(tmp_path)
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        senior.add_room("Ballroom B", [3, 4], building="", now="2026-05-09T09:00:00+00:00", by="d")

    async def scenario(client: TestClient[Any, Any]) -> tuple[str, int]:
        listing = await (await client.get("/projector")).text()
        own = await client.get(f"/events/{SENIOR}/projector?room=Ballroom+B")
        return listing, own.status

    with opened_day(path) as pages:
        listing, status = serve_day(pages, scenario)
    assert f'<a href="/events/{SENIOR}/projector?room=Ballroom+B">Ballroom B</a>' in listing
    assert status == 200


def test_an_events_projector_goes_on_within_the_event(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        return await (await client.get(f"/events/{SENIOR}/projector")).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert f";url=/events/{SENIOR}/projector?page=" in html


@pytest.mark.parametrize(
    "path",
    ["/login", "/public", "/projector", f"/events/{JUNIOR}/public", f"/events/{JUNIOR}/login"],
)
def test_every_page_names_the_tournament_and_its_time_zone(tmp_path: Path, path: str) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        return await (await client.get(path)).text()

    with opened_day(make_day(tmp_path)) as pages:
        html = serve_day(pages, scenario)
    assert "Spring League" in html and "America/Chicago" in html


def test_the_csrf_token_of_the_day_is_the_events(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
        await log_in(client)
        day = csrf_of(await (await client.get("/")).text())
        event = csrf_of(await (await client.get(f"/events/{JUNIOR}/")).text())
        return day, event

    with opened_day(make_day(tmp_path)) as pages:
        day, event = serve_day(pages, scenario)
    assert day == event


# --- a round paired at the event's tables (R1172) ---------------------------------------------


def _round_1_played(path: Path) -> None:
    """Round 1 of the senior event (paired at tables 1 and 2 of its record) has its results."""
    with TournamentDB.open(path) as record:
        for table in (1, 2):
            enter_result(record, 1, table, 40, 30, now=NOW)


def _pair(csrf: str) -> dict[str, str]:
    return {"csrf": csrf, "round": "2"}


def test_an_events_round_paired_from_its_page_is_at_the_tables_the_day_gives_it(
    tmp_path: Path,
) -> None:
    async def scenario(client: TestClient[Any, Any]) -> int:
        csrf = await log_in(client)
        answer = await client.post(
            f"/events/{SENIOR}/pair", data=_pair(csrf), headers=origin(client)
        )
        return answer.status

    path = make_day(tmp_path)  # the senior event plays at tables 3 and 4
    _round_1_played(tmp_path / f"{SENIOR}.sqlite")
    with opened_day(path) as pages:
        assert serve_day(pages, scenario) == 200
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        assert senior.paired_tables(2) == (3, 4)


def test_an_event_with_too_few_tables_for_its_round_is_refused_in_words_nothing_paired(
    tmp_path: Path,
) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        csrf = await log_in(client)
        answer = await client.post(
            f"/events/{SENIOR}/pair", data=_pair(csrf), headers=HTML | origin(client)
        )
        assert answer.status == 409
        return unescape(await error_line(answer))

    path = make_day(tmp_path)
    _round_1_played(tmp_path / f"{SENIOR}.sqlite")
    with DayRecord.open(path) as day:
        day.assign([4], JUNIOR, now=NOW, by="director", reason="the junior room needs it")
    with opened_day(path) as pages:
        line = serve_day(pages, scenario)
    assert line == (
        f"round 2 of {SENIOR} has 2 matches but only table 3 plays for it: give it more tables "
        "first ('Move tables to an event' on the day page, or 'gametable day "
        "assign'); nothing paired"
    )
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as senior:
        assert senior.paired_round_count() == 1


# --- a room gone quiet: its tables silent on their tiles (R1161) ------------------------------


def _tile_statuses(board: LiveBoard, tmp_path: Path) -> dict[int, str]:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path), board) as pages:
        page = serve_day(pages, scenario)
    found = re.findall(r'Table (\d+) <span class="status ([a-z-]+)">([^<]*)<', page)
    return {int(table): f"{css}: {words}" for table, css, words in found}


def test_a_table_in_a_game_heard_from_no_more_for_30_s_is_silent_on_its_tile(
    tmp_path: Path,
) -> None:
    board = LiveBoard()
    board.take_status(3, ONLINE.encode(), heard=0.0)
    board.take_state(3, state(3, in_game=True), heard=time.time() - 45)
    assert re.fullmatch(r"silent: silent 4\d s", _tile_statuses(board, tmp_path)[3])


def test_a_table_heard_lately_or_between_games_is_online_on_its_tile(tmp_path: Path) -> None:
    board = LiveBoard()
    for table in (3, 4):
        board.take_status(table, ONLINE.encode(), heard=0.0)
    board.take_state(3, state(3, in_game=True), heard=time.time() - 5)
    board.take_state(4, state(4, in_game=False), heard=time.time() - 600)
    statuses = _tile_statuses(board, tmp_path)
    assert (statuses[3], statuses[4]) == ("online: online", "online: online")


def test_a_silent_table_is_not_counted_as_reporting_on_the_glance(tmp_path: Path) -> None:
    board = LiveBoard()
    for table in (3, 4):  # the senior event's
        board.take_status(table, ONLINE.encode(), heard=0.0)
        board.take_state(table, state(table, in_game=True), heard=time.time() - 45)

    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(make_day(tmp_path), board) as pages:
        page = serve_day(pages, scenario)
    senior = re.search(r"Combo 4 Senior</a>.*?Tables reporting\">([^<]*)<", page)
    assert senior is not None and senior.group(1) == "0 of 2"  # tables 3 and 4 silent


# --- an event's times in the day's time zone (R1162) --------------------------------------------


def _table_page_of_senior(tmp_path: Path, zone: str | None) -> str:
    """Table 1's page of the senior event once its round 1 result is in (the record's own time
    zone ``zone``, or none)."""

    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get(f"/events/{SENIOR}/tables/1")).text()

    path = make_day(tmp_path)  # a day in America/Chicago
    with TournamentDB.open(tmp_path / f"{SENIOR}.sqlite") as record:
        if zone is not None:
            record.set_venue(time_zone=zone, now=NOW, by="director")
        enter_result(record, 1, 1, 40, 30, now=NOW)
    with opened_day(path) as pages:
        return serve_day(pages, scenario)


def test_an_event_whose_record_names_no_time_zone_shows_its_times_in_the_days(
    tmp_path: Path,
) -> None:
    page = _table_page_of_senior(tmp_path, None)
    assert "Sat 9 May 2026, 04:00 CDT" in page and NOW_SHOWN not in page


def test_an_event_whose_record_names_its_time_zone_keeps_it(tmp_path: Path) -> None:
    page = _table_page_of_senior(tmp_path, "Europe/London")
    assert "Sat 9 May 2026, 10:00 BST" in page


# --- a room whose every table in a game went silent together (R1167) ----------------------------


def _glance_with_room(board: LiveBoard, tmp_path: Path) -> str:
    """The day's glance, the senior event's tables 3 and 4 in room "Ballroom B"."""
    path = make_day(tmp_path)
    with TournamentDB.open(tmp_path / f"{EVENTS[1][0]}.sqlite") as senior:
        senior.add_room("Ballroom B", (3, 4), building="", now=NOW, by="director")

    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    with opened_day(path, board) as pages:
        return serve_day(pages, scenario)


def _in_game(board: LiveBoard, table: int, seconds_ago: float) -> None:
    board.take_status(table, ONLINE.encode(), heard=0.0)
    board.take_state(table, state(table, in_game=True), heard=time.time() - seconds_ago)


def test_a_room_whose_tables_in_a_game_all_went_silent_is_one_problem_naming_its_link(
    tmp_path: Path,
) -> None:
    board = LiveBoard()
    _in_game(board, 3, 45)
    _in_game(board, 4, 40)
    page = _glance_with_room(board, tmp_path)
    said = "<strong>Room silent</strong> · Ballroom B: 2 tables in a game have sent nothing for 4"
    assert said in page
    assert "The room&#x27;s link to the hub is likely cut" in page


def test_a_room_with_one_table_still_heard_is_not_silent(tmp_path: Path) -> None:
    board = LiveBoard()
    _in_game(board, 3, 45)
    _in_game(board, 4, 2)
    assert "Room silent" not in _glance_with_room(board, tmp_path)
