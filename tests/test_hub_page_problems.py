"""The director's control room (docs/hub.md, "The control room", R800-R804): the problem queue
at the top of ``/``, as ``/problems`` and as ``/api/problems``; each problem with what to do
and a link to do it, oldest first, gone once put right; and the tiles' teams from the record.
Through aiohttp's test client; one test through a real mosquitto and the hub."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.problems import SCOREBOARD_ALERT, SILENT_SECONDS
from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff import Role, StaffRecord
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from firmware_py.table.daemon import OUTBOX_DAMAGED, SCOREBOARD_LOST, UNSENT_CONFIRMED
from firmware_py.table.hub_wire import Decision, events_topic
from tests.hub_helpers import WAIT_SECONDS, Broker, Peer, password_of
from tests.hub_page_helpers import (
    NOW,
    add_staff,
    cookie_of_login,
    director_page,
    log_in,
    make_record,
    origin,
    problem_once_heard,
    serve,
    state,
)

Client = TestClient[Any, Any]
T0 = datetime.fromisoformat(NOW).timestamp()  # round 1 was paired then
LATER = "2026-05-09T09:40:00+00:00"
LATEST = "2026-05-09T09:50:00+00:00"
JOURNAL = "5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        opened.upgrade_for_hub()
        yield opened


@pytest.fixture
def board() -> LiveBoard:
    return LiveBoard()


@pytest.fixture
def page(record: TournamentDB, board: LiveBoard) -> DirectorPage:
    made = director_page(record, board)
    made.wall = lambda: T0 + 3600
    return made


def reported(table: int, seq: int, a: object, b: object, round_number: int = 1) -> Decision:
    session = {"action": "match.start", "round": round_number, "minutes": 20}
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    return Decision(JOURNAL, seq, "2026-05-09T09:35:00.000+00:00", session, event)


def director_enters(
    record: TournamentDB, table: int, a: int, b: int, *, at: str = NOW, reason: str | None = None
) -> None:
    with record.transaction() as tournament:
        record.add_result(
            tournament.result(1, table, a, b),
            now=at,
            by="director",
            source=DIRECTOR_SOURCE,
            amend_reason=reason,
        )


async def log_in_as(client: Client, page: DirectorPage, role: Role) -> str:
    """Logged in as a staff member of ``role`` (the director's own account for a director);
    the CSRF token of the forms."""
    if role is Role.DIRECTOR:
        return await log_in(client)
    name, password = f"{role.value}-staff", f"{role.value} staff's password"
    if StaffRecord(page.record).find(name) is None:
        add_staff(page.record, name, role, password)
    return await log_in(client, password, name)


def read(page: DirectorPage, path: str, role: Role = Role.VIEWER) -> Any:
    """``path`` read by a staff member of ``role``: the JSON under /api/, else the HTML."""

    async def scenario(client: Client) -> Any:
        await log_in_as(client, page, role)
        answer = await client.get(path)
        assert answer.status == 200
        return await (answer.json() if path.startswith("/api/") else answer.text())

    return serve(page, scenario)


def queue(page: DirectorPage, role: Role = Role.VIEWER) -> list[dict[str, Any]]:
    """The queue as /api/problems gives it to a staff member of ``role``: any staff member
    reads it (R816); the links to the result form are for those who may enter (R811)."""
    return list(read(page, "/api/problems", role)["problems"])


def kinds(page: DirectorPage, kind: str, role: Role = Role.VIEWER) -> list[dict[str, Any]]:
    return [problem for problem in queue(page, role) if problem["kind"] == kind]


# --- results ------------------------------------------------------------------------------------


def test_a_result_the_record_refused_appears_with_a_link_to_enter_it(
    page: DirectorPage, record: TournamentDB
) -> None:
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)
    (problem,) = kinds(page, "refused", Role.RESULTS)
    assert (problem["table"], problem["round"]) == (1, 1)
    assert "the record refused the table's result 43-20" in problem["what"]
    assert "not a multiple of 5" in problem["what"]
    assert problem["links"][0] == {
        "text": "Enter the result",
        "href": "/?round=1&table=1#result-form",
    }


def test_a_refused_result_leaves_the_queue_once_the_match_has_a_result(
    page: DirectorPage, record: TournamentDB
) -> None:
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)
    director_enters(record, 1, 45, 20, at=LATEST)
    assert kinds(page, "refused") == []


def test_a_conflict_with_the_directors_result_links_to_the_form_with_the_tables_points(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)
    (problem,) = kinds(page, "conflict", Role.DIRECTOR)
    assert problem["table"] == 2 and "the table reports 40-30" in problem["what"]
    assert problem["links"][0]["href"] == ("/?round=1&table=2&a_points=40&b_points=30#result-form")
    assert {"text": "Result sheet", "href": "/sheet/1/2"} in problem["links"]


def test_a_conflict_leaves_the_queue_once_the_director_amends_the_result_after_it(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)
    director_enters(record, 2, 40, 20, at=LATEST, reason="the sheet says 40-20")  # kept
    assert kinds(page, "conflict") == []


def test_a_conflict_leaves_the_queue_once_the_record_holds_the_tables_points(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)
    director_enters(record, 2, 40, 30, at=LATER, reason="the table was right")
    assert kinds(page, "conflict") == []


def test_a_conflict_the_table_takes_back_leaves_the_queue(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)
    apply_result(record, 2, reported(2, 10, 40, 20), now=LATEST)  # the table's own correction
    assert kinds(page, "conflict") == []


def test_a_rounds_missing_results_appear_after_pairing_and_go_as_they_come(
    page: DirectorPage, record: TournamentDB
) -> None:
    (missing,) = kinds(page, "missing")
    assert missing["what"] == "Round 1: 2 of 2 results missing"
    assert missing["tables"] == [1, 2] and missing["since"] == T0
    director_enters(record, 1, 40, 20)
    (missing,) = kinds(page, "missing")
    assert missing["tables"] == [2]
    director_enters(record, 2, 40, 20)
    assert kinds(page, "missing") == []
    with record.transaction() as tournament:
        record.add_round(tournament.pair(2), tournament.plan(2), now=LATEST, by="director")
    (missing,) = kinds(page, "missing")
    assert missing["what"] == "Round 2: 2 of 2 results missing"


def test_a_refused_result_nothing_can_settle_leaves_once_marked_seen(
    page: DirectorPage, record: TournamentDB
) -> None:
    apply_result(record, 9, reported(9, 7, 40, 20), now=LATER)  # table 9 plays no match
    (problem,) = kinds(page, "refused", Role.DIRECTOR)
    assert problem["links"] == [{"text": "Table 9's record", "href": "/tables/9"}]

    async def scenario(client: Client) -> tuple[int, list[str]]:
        csrf = await log_in(client)
        seen = {"csrf": csrf, "key": problem["seen_key"], "back": "/"}
        done = await client.post("/problems/seen", data=seen, headers=origin(client))
        left = (await (await client.get("/api/problems")).json())["problems"]
        return done.status, [p["kind"] for p in left]

    status, left = serve(page, scenario)
    assert status == 200 and "refused" not in left


def test_marking_seen_a_problem_that_is_not_there_is_one_line(page: DirectorPage) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client)
        seen = {"csrf": csrf, "key": "report-9-00000000-1"}
        answer = await client.post("/problems/seen", data=seen, headers=origin(client))
        return answer.status, await answer.text()

    status, html = serve(page, scenario)
    assert status == 409
    assert "no problem &#x27;report-9-00000000-1&#x27; to mark seen: it is gone already" in html


# --- the tables ---------------------------------------------------------------------------------


def test_an_offline_table_appears_since_it_went_offline_and_leaves_when_back(
    page: DirectorPage, board: LiveBoard
) -> None:
    board.take_status(7, b"online", T0 + 10)
    board.take_status(7, b"offline", T0 + 20)
    board.take_status(7, b"offline", T0 + 30)  # again: still offline since T0 + 20
    (problem,) = kinds(page, "offline")
    assert problem["table"] == 7 and problem["since"] == T0 + 20
    assert problem["links"] == [{"text": "Table 7's record", "href": "/tables/7"}]
    board.take_status(7, b"online", T0 + 40)
    assert kinds(page, "offline") == []


def test_a_table_silent_too_long_during_a_game_appears(
    page: DirectorPage, board: LiveBoard
) -> None:
    now = page.wall()
    board.take_state(3, state(3), now - SILENT_SECONDS - 1)
    (problem,) = kinds(page, "silent")
    assert problem["table"] == 3 and "has sent nothing for 5 min" in problem["what"]
    board.take_state(3, state(3), now - 1)
    assert kinds(page, "silent") == []


def test_a_quiet_table_between_games_is_no_problem(page: DirectorPage, board: LiveBoard) -> None:
    board.take_state(3, state(3, in_game=False, clock=None), page.wall() - 3600)
    assert kinds(page, "silent") == []


def test_a_stuck_input_appears_since_the_alert_began(page: DirectorPage, board: LiveBoard) -> None:
    stuck = {"title": "G3", "big": "", "lines": [], "footer": "", "alert": "STUCK A.stand"}
    board.take_state(4, state(4, screen=stuck, clock="12:41"), T0 + 100)
    board.take_state(4, state(4, screen=stuck, clock="12:40"), T0 + 101)
    (problem,) = kinds(page, "stuck")
    assert problem["what"] == "Table 4: STUCK A.stand" and problem["since"] == T0 + 100
    board.take_state(4, state(4), T0 + 102)
    assert kinds(page, "stuck") == []


def test_a_journal_that_cannot_be_written_appears(page: DirectorPage, board: LiveBoard) -> None:
    board.take_state(5, state(5, saved=False), T0 + 100)
    board.take_state(5, state(5, saved=False, clock="12:40"), T0 + 101)
    (problem,) = kinds(page, "journal")
    assert problem["table"] == 5 and problem["since"] == T0 + 100
    assert "cannot write its journal" in problem["what"]


def test_the_queue_knows_the_tables_scoreboard_alert() -> None:
    assert SCOREBOARD_ALERT == SCOREBOARD_LOST


def test_a_table_s_complaint_of_unsent_decisions_confirmed_is_in_the_queue(
    page: DirectorPage, board: LiveBoard
) -> None:
    """R927: the table says it on its OLED's alert row, which its state carries."""
    unsent = {"title": "G3", "big": "", "lines": [], "footer": "", "alert": UNSENT_CONFIRMED}
    board.take_state(6, state(6, screen=unsent), T0 + 100)
    (problem,) = kinds(page, "unsent")
    assert problem["what"] == (
        "Table 6: the hub confirms decisions it never sent (it keeps and sends them)"
    )
    board.take_state(6, state(6), T0 + 101)
    assert kinds(page, "unsent") == []


def test_a_table_whose_sending_stopped_at_a_damaged_outbox_row_is_in_the_queue(
    page: DirectorPage, board: LiveBoard
) -> None:
    """R905: the table's OLED says it on its alert row; the director enters its results by
    hand, so the queue says so, and the problem goes once the table no longer says it."""
    damaged = {"title": "G3", "big": "", "lines": [], "footer": "", "alert": OUTBOX_DAMAGED}
    board.take_state(6, state(6, screen=damaged), T0 + 100)
    (problem,) = kinds(page, "outbox")
    assert problem["what"] == "Table 6 stopped sending results at a damaged entry of its journal"
    assert "enter the match's result by hand" in problem["todo"]
    board.take_state(6, state(6), T0 + 101)
    assert kinds(page, "outbox") == []


def test_problems_are_listed_oldest_first(
    page: DirectorPage, record: TournamentDB, board: LiveBoard
) -> None:
    board.take_status(9, b"offline", T0 + 5000)
    board.take_status(8, b"offline", T0 + 50)
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)  # T0 + 40 min
    found = [(p["kind"], p["table"]) for p in queue(page)]
    assert found == [("missing", None), ("offline", 8), ("refused", 1), ("offline", 9)]


# --- the hub's refusals -------------------------------------------------------------------------


def test_marking_a_decision_the_hub_could_not_apply_seen_takes_the_director(
    page: DirectorPage,
) -> None:
    refusal = page.refusals.add(6, JOURNAL, 12, "decision 12: session: expected an object", T0)

    async def scenario(client: Client) -> tuple[int, int, str, list[str]]:
        seen = {"key": refusal.key, "back": "/problems"}
        anyone = await client.post("/problems/seen", data=seen, headers=origin(client))
        csrf = await log_in(client)
        listed = await (await client.get("/problems")).text()
        seen["csrf"] = csrf
        done = await client.post("/problems/seen", data=seen, headers=origin(client))
        left = (await (await client.get("/api/problems")).json())["problems"]
        return anyone.status, done.status, listed, [p["kind"] for p in left]

    anyone, done, listed, left = serve(page, scenario)
    assert anyone == 403
    assert "the hub could not apply journal entry 12" in listed and "Mark seen" in listed
    assert done == 200 and "not_applied" not in left


def test_a_decision_the_hub_cannot_read_reaches_the_queue(broker: Broker, tmp_path: Path) -> None:
    """Through mosquitto: table 7 sends a decision whose session is not an object; the hub
    confirms past it (R196), and the director's queue has it."""
    table = Peer(broker, "7")

    async def scenario() -> list[dict[str, Any]]:
        async with hub_and_page(broker, make_record(tmp_path / "t.db")) as page:
            bad = {"journal": JOURNAL, "seq": 1, "wall": NOW, "session": "?", "event": {}}
            url = f"http://127.0.0.1:{page.port}/api/problems"
            async with ClientSession() as http, asyncio.timeout(WAIT_SECONDS):
                # the director, who may mark it seen: its key is theirs alone (R811)
                director = await cookie_of_login(http, page.port)
                send = partial(table.publish, events_topic(7), json.dumps(bad))
                return await problem_once_heard(http, url, director, send, "not_applied")

    try:
        (problem,) = asyncio.run(scenario())
    finally:
        table.close()
    assert problem["table"] == 7 and "journal entry 1" in problem["what"]
    assert problem["seen_key"] == f"7-{JOURNAL[:8]}-1"


@contextlib.asynccontextmanager
async def hub_and_page(
    broker: Broker, record_path: Path, now: Callable[[], str] = lambda: NOW
) -> AsyncIterator[DirectorPage]:
    """The hub and its page sharing the board and the hub's refusals, as ``hub run`` wires
    them; ``now``: the record's clock."""
    with TournamentDB.open(record_path) as record:
        record.upgrade_for_hub()
        board = LiveBoard()
        hub = Hub(
            record,
            HubBroker("127.0.0.1", broker.port, "hub", password_of("hub")),
            board=board,
        )
        page = DirectorPage(listen("127.0.0.1", 0), record, board, now, refusals=hub.refusals)
        hub.on_board = page.changed
        await page.start()
        task = asyncio.create_task(hub.run())
        try:
            yield page
        finally:
            hub.stop()
            await task
            await page.stop()


# --- the views ----------------------------------------------------------------------------------


def test_the_queue_tops_the_directors_page_and_is_its_own_page(
    page: DirectorPage, record: TournamentDB
) -> None:
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)

    async def scenario(client: Client) -> tuple[str, str]:
        await log_in_as(client, page, Role.RESULTS)
        return (
            await (await client.get("/")).text(),
            await (await client.get("/problems")).text(),
        )

    index, alone = serve(page, scenario)
    assert index.index('id="problems"') < index.index('id="tables"')
    for html in (index, alone):
        assert "Result refused" in html and "Results missing" in html
        assert 'href="/?round=1&amp;table=1#result-form"' in html
    assert 'id="tile-search"' in index and 'id="tile-problem"' in index


def test_the_tiles_teams_come_from_the_records_pairing_of_the_latest_round(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 1, 40, 20)

    tables = dict(read(page, "/api/problems")["tables"])
    (round_one,) = record.rounds()
    for match in round_one.matches:
        assert tables[str(match.table)]["a"] == match.a
        assert tables[str(match.table)]["b"] == match.b
        assert tables[str(match.table)]["round"] == 1
    assert tables["1"]["result"] == "40-20" and tables["2"]["result"] is None


def test_a_tables_record_problems_are_named_on_its_tile(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)

    tables = dict(read(page, "/api/problems")["tables"])
    assert tables["2"]["problems"] == ["conflict"] and tables["1"]["problems"] == []


# --- each role's queue (R811) -------------------------------------------------------------------


def test_a_viewer_reads_the_queue_without_the_result_forms_links(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)  # a conflict
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)  # a refused result
    found = read(page, "/api/problems")
    hrefs = [link["href"] for problem in found["problems"] for link in problem["links"]]
    assert "/sheet/1/2" in hrefs and "/tables/1" in hrefs
    assert not [href for href in hrefs if "#result-form" in href]
    assert found["enters_results"] is False
    html = read(page, "/problems")
    assert "#result-form" not in html and 'href="/tables/1">1</a>' in html  # missing: table 1


def test_results_staff_are_linked_to_enter_a_result_never_to_amend_one(
    page: DirectorPage, record: TournamentDB
) -> None:
    director_enters(record, 2, 40, 20)
    apply_result(record, 2, reported(2, 9, 40, 30), now=LATER)  # a conflict: an amendment
    apply_result(record, 1, reported(1, 7, 43, 20), now=LATER)  # no result yet: a first one
    by_kind = {p["kind"]: p for p in queue(page, Role.RESULTS)}
    assert by_kind["refused"]["links"][0]["text"] == "Enter the result"
    assert by_kind["missing"]["links"][0]["text"] == "Enter the first"
    assert [link["text"] for link in by_kind["conflict"]["links"]] == [
        "Result sheet",
        "Table 2's record",
    ]
    assert read(page, "/api/problems", Role.RESULTS)["enters_results"] is True


def test_only_a_director_is_offered_to_mark_a_problem_seen(page: DirectorPage) -> None:
    page.refusals.add(6, JOURNAL, 12, "decision 12: session: expected an object", T0)
    for role in (Role.VIEWER, Role.RESULTS):
        (problem,) = kinds(page, "not_applied", role)
        assert problem["seen_key"] is None
        assert "Mark seen" not in read(page, "/problems", role)
        assert "Mark seen" not in read(page, "/", role)
    (problem,) = kinds(page, "not_applied", Role.DIRECTOR)
    assert problem["seen_key"] is not None
    assert "Mark seen" in read(page, "/problems", Role.DIRECTOR)
