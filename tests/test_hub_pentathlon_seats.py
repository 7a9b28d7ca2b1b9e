"""The players' names on the table's score card come from the tournament record (R795): the hub
publishes each Pentathlon round's seats (game, both players' names, their division, the event's
name) on a real mosquitto; the table takes its own seat as a journaled input; ``/card`` then
prints them, a restarted table prints the same card, and a card keeps the seat its result was
confirmed under. And the Director's 0 points recorded at the table reach the record's standings
through the same hub (R789, R794)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.family import PairedMatch
from firmware_py.table.hub_wire import (
    PentathlonSeats,
    PentathlonTableSeat,
    WireError,
    parse_pentathlon_seats,
    seated_match,
)
from firmware_py.table.journal_format import BadRow, checksum, decode_row, encode_body
from firmware_py.table.web.page import TablePage, listen
from rules.pentathlon.catalogue import Game
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints
from tests.hub_helpers import Broker
from tests.hub_table_helpers import until
from tests.pentathlon_table_helpers import PTable, begin
from tests.test_hub_end_to_end import running_hub
from tests.test_hub_pentathlon_end_to_end import Table, linked

NOW = "2026-05-09T09:00:00+00:00"
EVENT = "Spring Open"
PLAYERS = (Pentathlete("Ann Lee", "III"), Pentathlete("Ben Ode", "III"),
           Pentathlete("Cy Park", "III"), Pentathlete("Dee Roy", "III"))  # fmt: skip


def _seat(path: Path, round_number: int, a: str, b: str) -> None:
    with TournamentDB.open(path) as record:
        event = PentathlonRecord(record)
        with record.writing():
            seat = event.event().seat(round_number, 1, Game.QUEENS_AND_GUARDS, a, b)
            event.add_seat(seat, now=NOW, by="director")


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    """The Spring Open: Ann Lee (A) v Ben Ode (B) at table 1 for Queens & Guards in round 1."""
    path = tmp_path / "tournament.db"
    made = PentathlonRecord.start(
        path, PentathlonPoints(), PLAYERS, now=NOW, by="director", name=EVENT
    )
    made.close()
    _seat(path, 1, "Ann Lee", "Ben Ode")
    return path


def _card(table: PTable) -> str | None:
    """The card ``GET /card`` serves: the page's card as the daemon publishes the table."""
    page = TablePage(listen("127.0.0.1", 0))
    try:
        page.publish(table.controller, table.controller.view(), saved=True)
        return page.card
    finally:
        page.sock.close()


def _take_seat(table: Table) -> None:
    """What the daemon's loop does with the hub's seat: hand it to the table, journaled."""
    table.table.wait(1.0)
    table.table.virtual.pair(table.link.paired_match(), table.table.t)


def _confirm_a_tie(table: PTable) -> PTable:
    begin(table, "B").buttons("yes").choose("Tie: agreed").buttons("yes")
    assert table.game.phase == "over"
    return table


def test_the_hub_publishes_the_seat_with_the_names_and_the_table_takes_it(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.link.seated = True  # a Pentathlon table's link, as `gametable run` makes it

    async def scenario() -> PairedMatch | None:
        async with running_hub(broker, record_path), linked(table.link) as link:
            await until(lambda: link.paired_match() is not None, "the table's seat")
            return link.paired_match()

    seat = asyncio.run(scenario())
    assert seat == PairedMatch(1, "Ann Lee", "Ben Ode", 1, "queens-guards", "III", EVENT)
    table.close()


def test_the_card_prints_the_names_the_hub_seated(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    """Rulebook: each Pentathlete signs "their own score card": the card names the player."""
    table = Table(broker, tmp_path / "table-1.db")
    table.link.seated = True

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table.link) as link:
            await until(lambda: link.paired_match() is not None, "the table's seat")
            _take_seat(table)

    asyncio.run(scenario())
    card = _card(_confirm_a_tie(table.table))
    assert card is not None
    assert "Official Score Card of Player A: <bdi>Ann Lee</bdi></h1>" in card
    assert "Official Score Card of Player B: <bdi>Ben Ode</bdi></h1>" in card
    assert "Player A's signature: <bdi>Ann Lee</bdi>" in card
    for label, value in (("Event", f"<bdi>{EVENT}</bdi>"), ("Division", "<bdi>III</bdi>")):
        assert f'<span class="label">{label}</span>{value}</td>' in card
    for label, value in (("Round", "1"), ("Table", "1")):
        assert f'<span class="label">{label}</span>{value}</td>' in card
    table.close()


def test_a_restarted_table_prints_the_same_card(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    """The seat is a journaled input: the replay takes it at the same place (R122, R795)."""
    path = tmp_path / "table-1.db"
    table = Table(broker, path)
    table.link.seated = True

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table.link) as link:
            await until(lambda: link.paired_match() is not None, "the table's seat")
            _take_seat(table)

    asyncio.run(scenario())
    before = _card(_confirm_a_tie(table.table))
    table.close()
    restarted = PTable(journal=path, outbox=True, game="queens-guards")
    after = _card(restarted)
    assert after is not None and "Ann Lee" in after
    assert after == before
    restarted.close()


def test_the_card_keeps_the_seat_it_was_confirmed_under(tmp_path: Path) -> None:
    """Round 2 seated at the table before the card is printed names round 2's players, never
    on round 1's card."""
    table = PTable(journal=tmp_path / "t.db", game="queens-guards")
    round_1 = PairedMatch(1, "Ann Lee", "Ben Ode", 1, "queens-guards", "III", EVENT)
    table.virtual.pair(round_1, table.t)
    _confirm_a_tie(table)
    table.wait(5.0)
    round_2 = PairedMatch(2, "Cy Park", "Dee Roy", 1, "queens-guards", "III", EVENT)
    table.virtual.pair(round_2, table.t)
    card = _card(table)
    assert card is not None and "Ann Lee" in card and "Cy Park" not in card
    table.close()


def test_a_seat_for_another_game_leaves_blank_lines(tmp_path: Path) -> None:
    """The seat's game is not the game played: its names are not this game's players."""
    table = PTable(game="queens-guards")
    table.virtual.pair(PairedMatch(1, "Ann Lee", "Ben Ode", 1, "juggle", "III", EVENT), table.t)
    card = _card(_confirm_a_tie(table))
    assert card is not None and "Ann Lee" not in card
    assert card.count('<span class="blank"></span>') >= 6  # names, event, division, round...
    table.close()


def test_a_table_without_the_hub_prints_blank_lines_to_write_on() -> None:
    card = _card(_confirm_a_tie(PTable(game="queens-guards")))
    assert card is not None
    assert "Official Score Card of Player A</h1>" in card
    assert '<span class="label">Event</span><span class="blank"></span>' in card


def test_the_latest_round_s_seat_is_the_table_s() -> None:
    seats = {
        number: PentathlonSeats(
            number, EVENT, (PentathlonTableSeat(1, "juggle", "III", f"A{number}", f"B{number}"),)
        )
        for number in (1, 2)
    }
    assert seated_match(seats, 1) == PairedMatch(2, "A2", "B2", 1, "juggle", "III", EVENT)
    assert seated_match(seats, 2) is None
    assert seated_match({}, 1) is None


def test_the_seats_payload_round_trips_and_bad_ones_are_refused_in_one_line() -> None:
    seats = PentathlonSeats(3, EVENT, (PentathlonTableSeat(4, "juggle", "II", "Ann", "Ben"),))
    assert parse_pentathlon_seats(seats.to_bytes()) == seats
    with pytest.raises(WireError, match="expected each as a table, game, division, A and B"):
        parse_pentathlon_seats(b'{"round":1,"event":"","seats":[{"table":1,"A":"x"}]}')
    with pytest.raises(WireError, match="the event's name"):
        parse_pentathlon_seats(b'{"round":1,"event":"' + b"x" * 81 + b'","seats":[]}')


def test_the_director_s_0_points_at_the_table_reach_the_standings(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    """The monitor records "Infraction: A" with the Director's 0 points; the table's game_over
    carries it; the hub enters it; Ann's tie scores 0, Ben's its point (R789, R794)."""
    table = Table(broker, tmp_path / "table-1.db")
    begin(table.table, "B").buttons("yes").choose("Infraction: A")
    table.table.buttons("yes", "no")  # 0 points: yes; must leave the site: no
    table.table.buttons("yes").choose("Tie: agreed").buttons("yes")
    assert table.table.game.phase == "over"

    def standings() -> dict[str, int]:
        with TournamentDB.open(record_path) as record:
            event = PentathlonRecord(record).event()
            return {row.name: row.points for row in event.standings() if row.played}

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table.link):
            await until(lambda: table.delivered() and bool(standings()), "the result")

    asyncio.run(scenario())
    assert standings() == {"Ann Lee": 0, "Ben Ode": PentathlonPoints().tie}
    table.close()


@pytest.mark.parametrize(
    ("match", "fits"),
    [
        ([1, "Ann", "Ben"], True),  # a round's pairing, as before
        ([1, "Ann", "Ben", {"table": 1, "game": "juggle", "division": "III", "event": ""}], True),
        ([1, "Ann", "Ben", {}], False),
        ([1, "Ann", "Ben", {"seat": 1}], False),
        ([1, "Ann", "Ben", {"table": 0}], False),
        ([1, "Ann", "Ben", {"table": 1}, {}], False),
    ],
)
def test_the_journal_takes_a_seat_s_details_and_nothing_else(
    match: list[object], fits: bool
) -> None:
    """A row as the journal reads it back: a seat's details are the four the hub sends."""
    body = encode_body({"pairing": {"now": 1.0, "match": match}})
    wall = "2026-05-09T09:00:00.000+00:00"
    row = (1, b"input", 1.0, wall.encode(), body.encode(), checksum(1, "input", 1.0, wall, body))
    if fits:
        assert decode_row(row, 1).body["pairing"]["match"] == match
    else:
        with pytest.raises(BadRow, match="entry 1: malformed 'pairing' input"):
            decode_row(row, 1)
