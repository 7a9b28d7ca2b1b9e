"""Rooms from the director's page (issue 27, R1115): ``/rooms`` lists each room with its
building, tables and who added it; a director adds one (refused in the CLI's words) and removes
one, confirmed; a Remove of a page since made stale removes nothing; staff below a director
change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.staff import Role
from firmware_py.director.record.rooms import parse_tables
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput
from tests.hub_page_helpers import (
    NOW,
    add_staff,
    csrf_of,
    director_page,
    error_line,
    log_in,
    make_record,
    origin,
    serve,
)
from tests.test_hub_page_close import _closed

Client = TestClient[Any, Any]


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


def _rooms(record: TournamentDB) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(room.name, room.building, room.tables) for room in record.rooms()]


def _post(
    record: TournamentDB, path: str, form: dict[str, str], *, as_results: bool = False
) -> tuple[int, str]:
    """``form`` posted to ``path`` by a logged-in director (or results staff): the status and
    the page answered, unescaped."""
    password = add_staff(record, "desk", Role.RESULTS) if as_results else None

    async def scenario(client: Client) -> tuple[int, str]:
        if password is None:
            csrf = await log_in(client)
        else:
            csrf = await log_in(client, password, "desk")
        answer = await client.post(path, data={"csrf": csrf, **form}, headers=origin(client))
        return answer.status, unescape(await answer.text())

    return serve(director_page(record), scenario)


def test_a_director_adds_a_room_and_the_page_lists_it_with_who_added_it(
    record: TournamentDB,
) -> None:
    form = {"name": "Ballroom B", "tables": "9-16", "building": "East Hall"}
    status, html = _post(record, "/rooms/add", form)
    assert status == 200
    assert _rooms(record) == [("Ballroom B", "East Hall", tuple(range(9, 17)))]
    assert "room East Hall, Ballroom B: tables 9-16 added (by director)" in html
    assert (
        '<tr><td>Ballroom B</td><td data-label="building">East Hall</td>'
        '<td data-label="tables">9-16</td>' in html
    )
    assert " by director</td>" in html


def test_a_room_is_added_with_tables_written_one_by_one(record: TournamentDB) -> None:
    _post(record, "/rooms/add", {"name": "Annex", "tables": "1,3,5", "building": ""})
    assert _rooms(record) == [("Annex", "", (1, 3, 5))]


def test_tables_the_page_cannot_read_are_refused_in_the_clis_words(
    record: TournamentDB,
) -> None:
    with pytest.raises(InvalidInput) as cli_words:  # what `room add --tables 9-x` says
        parse_tables("9-x")
    status, html = _post(record, "/rooms/add", {"name": "Attic", "tables": "9-x"})
    assert status == 400
    assert str(cli_words.value) in html
    assert _rooms(record) == []
    assert 'id="room-form"' in html  # the page again, to try again


def test_a_room_without_a_name_is_refused_in_words(record: TournamentDB) -> None:
    status, html = _post(record, "/rooms/add", {"name": " ", "tables": "1-2"})
    assert status == 400
    assert "the room is empty: expected a name such as 'Ballroom B'" in html
    assert _rooms(record) == []


def test_a_table_already_in_a_room_is_refused_in_the_records_words(
    record: TournamentDB,
) -> None:
    record.add_room("Ballroom A", [1, 2], building="", now=NOW, by="director")
    status, html = _post(record, "/rooms/add", {"name": "Ballroom B", "tables": "2-4"})
    assert status == 409
    assert (
        "table 2 is already in Ballroom A: a table is in one room at most "
        "(remove 'Ballroom A' first)" in html
    )
    assert _rooms(record) == [("Ballroom A", "", (1, 2))]


def test_a_director_removes_a_room_confirmed_and_its_tables_are_in_none(
    record: TournamentDB,
) -> None:
    record.add_room("Ballroom B", [9, 10], building="", now=NOW, by="director")
    form = {"name": "Ballroom B", "tables": "9-10", "confirm": "yes"}
    status, html = _post(record, "/rooms/remove", form)
    assert status == 200
    assert _rooms(record) == []
    assert "room 'Ballroom B' removed (by director): tables 9-10 in no room" in html


def test_removing_a_room_asks_for_the_confirmation_first(record: TournamentDB) -> None:
    record.add_room("Ballroom B", [9, 10], building="", now=NOW, by="director")

    async def scenario(client: Client) -> tuple[str, int, str]:
        csrf = await log_in(client)
        shown = unescape(await (await client.get("/rooms")).text())
        data = {"csrf": csrf, "name": "Ballroom B", "tables": "9-10"}
        answer = await client.post("/rooms/remove", data=data, headers=origin(client))
        return shown, answer.status, await error_line(answer)

    shown, status, refused = serve(director_page(record), scenario)
    assert (status, refused) == (
        400,
        "removing a room: expected the confirmation (the Confirm button)",
    )
    assert _rooms(record) == [("Ballroom B", "", (9, 10))]
    assert "<p>Remove Ballroom B? Tables 9-10 are then in no room" in shown
    assert 'value="yes" class="danger">Confirm: remove Ballroom B</button>' in shown


def test_a_stale_remove_of_a_room_since_added_again_removes_nothing(
    record: TournamentDB,
) -> None:
    """R1115: the page showed Ballroom B at 9-10; someone removed it and added it at 1-4."""
    record.add_room("Ballroom B", [1, 2, 3, 4], building="", now=NOW, by="director")
    form = {"name": "Ballroom B", "tables": "9-10", "confirm": "yes"}
    status, html = _post(record, "/rooms/remove", form)
    assert status == 409
    assert (
        "room 'Ballroom B' has changed since this page was loaded (tables 9-10 then, 1-4 now): "
        "nothing removed; look at the rooms again" in html
    )
    assert _rooms(record) == [("Ballroom B", "", (1, 2, 3, 4))]


def test_results_staff_may_not_add_a_room(record: TournamentDB) -> None:
    status, html = _post(record, "/rooms/add", {"name": "Attic", "tables": "1"}, as_results=True)
    assert status == 403
    assert "managing the rooms" in html
    assert _rooms(record) == []


def test_the_directors_navigation_leads_to_the_rooms(record: TournamentDB) -> None:
    async def scenario(client: Client) -> tuple[str, str]:
        await log_in(client)
        index = await (await client.get("/")).text()
        rooms = await (await client.get("/rooms")).text()
        return index, rooms

    index, rooms = serve(director_page(record), scenario)
    assert '<a href="/rooms" id="rooms-link">Rooms</a>' in index
    assert "No rooms yet: every table is in none." in rooms
    assert csrf_of(rooms)


def test_results_staff_see_no_rooms_link_and_are_refused_the_rooms_page(
    record: TournamentDB,
) -> None:
    password = add_staff(record, "desk", Role.RESULTS)

    async def scenario(client: Client) -> tuple[str, int]:
        await log_in(client, password, "desk")
        index = await (await client.get("/")).text()
        return index, (await client.get("/rooms")).status

    index, status = serve(director_page(record), scenario)
    assert 'id="rooms-link"' not in index
    assert status == 403


def test_no_room_is_added_from_the_page_while_the_tournament_is_closed(
    record: TournamentDB,
) -> None:
    _closed(record)  # every round played, a champion recorded (R850)
    status, html = _post(record, "/rooms/add", {"name": "Foyer", "tables": "3"})
    assert status == 409
    assert "adding room 'Foyer': the tournament is closed" in html
    assert _rooms(record) == []
