"""Staff accounts on the director's page (firmware_py/director/hub/page/app.py, access.py):
each role may do what it may and is refused the rest in words (R811); the director's password
of the past logs in as "director" (R812); sessions outlive a restart of the page (R813) and end
at once when their account is removed or changed (R814); every view but /public is for staff
(R816), and /public shows people as public_names says (R817); each result says where it came
from and when (R818)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.director.hub.page.app import COOKIE, make_app
from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.page.session_file import sessions_path
from firmware_py.director.hub.page.sessions import SESSION_SECONDS
from firmware_py.director.hub.staff import Role, StaffRecord, hash_new_password
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import Decision
from tests.hub_page_helpers import (
    NOW,
    NOW_SHOWN,
    PASSWORD,
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
T = TypeVar("T")
LATER = "2026-05-09T10:15:00+00:00"
JOURNAL = "5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


@pytest.fixture
def page(record: TournamentDB) -> DirectorPage:
    return director_page(record)


def result(csrf: str, table: int = 1, a: int = 40, b: int = 30, **more: str) -> dict[str, str]:
    return {"csrf": csrf, "round": "1", "table": str(table), "a_points": str(a),
            "b_points": str(b), **more}  # fmt: skip


def serve_two(page: DirectorPage, scenario: Callable[[Client, Client], Awaitable[T]]) -> T:
    """Two browsers (each its own cookies) on one page."""

    async def run() -> T:
        server = TestServer(make_app(page), host="127.0.0.1")
        await server.start_server()
        clients = []
        for _ in range(2):
            jar = CookieJar(unsafe=True, treat_as_secure_origin=[server.make_url("/")])
            clients.append(TestClient(server, cookie_jar=jar))
        try:
            for client in clients:
                await client.start_server()
            return await scenario(*clients)
        finally:
            for client in clients:
                await client.close()
            await page.stop()

    return asyncio.run(run())


# --- roles (R811) --------------------------------------------------------------------------------


def test_results_staff_enter_a_first_result_recorded_under_their_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> str:
        csrf = await log_in(client, password, name="sam")
        answer = await client.post("/result", data=result(csrf), headers=origin(client))
        return await answer.text()

    html = serve(page, scenario)
    entry = record.current_result(1, 1)
    assert entry is not None and (entry.entered_by, entry.a_points) == ("sam", 40)
    assert "(recorded, version 1)" in html


def test_results_staff_are_refused_an_amendment_in_words(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, password, name="sam")
        await client.post("/result", data=result(csrf), headers=origin(client))
        amended = result(csrf, b=35, reason="the dealer misread game 3")
        answer = await client.post("/result", data=amended, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        403,
        "amending a result needs a director&#x27;s account: sam is results staff",
    )
    assert [e.b_points for e in record.result_history(1, 1)] == [30]


def test_results_staff_entering_a_second_result_are_told_a_director_amends(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, password, name="sam")
        await client.post("/result", data=result(csrf), headers=origin(client))
        answer = await client.post("/result", data=result(csrf, b=35), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        403,
        f"round 1 table 1 already has a result (40-30, entered by sam at {NOW_SHOWN}): "
        "changing it needs a director&#x27;s account: sam is results staff",
    )
    assert [e.b_points for e in record.result_history(1, 1)] == [30]


def test_results_staff_are_refused_pairing_in_words(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, password, name="sam")
        answer = await client.post("/pair", data={"csrf": csrf}, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        403,
        "pairing a round needs a director&#x27;s account: sam is results staff",
    )
    assert len(record.rounds()) == 1


def test_a_viewer_is_refused_entering_a_result_in_words(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "gil", Role.VIEWER)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, password, name="gil")
        answer = await client.post("/result", data=result(csrf), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        403,
        "entering a result needs a results or director&#x27;s account: gil is a viewer",
    )
    assert record.results() == ()


def test_results_staff_are_shown_the_result_form_without_amendment_or_pairing(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> str:
        await log_in(client, password, name="sam")
        return await (await client.get("/")).text()

    html = serve(page, scenario)
    assert 'id="result-form"' in html and "Enter a result" in html
    assert 'name="reason"' not in html and 'action="/pair"' not in html
    assert 'id="staff-link"' not in html and "sam (results)" in html


@pytest.mark.parametrize(
    ("role", "words"), [(Role.RESULTS, "results staff"), (Role.VIEWER, "a viewer")]
)
def test_staff_below_a_director_are_refused_the_staff_accounts_in_words(
    page: DirectorPage, record: TournamentDB, role: Role, words: str
) -> None:
    password = add_staff(record, "kim", role)

    async def scenario(client: Client) -> list[tuple[int, str]]:
        csrf = await log_in(client, password, name="kim")
        shown = await client.get("/staff")
        added = await client.post(
            "/staff/add",
            data={"csrf": csrf, "name": "eve", "role": "director", "password": "x" * 12},
            headers=origin(client),
        )
        return [(a.status, await error_line(a)) for a in (shown, added)]

    shown, added = serve(page, scenario)
    assert shown == (
        403,
        f"seeing the staff accounts needs a director&#x27;s account: kim is {words}",
    )
    assert added == (403, f"managing the staff needs a director&#x27;s account: kim is {words}")
    assert StaffRecord(record).find("eve") is None


def test_a_director_adds_an_account_on_the_page_and_it_logs_in(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[str, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "name": "sam", "role": "results", "password": "sam's password"}
        added = await client.post("/staff/add", data=form, headers=origin(client))
        listed = await added.text()
        client.session.cookie_jar.clear()
        await log_in(client, "sam's password", name="sam")
        return listed, await (await client.get("/")).text()

    listed, home = serve(page, scenario)
    assert "sam added (results)" in listed and 'id="staff-sam"' in listed
    sam = StaffRecord(record).find("sam")
    assert sam is not None and (sam.role, sam.changed_by) == (Role.RESULTS, "director")
    assert "sam (results)" in home


def test_a_change_to_the_staff_is_not_published_to_the_tables(
    page: DirectorPage, record: TournamentDB
) -> None:
    told: list[str] = []
    page.after_change = lambda: told.append("published")

    async def scenario(client: Client) -> None:
        csrf = await log_in(client)
        form = {"csrf": csrf, "name": "sam", "role": "results", "password": "sam's password"}
        await client.post("/staff/add", data=form, headers=origin(client))
        await client.post(
            "/staff/remove",
            data={"csrf": csrf, "name": "sam", "confirm": "yes"},
            headers=origin(client),
        )

    serve(page, scenario)
    assert StaffRecord(record).find("sam") is None  # added, then removed
    assert told == []


@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"name": "Sam Smith", "role": "results"}, "staff name &#x27;Sam Smith&#x27;: expected"),
        ({"name": "sam", "role": "admin"}, "role &#x27;admin&#x27;: expected director, results"),
        ({"name": "sam", "role": "results", "password": "short"}, "sam&#x27;s password: a pass"),
    ],
)
def test_an_account_the_page_cannot_add_is_refused_in_words(
    page: DirectorPage, record: TournamentDB, form: dict[str, str], says: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        data = {"csrf": csrf, "password": "a long enough one", **form}
        answer = await client.post("/staff/add", data=data, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 400 and line.startswith(says)
    assert [a.name for a in StaffRecord(record).accounts()] == ["director"]


def test_removing_an_account_not_there_repeats_at_most_60_characters_of_its_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    """R858: a name sent by hand 5000 characters long is cut in the error line."""
    add_staff(record, "ann", Role.DIRECTOR)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        data = {"csrf": csrf, "name": "x" * 5000, "confirm": "yes"}
        answer = await client.post("/staff/remove", data=data, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 409
    assert line.startswith(f"no staff account &#x27;{'x' * 59}…&#x27;: expected one of ")


# --- the director's password of the past (R812, R815) --------------------------------------------


def test_the_directors_password_of_the_past_logs_in_as_director_with_no_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> str:
        await log_in(client)  # the name left empty, as the one-password hall always did
        return await (await client.get("/")).text()

    html = serve(page, scenario)
    assert "director (director)" in html and 'action="/pair"' in html


def test_the_directors_session_outlasts_the_password_files_move_into_the_record(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, name="director")
        add_staff(record, "sam", Role.RESULTS)  # the first change: the file's director moves in
        answer = await client.post("/pair", data={"csrf": csrf}, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 409 and "round 2 cannot be paired yet" in line  # refused by the rules only
    director = StaffRecord(record).find("director")
    assert director is not None and not director.in_file


def test_a_login_without_a_name_once_director_is_removed_asks_for_the_name_in_words(
    page: DirectorPage, record: TournamentDB
) -> None:
    """R851: another director removed the account director; the empty name is refused saying
    why (never counted as a wrong password), the login asks for a name, ann logs in by hers."""
    ann = add_staff(record, "ann", Role.DIRECTOR)
    StaffRecord(record).remove("director", now=NOW, by="ann")

    async def scenario(client: Client) -> tuple[str, list[tuple[int, str]], str]:
        form = await (await client.get("/login")).text()
        refused = []
        for _ in range(4):  # past the three a wrong password may have before it waits
            answer = await client.post(
                "/login", data={"name": "", "password": PASSWORD}, headers=origin(client)
            )
            refused.append((answer.status, await error_line(answer)))
        await log_in(client, ann, "ann")
        return form, refused, await (await client.get("/")).text()

    form, refused, index = serve(page, scenario)
    assert "(empty: director)" not in form
    assert re.search(r'<input id="name"[^>]* required>', form)
    said = (
        "a login without a name was the account director&#x27;s, which has been removed: "
        "give your own staff name"
    )
    assert refused == [(403, said)] * 4
    assert "ann (director)" in index


def test_the_login_shown_again_after_a_wrong_password_still_asks_for_the_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    """R851: once director is removed, the login page shown again after a refused login (a
    wrong password) never offers the empty name as director's."""
    add_staff(record, "ann", Role.DIRECTOR)
    StaffRecord(record).remove("director", now=NOW, by="ann")

    async def scenario(client: Client) -> str:
        form = {"name": "ann", "password": "not ann's password"}
        return await (await client.post("/login", data=form, headers=origin(client))).text()

    shown = serve(page, scenario)
    assert "that is not the name and password of a staff account" in shown
    assert "(empty: director)" not in shown
    assert re.search(r'<input id="name"[^>]* required>', shown)


def test_removing_the_account_director_says_the_nameless_login_ends(
    page: DirectorPage, record: TournamentDB
) -> None:
    ann = add_staff(record, "ann", Role.DIRECTOR)

    async def scenario(client: Client) -> str:
        csrf = await log_in(client, ann, "ann")
        form = {"csrf": csrf, "name": "director", "confirm": "yes"}
        done = await client.post("/staff/remove", data=form, headers=origin(client))
        return await done.text()

    done = serve(page, scenario)
    assert "director removed: their sessions have ended; a login without a name no longer " in (
        done
    )


# --- sessions (R813, R814) -----------------------------------------------------------------------


def test_a_session_outlives_a_restart_of_the_page(record: TournamentDB) -> None:
    async def log_in_and_keep(client: Client) -> str:
        await log_in(client)
        return client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value

    token = serve(director_page(record), log_in_and_keep)

    async def come_back(client: Client) -> tuple[int, str]:
        answer = await client.get("/", cookies={COOKIE: token})
        return answer.status, await answer.text()

    status, html = serve(director_page(record), come_back)  # a new page on the same record
    assert status == 200 and "director (director)" in html
    kept = sessions_path(record.path).read_text()
    assert token not in kept  # the file keeps the token's hash, never the token


def test_a_logout_before_a_restart_stays_logged_out(record: TournamentDB) -> None:
    async def log_in_and_out(client: Client) -> str:
        csrf = await log_in(client)
        token = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        return token

    token = serve(director_page(record), log_in_and_out)

    async def come_back(client: Client) -> int:
        return (await client.get("/", cookies={COOKIE: token})).status

    assert serve(director_page(record), come_back) == 403


def test_a_session_ends_after_its_time_across_a_restart(record: TournamentDB) -> None:
    wall = [1_000_000.0]

    def the_page() -> DirectorPage:
        return DirectorPage(
            listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW, wall=lambda: wall[0]
        )

    async def log_in_and_keep(client: Client) -> str:
        await log_in(client)
        return client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value

    token = serve(the_page(), log_in_and_keep)
    wall[0] += SESSION_SECONDS

    async def come_back(client: Client) -> int:
        return (await client.get("/", cookies={COOKIE: token})).status

    assert serve(the_page(), come_back) == 403


def test_an_account_removed_on_the_page_ends_its_session_at_once(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(sam: Client, director: Client) -> tuple[int, str, int]:
        csrf = await log_in(sam, password, name="sam")
        boss = await log_in(director)
        removed = await director.post(
            "/staff/remove",
            data={"csrf": boss, "name": "sam", "confirm": "yes"},
            headers=origin(director),
        )
        answer = await sam.post("/result", data=result(csrf), headers=origin(sam))
        return removed.status, await error_line(answer), (await sam.get("/tables/1")).status

    removed, line, reading = serve_two(page, scenario)
    assert removed == 200
    assert line == "your staff account was changed or removed: log in again"
    assert reading == 403
    assert record.results() == ()


def test_an_account_removed_beside_the_running_page_ends_its_session_at_once(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[int, int]:
        await log_in(client, password, name="sam")
        before = (await client.get("/tables/1")).status
        with TournamentDB.open(record.path) as other:  # `gametable hub staff remove sam`
            StaffRecord(other).remove("sam", now=LATER, by="director")
        return before, (await client.get("/tables/1")).status

    assert serve(page, scenario) == (200, 403)


def test_a_password_changed_ends_the_accounts_sessions(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[int, int]:
        await log_in(client, password, name="sam")
        before = (await client.get("/")).status
        StaffRecord(record).set_password(
            "sam", hash_new_password("a new password"), now=LATER, by="director"
        )
        return before, (await client.get("/")).status

    assert serve(page, scenario) == (200, 403)


def test_an_open_live_board_of_a_removed_account_ends(record: TournamentDB) -> None:
    password = add_staff(record, "gil", Role.VIEWER)
    clock = [0.0]
    page = DirectorPage(
        listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW, clock=lambda: clock[0]
    )

    async def scenario(client: Client) -> tuple[bytes, bytes]:
        await log_in(client, password, name="gil")
        stream = await client.get("/api/events")
        first = await stream.content.readuntil(b"\n\n")
        StaffRecord(record).remove("gil", now=LATER, by="director")
        clock[0] += 2.0
        page.board.take_state(1, state(1), heard=1.0)
        page.changed()
        rest = await asyncio.wait_for(stream.content.read(), 5)  # the stream ends
        return first, rest

    first, rest = serve(page, scenario)
    assert json.loads(first[6:])["full"] is True
    assert rest == b""


# --- privacy (R816, R817) ------------------------------------------------------------------------

PRIVATE = [
    ("/", "the director&#x27;s page is for staff: log in first (/login)"),
    ("/tables/1", "table 1&#x27;s record is for staff: log in first (/login)"),
    ("/sheet/1/1", "a result sheet is for staff: log in first (/login)"),
    ("/staff", "the staff accounts is for staff: log in first (/login)"),
]


@pytest.mark.parametrize(("path", "says"), PRIVATE)
def test_a_private_view_refuses_an_anonymous_request_in_words(
    page: DirectorPage, path: str, says: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str, str]:
        answer = await client.get(path)
        html = await answer.text()
        return answer.status, await error_line(answer), html

    status, line, html = serve(page, scenario)
    assert (status, line) == (403, says)
    for private in ("Ann", "Cy", "Eagles", "/sheet/"):
        assert private not in html


@pytest.mark.parametrize("path", [path for path, _ in PRIVATE])
def test_a_private_view_sends_a_browser_to_the_login_and_back(
    page: DirectorPage, path: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str, str, str]:
        answer = await client.get(path, headers=BROWSER, allow_redirects=False)
        where = answer.headers["Location"]
        login = await (await client.get(where, headers=BROWSER)).text()
        back = await client.post(
            "/login",
            data={
                "password": PASSWORD,
                "next": re.findall(r'name="next" value="([^"]*)"', login)[0],
            },
            headers=origin(client),
            allow_redirects=False,
        )
        return answer.status, where, login, back.headers["Location"]

    status, where, login, back = serve(page, scenario)
    assert (status, where) == (303, f"/login?next={path}")
    assert f"staff only: log in to open {path}" in login
    assert back == path


def test_a_login_never_sends_its_browser_to_another_site(page: DirectorPage) -> None:
    async def scenario(client: Client) -> list[str]:
        places = []
        for next_path in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
            answer = await client.post(
                "/login",
                data={"password": PASSWORD, "next": next_path},
                headers=origin(client),
                allow_redirects=False,
            )
            places.append(answer.headers["Location"])
        return places

    assert serve(page, scenario) == ["/"] * 3


def test_the_board_refuses_an_anonymous_request_in_one_line_of_json(page: DirectorPage) -> None:
    page.board.take_state(1, state(1), heard=1.0)

    async def scenario(client: Client) -> tuple[int, Any]:
        answer = await client.get("/api/board")
        return answer.status, await answer.json()

    assert serve(page, scenario) == (
        403,
        {"error": "the tables' board is for staff: log in first (/login)"},
    )


def test_the_live_board_tells_an_anonymous_page_why_in_an_event(page: DirectorPage) -> None:
    async def scenario(client: Client) -> str:
        answer = await client.get("/api/events", headers={"Accept": "text/event-stream"})
        return await answer.text()

    said = serve(page, scenario)
    assert "event: refused" in said
    assert json.loads(said.split("data: ", 1)[1]) == {
        "error": "the tables' live board is for staff: log in first (/login)"
    }


def _public(record: TournamentDB, names: PublicNames) -> str:
    page = DirectorPage(
        listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW, public_names=names
    )

    async def scenario(client: Client) -> str:
        answer = await client.get("/public")
        assert answer.status == 200
        return await answer.text()

    return serve(page, scenario)


def test_the_public_page_shows_the_teams_and_no_player_by_default(record: TournamentDB) -> None:
    html = _public(record, PublicNames.TEAMS)
    assert "Eagles" in html and "Hawks" in html
    for player in ("Ann", "Bo", "Cy", "Di", "Ed"):
        assert f">{player}" not in html and f" {player}" not in html


def test_the_public_page_shows_the_players_when_the_hub_says_so(record: TournamentDB) -> None:
    html = _public(record, PublicNames.PLAYERS)
    assert "Eagles (Ann, Bo)" in html and "Hawks (Cy, Di)" in html


def test_the_public_page_shows_no_name_when_the_hub_says_none(record: TournamentDB) -> None:
    html = _public(record, PublicNames.NONE)
    assert "does not publish names" in html
    for name in ("Eagles", "Hawks", "Owls", "Ravens", "Ann"):
        assert name not in html


# --- who entered what (R818) ---------------------------------------------------------------------


def _table_reports(record: TournamentDB, a: int, b: int) -> None:
    session = {"action": "match.start", "round": 1, "minutes": 20, "on_time_up": "abandon"}
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    apply_result(record, 1, Decision(JOURNAL, 12, NOW, session, event), now=NOW)


def test_each_result_says_where_it_came_from_and_when_with_its_amendments_in_order(
    page: DirectorPage, record: TournamentDB
) -> None:
    _table_reports(record, 40, 30)
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[str, str, str]:
        csrf = await log_in(client)
        amended = result(csrf, b=35, reason="the dealer misread game 3")
        await client.post("/result", data=amended, headers=origin(client))
        client.session.cookie_jar.clear()
        csrf = await log_in(client, password, name="sam")
        await client.post("/result", data=result(csrf, table=2), headers=origin(client))
        return (
            await (await client.get("/tables/1")).text(),
            await (await client.get("/sheet/1/1")).text(),
            await (await client.get("/tables/2")).text(),
        )

    table_1, sheet_1, table_2 = serve(page, scenario)
    versions = table_1.split('class="versions"')[1].split("</table>")[0]
    rows = [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in versions.split("<tr>")[2:]]
    assert rows == [
        ["1", "40", "30", "table 1, journal 5f1c0e7a entry 12", NOW_SHOWN, ""],
        ["2", "40", "35", "the director", NOW_SHOWN, "the dealer misread game 3"],
    ]
    assert f"version 2, from the director at {NOW_SHOWN}" in sheet_1
    assert "table 1, journal 5f1c0e7a entry 12" in sheet_1  # the versions before, on the sheet
    assert "staff member sam" in table_2


def test_removing_an_account_asks_for_the_confirmation_first(
    page: DirectorPage, record: TournamentDB
) -> None:
    """Issue 26: Remove ended a session in one click; the row's Remove now opens a question
    with its Confirm, and a removal without it is refused, the account kept."""
    add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> tuple[str, int, str]:
        csrf = await log_in(client)
        shown = await (await client.get("/staff")).text()
        data = {"csrf": csrf, "name": "sam"}
        answer = await client.post("/staff/remove", data=data, headers=origin(client))
        return shown, answer.status, await error_line(answer)

    shown, status, refused = serve(page, scenario)
    assert StaffRecord(record).find("sam") is not None
    assert (status, refused) == (
        400,
        "removing a staff account: expected the confirmation (the Confirm button)",
    )
    assert "<p>Remove sam? Their sessions end at once" in shown
    assert 'name="confirm" value="yes" class="danger">Confirm: remove sam</button>' in shown
