"""The director's page's handlers (firmware_py/director/hub/page/app.py) with aiohttp's test
client: what each view shows, who may change the record and how, and every refusal as one
line on the page with the record unchanged."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, make_mocked_request

from firmware_py.director.hub.page.app import COOKIE, MAX_BODY, make_app
from firmware_py.director.hub.page.server import MAX_WATCHERS_PER_ADDRESS, DirectorPage
from firmware_py.director.hub.page.sessions import FREE_TRIES
from firmware_py.director.hub.staff import Role
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TableEvent, TournamentDB
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


# --- reading ------------------------------------------------------------------------------------


def test_a_viewer_sees_the_grid_pairings_and_standings_without_a_form_to_change_them(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "gil", Role.VIEWER)

    async def scenario(client: Client) -> str:
        await log_in(client, password, name="gil")
        return await (await client.get("/")).text()

    html = serve(page, scenario)
    assert 'id="tables"' in html and "/static/board.js" in html
    assert "Round 1 of 3" in html and "/sheet/1/1" in html
    assert "Standings" in html and "gil (viewer)" in html
    assert 'action="/result"' not in html and 'action="/pair"' not in html
    assert 'action="/logout"' in html  # the one form: the way out


def test_the_public_page_needs_no_login_and_shows_no_control(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get("/public")
        return answer.status, await answer.text()

    status, html = serve(page, scenario)
    assert status == 200
    assert "Standings" in html and "Eagles" in html and "Round 1 of 3" in html
    # its one form is the search, a GET: nothing that changes the record, no way to a sheet
    assert html.count("<form") == 1 and '<form method="get" action="/public"' in html
    for control in ('method="post"', "csrf", "/login", "/sheet/", "/print/"):
        assert control not in html


def test_a_tables_page_shows_its_matches_results_reports_and_state(
    page: DirectorPage, record: TournamentDB
) -> None:
    page.board.take_state(1, state(1), heard=1.0)
    with record.transaction():
        record.add_table_event(
            TableEvent(1, "5f1c0e7a", 12, NOW, NOW, 1, 40, 30, "recorded", "40-30, version 1")
        )

    async def scenario(client: Client) -> str:
        await log_in(client)
        return await (await client.get("/tables/1")).text()

    html = serve(page, scenario)
    assert "Round 1:" in html and "/sheet/1/1" in html
    assert "5f1c0e7a" in html and "40-30, version 1" in html
    assert "G3 Border-Up" in html and "12:41" in html


def test_the_result_sheet_has_teams_players_result_and_signature_lines(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> str:
        csrf = await log_in(client)
        await client.post("/result", data=result(csrf), headers=origin(client))
        return await (await client.get("/sheet/1/1")).text()

    html = serve(page, scenario)
    match = record.load().rounds[0].matches[0]
    assert f"A: {match.a}" in html and f"B: {match.b}" in html
    assert "<li>Ann</li>" in html or "<li>Cy</li>" in html or "<li>Ed</li>" in html
    assert "1 (all, 20 minutes)" in html and "<dt>Table</dt><dd>1</dd>" in html
    assert f"{match.a} wins" in html and f"from the director at {NOW_SHOWN}" in html
    for who in ("Team A&#x27;s captain", "Team B&#x27;s captain", "Dealer", "Director"):
        assert f'<span class="sign-line"></span>{who}' in html


def test_the_stylesheet_has_a_print_view() -> None:
    css = (Path(__file__).parents[1] / "firmware_py/director/hub/page/static/page.css").read_text()
    assert "@media print" in css


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/tables/9", "table 9 has no match, no report and no state"),
        ("/sheet/3/1", "round 3 is not paired yet"),
        ("/sheet/1/7", "table 7"),
        ("/tables/x", "table &#x27;x&#x27;: expected a number"),
        ("/nope", "nothing at /nope: expected one of the page&#x27;s routes (docs/hub.md)"),
    ],
)
def test_a_view_of_nothing_is_one_line(page: DirectorPage, path: str, says: str) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        await log_in(client)
        answer = await client.get(path)
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 404
    assert says in line


def test_an_unknown_route_is_a_small_html_page(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get("/nope")
        return answer.status, answer.content_type

    assert serve(page, scenario) == (404, "text/html")


def test_the_board_is_json_and_its_stream_sends_every_table_then_the_changes(
    page: DirectorPage,
) -> None:
    page.board.take_state(1, state(1), heard=1.0)

    async def scenario(client: Client) -> tuple[Any, list[Any]]:
        await log_in(client)
        board = await (await client.get("/api/board")).json()
        stream = await client.get("/api/events")
        first = json.loads((await stream.content.readuntil(b"\n\n"))[6:])
        page.board.take_state(2, state(2, clock="3:00"), heard=2.0)
        page.changed()
        second = json.loads((await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5))[6:])
        stream.close()
        return board, [first, second]

    board, messages = serve(page, scenario)
    assert [row["table"] for row in board["rows"]] == [1]
    assert messages[0]["full"] and [row["table"] for row in messages[0]["rows"]] == [1]
    assert not messages[1]["full"]
    assert [(row["table"], row["clock"]) for row in messages[1]["rows"]] == [(2, "3:00")]


def test_one_address_may_hold_only_a_few_live_grids_and_is_told_so(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str, int, Any, int]:
        await log_in(client)
        held = [await client.get("/api/events") for _ in range(MAX_WATCHERS_PER_ADDRESS)]
        as_a_browser = await client.get("/api/events", headers={"Accept": "text/event-stream"})
        said = await as_a_browser.text()
        plain = await client.get("/api/events")
        refused = plain.status, await plain.json()
        held.pop().close()
        deadline = time.monotonic() + 10  # the closed stream's handler ends on its next write
        while (again := await client.get("/api/events")).status != 200:
            assert time.monotonic() < deadline, "a closed page never freed its place"
            page.changed()
            await asyncio.sleep(0.02)
        for stream in [*held, again]:
            stream.close()
        return as_a_browser.status, said, refused[0], refused[1], again.status

    status, said, refused_status, refused, again = serve(page, scenario)
    words = "too many pages open from this address (8 at most): close one and reload"
    assert status == 200 and said.startswith("retry: 60000\nevent: refused\ndata: ")
    assert json.loads(said.split("data: ", 1)[1]) == {"error": words}
    assert (refused_status, refused) == (429, {"error": words})
    assert again == 200  # a page closed frees its place


# --- logging in ---------------------------------------------------------------------------------


def test_the_right_password_gives_a_strict_http_only_secure_cookie(page: DirectorPage) -> None:
    async def scenario(client: Client) -> str:
        answer = await client.post(
            "/login", data={"password": PASSWORD}, headers=origin(client), allow_redirects=False
        )
        assert answer.status == 303
        return answer.headers["Set-Cookie"]

    cookie = serve(page, scenario)
    assert cookie.startswith(f"{COOKIE}=")
    for attribute in ("HttpOnly", "SameSite=Strict", "Secure", "Max-Age=43200"):
        assert attribute in cookie


def test_a_wrong_password_is_refused_without_a_session(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str, int]:
        answer = await client.post(
            "/login", data={"password": "not the password"}, headers=origin(client)
        )
        return answer.status, await error_line(answer), (await client.get("/")).status

    status, line, then = serve(page, scenario)
    assert status == 403
    assert line == "that is not the name and password of a staff account"
    assert then == 403  # no session: the director's page is still refused


def test_login_over_plain_http_is_refused_from_another_machine_whatever_its_host_header(
    page: DirectorPage,
) -> None:
    class FromTheHall:  # a connection from another machine of the hall's network
        def get_extra_info(self, name: str, default: object = None) -> object:
            return ("192.0.2.7", 50123) if name == "peername" else default

        def is_closing(self) -> bool:
            return False

    async def scenario() -> tuple[int, str]:
        app = make_app(page)
        request = make_mocked_request(
            "POST",
            "/login",
            headers={"Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080"},
            app=app,
            transport=FromTheHall(),
        )
        match = await app.router.resolve(request)
        answer = await match.handler(request)
        assert isinstance(answer, web.Response) and isinstance(answer.text, str)
        return answer.status, answer.text

    status, html = asyncio.run(scenario())
    assert status == 403
    assert "--page-cert and --page-key" in html


def test_login_over_plain_http_on_the_hubs_own_machine_is_taken_whatever_its_host_header(
    record: TournamentDB,
) -> None:
    page = director_page(record, names=("hub.local",))  # a name the page serves (R722)

    async def scenario(client: Client) -> int:
        answer = await client.post(
            "/login",
            data={"password": PASSWORD},
            headers={"Host": "hub.local:8080", "Origin": "http://hub.local:8080"},
            allow_redirects=False,
        )
        return answer.status

    assert serve(page, scenario) == 303


def test_parallel_wrong_passwords_from_one_address_are_tried_one_at_a_time(
    page: DirectorPage,
) -> None:
    async def scenario(client: Client) -> list[str]:
        async def wrong() -> str:
            answer = await client.post(
                "/login", data={"password": "not the password"}, headers=origin(client)
            )
            return await error_line(answer)

        return list(await asyncio.gather(*(wrong() for _ in range(40))))

    lines = serve(page, scenario)
    tried = [line for line in lines if line.startswith("that is not")]
    assert 1 <= len(tried) <= FREE_TRIES  # the page's clock stands still: the wait never ends
    assert all(
        "being checked: try again in 1 s" in line or "wrong passwords from this address" in line
        for line in lines
        if not line.startswith("that is not")
    )


@pytest.mark.parametrize("path", ["/login", "/result"])
def test_a_form_that_is_not_utf8_is_one_line_naming_the_encoding(
    page: DirectorPage, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await client.post(
            path,
            data=b"\xff\xfe=\xff&csrf=" + csrf.encode(),
            headers={**origin(client), "Content-Type": "application/x-www-form-urlencoded"},
        )
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (400, "the form is not utf-8 text: expected a form in UTF-8")
    assert "Traceback" not in caplog.text and "page_error" not in caplog.text


def test_without_a_password_set_the_login_page_says_how_to_set_one(tmp_path: Path) -> None:
    path = make_record(tmp_path / "bare.db", password=None)
    with TournamentDB.open(path) as bare:

        async def scenario(client: Client) -> tuple[str, int]:
            form = await (await client.get("/login")).text()
            answer = await client.post("/login", data={"password": "x"}, headers=origin(client))
            return form, answer.status

        form, status = serve(director_page(bare), scenario)
    assert "gametable hub director-password RECORD" in form
    assert status == 403


def test_logout_ends_the_session(page: DirectorPage, record: TournamentDB) -> None:
    async def scenario(client: Client) -> int:
        csrf = await log_in(client)
        await client.post("/logout", data={"csrf": csrf}, headers=origin(client))
        answer = await client.post("/result", data=result(csrf), headers=origin(client))
        return answer.status

    assert serve(page, scenario) == 403
    assert record.results() == ()


# --- changing the record ------------------------------------------------------------------------


def test_the_director_enters_a_result_through_the_record(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> str:
        csrf = await log_in(client)
        answer = await client.post("/result", data=result(csrf), headers=origin(client))
        return await answer.text()

    html = serve(page, scenario)
    entry = record.current_result(1, 1)
    assert entry is not None
    assert (entry.a_points, entry.b_points, entry.entered_by, entry.source) == (
        40, 30, "director", DIRECTOR_SOURCE,
    )  # fmt: skip
    assert "round 1 table 1:" in html and "(recorded, version 1)" in html


def test_a_second_result_without_a_reason_is_the_records_own_error(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        await client.post("/result", data=result(csrf), headers=origin(client))
        answer = await client.post("/result", data=result(csrf, b=35), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 409
    assert "already has a result (40-30" in line and "expected an amendment with a reason" in line
    assert len(record.result_history(1, 1)) == 1


def test_an_amendment_with_a_reason_supersedes_the_result(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> None:
        csrf = await log_in(client)
        await client.post("/result", data=result(csrf), headers=origin(client))
        amended = result(csrf, b=35, reason="the dealer misread game 3")
        await client.post("/result", data=amended, headers=origin(client))

    serve(page, scenario)
    history = record.result_history(1, 1)
    assert [(e.b_points, e.reason) for e in history] == [
        (30, None), (35, "the dealer misread game 3"),
    ]  # fmt: skip


def test_points_the_rules_refuse_are_one_line_and_change_nothing(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await client.post("/result", data=result(csrf, a=42), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 409
    assert "multiple of 5" in line
    assert record.results() == ()


def test_a_form_field_that_is_not_a_number_is_one_line(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await client.post(
            "/result", data={**result(csrf), "table": "1; DROP"}, headers=origin(client)
        )
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 400
    assert line.startswith("the table: expected a whole number")


def test_pairing_waits_for_every_result_then_pairs_and_tells_the_hub(
    page: DirectorPage, record: TournamentDB
) -> None:
    told: list[str] = []
    page.after_change = lambda: told.append("changed")

    async def scenario(client: Client) -> tuple[str, str]:
        csrf = await log_in(client)
        early = await client.post("/pair", data={"csrf": csrf}, headers=origin(client))
        refusal = await error_line(early)
        for table in (1, 2):
            await client.post("/result", data=result(csrf, table), headers=origin(client))
        paired = await client.post("/pair", data={"csrf": csrf}, headers=origin(client))
        return refusal, await paired.text()

    refusal, html = serve(page, scenario)
    assert "round 2 cannot be paired yet" in refusal
    assert len(record.rounds()) == 2
    assert "round 2 paired: 2 matches" in html and "Round 2 of 3" in html
    assert told == ["changed"] * 3  # two results and the pairing


def test_a_pair_button_left_open_pairs_only_the_round_it_names(
    page: DirectorPage, record: TournamentDB
) -> None:
    """Two directors' pages both say "Pair round 2": the first pairs it; the second, pressed
    once round 2's results are in, must not pair round 3 in its place."""

    async def scenario(client: Client) -> tuple[str, str]:
        csrf = await log_in(client)
        for table in (1, 2):
            await client.post("/result", data=result(csrf, table), headers=origin(client))
        form = {"csrf": csrf, "round": "2"}
        first = await client.post("/pair", data=form, headers=origin(client))
        for table in (1, 2):
            entered = {**result(csrf, table), "round": "2"}
            await client.post("/result", data=entered, headers=origin(client))
        stale = await client.post("/pair", data=form, headers=origin(client))
        return await first.text(), await error_line(stale)

    first, refusal = serve(page, scenario)
    assert "round 2 paired" in first
    assert refusal.startswith("round 2 cannot be paired: the next round is 3")
    assert len(record.rounds()) == 2


def test_the_pair_button_names_its_round(page: DirectorPage) -> None:
    async def scenario(client: Client) -> str:
        await log_in(client)
        return await (await client.get("/")).text()

    assert '<input type="hidden" name="round" value="2">' in serve(page, scenario)


# --- refused changes ----------------------------------------------------------------------------


def test_a_change_without_a_session_is_refused(page: DirectorPage, record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.post("/result", data=result("guess"), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (403, "only staff may change the record: log in first")
    assert record.results() == ()


@pytest.mark.parametrize("csrf", [None, "", "a-guessed-token"])
def test_a_change_without_the_sessions_csrf_token_is_refused(
    page: DirectorPage, record: TournamentDB, csrf: str | None
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        await log_in(client)
        form = result(csrf or "")
        if csrf is None:
            del form["csrf"]
        answer = await client.post("/result", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 403
    assert line == "the form&#x27;s security token is missing or stale: reload the page"
    assert record.results() == ()


@pytest.mark.parametrize(
    ("headers", "says"),
    [
        ({}, "a change without an Origin header is refused"),
        ({"Origin": "http://evil.example"}, "a change from another site is refused"),
        ({"Origin": "null"}, "a change from another site is refused"),
    ],
)
def test_a_change_from_another_origin_is_refused(
    page: DirectorPage, record: TournamentDB, headers: dict[str, str], says: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        answer = await client.post("/pair", data={"csrf": csrf}, headers=headers)
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 403
    assert line.startswith(says)
    assert len(record.rounds()) == 1


# --- attacks from other sites (R722, R723) -------------------------------------------------------


def _rebound(client: Client) -> dict[str, str]:
    """What a page at evil.example sends once its name points at the hub's address: its own
    name as the Host and as the Origin, which agree."""
    port = client.make_url("/").port
    return {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "http://evil.example"}, {"Origin": "null"}, {}],
    ids=["another-site", "opaque", "no-origin"],
)
def test_logins_from_another_site_do_not_lock_the_director_out(
    page: DirectorPage, headers: dict[str, str]
) -> None:
    async def scenario(client: Client) -> tuple[list[int], int]:
        tried = []
        for _ in range(FREE_TRIES):  # enough wrong passwords to make the address wait
            answer = await client.post("/login", data={"password": "a guess"}, headers=headers)
            tried.append(answer.status)
        director = await client.post(
            "/login", data={"password": PASSWORD}, headers=origin(client), allow_redirects=False
        )
        return tried, director.status

    tried, director = serve(page, scenario)
    assert tried == [403] * FREE_TRIES
    assert director == 303  # at once: the page's clock stands still, a wait would never end


def test_a_login_from_another_site_is_refused_in_words_before_its_password_is_read(
    page: DirectorPage,
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.post(
            "/login", data={"password": PASSWORD}, headers={"Origin": "http://evil.example"}
        )
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert (status, line) == (
        403,
        "a change from another site is refused: use the hub&#x27;s own page",
    )


def test_a_rebinding_page_s_logins_are_refused_and_do_not_lock_the_director_out(
    page: DirectorPage,
) -> None:
    async def scenario(client: Client) -> tuple[list[int], str, int]:
        answers = [
            await client.post("/login", data={"password": "a guess"}, headers=_rebound(client))
            for _ in range(FREE_TRIES)
        ]
        director = await client.post(
            "/login", data={"password": PASSWORD}, headers=origin(client), allow_redirects=False
        )
        return [a.status for a in answers], await error_line(answers[0]), director.status

    statuses, line, director = serve(page, scenario)
    assert statuses == [421] * FREE_TRIES
    assert line.startswith("this page is not served as &#x27;evil.example&#x27;: open it as ")
    assert director == 303


@pytest.mark.parametrize("path", ["/", "/public", "/tables/1", "/login"])
def test_a_page_asked_for_by_a_name_the_hub_does_not_serve_is_refused(
    page: DirectorPage, path: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get(path, headers=_rebound(client))
        return answer.status, await answer.text()

    status, html = serve(page, scenario)
    assert status == 421
    assert "--page-name evil.example" in html
    assert "Eagles" not in html and "<form" not in html


def test_the_board_asked_for_by_a_name_the_hub_does_not_serve_is_one_line_of_json(
    page: DirectorPage,
) -> None:
    async def scenario(client: Client) -> tuple[int, Any]:
        answer = await client.get("/api/board", headers=_rebound(client))
        return answer.status, await answer.json()

    status, body = serve(page, scenario)
    assert status == 421 and set(body) == {"error"}


def test_a_rebinding_page_cannot_change_the_record_with_the_director_logged_in(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)  # even were the token known to it
        answer = await client.post("/pair", data={"csrf": csrf}, headers=_rebound(client))
        return answer.status, await answer.text()

    status, html = serve(page, scenario)
    assert status == 421
    assert 'name="csrf"' not in html  # its answer, which that page can read, shows no form
    assert len(record.rounds()) == 1


def test_the_page_opened_by_a_name_it_serves_takes_a_login(record: TournamentDB) -> None:
    page = director_page(record, names=("hub.local",))

    async def scenario(client: Client) -> tuple[int, int]:
        port = client.make_url("/").port
        named = {"Host": f"HUB.local:{port}", "Origin": f"http://hub.local:{port}"}
        shown = await client.get("/login", headers=named)
        login = await client.post(
            "/login", data={"password": PASSWORD}, headers=named, allow_redirects=False
        )
        return shown.status, login.status

    assert serve(page, scenario) == (200, 303)


def test_a_change_sent_as_json_or_too_large_is_one_line(page: DirectorPage) -> None:
    async def scenario(client: Client) -> list[tuple[int, str]]:
        csrf = await log_in(client)
        as_json = await client.post("/pair", json={"csrf": csrf}, headers=origin(client))
        huge = await client.post(
            "/result", data={**result(csrf), "reason": "x" * MAX_BODY}, headers=origin(client)
        )
        return [(a.status, await error_line(a)) for a in (as_json, huge)]

    answers = serve(page, scenario)
    assert answers[0] == (415, "expected a form sent as application/x-www-form-urlencoded")
    assert answers[1][0] == 413 and "too large" in answers[1][1]
