"""A table follows its event (issue 27, R1131): on a hub serving a day of several events it keeps
every event's rounds (bounded), reads the event the hub names for it on
``tournament/tables/<t>/event``, and shows its event's latest round; with no event message it
shows the rounds of a hub serving one record, as before. Messages reach the link as paho hands
them over (``_on_message`` on paho's thread, run on the loop)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from firmware_py.table.hub_wire import (
    EVERY_EVENTS_ROUNDS_PAIRINGS,
    MAX_EVENTS,
    MAX_ROUND,
    PentathlonSeats,
    PentathlonTableSeat,
    RoundPairings,
    TableMatch,
    TablesEvent,
    event_pairings_topic,
    event_round_of,
    event_seats_round_of,
    event_seats_topic,
    pairings_topic,
    rounds_followed,
    table_event_topic,
)
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from tests.hub_helpers import Broker, Peer, wait_for
from tests.journal_helpers import CLI
from tests.test_hub_table import _config

TABLE = 5


def _round(number: int, a: str, b: str, table: int = TABLE) -> bytes:
    return RoundPairings(number, "all", 20, (TableMatch(table, a, b),), None).to_bytes()


def _event(slug: str) -> bytes:
    return TablesEvent(slug, slug.title()).to_bytes()


def _link(*, seated: bool = False) -> HubLink:
    """Table 5's link, never connected: what it keeps and shows is all these tests read."""
    return HubLink(TableBroker("127.0.0.1", 1, TABLE, "pw"), journal=None, seated=seated)


def hear(link: HubLink, *messages: tuple[str, bytes]) -> None:
    """Each message as paho's thread hands it to the link, then the loop runs it."""

    async def heard() -> None:
        link._loop = asyncio.get_running_loop()
        for topic, payload in messages:
            message = mqtt.MQTTMessage(topic=topic.encode())
            message.payload = payload
            link._on_message(link._client, None, message)
        await asyncio.sleep(0.01)

    asyncio.run(heard())


def _shown(link: HubLink) -> tuple[str, str] | None:
    found = link.next_pairing()
    return None if found is None else (found.title, found.teams)


TWO_EVENTS = (
    (event_pairings_topic("combo4", 3), _round(3, "Owls", "Hawks")),
    (event_pairings_topic("combo4", 2), _round(2, "Owls", "Ravens")),
    (event_pairings_topic("combo3", 1), _round(1, "Jays", "Wrens")),
)


# -- the choice ------------------------------------------------------------------------------


def test_the_rounds_followed_are_the_events_when_the_hub_names_one() -> None:
    by_event = {"a": {1: "a1"}, "b": {2: "b2"}}
    assert rounds_followed(TablesEvent("b", "B"), {7: "legacy"}, by_event) == {2: "b2"}


def test_the_rounds_followed_are_the_legacy_ones_with_no_event() -> None:
    assert rounds_followed(None, {7: "legacy"}, {"a": {1: "a1"}}) == {7: "legacy"}


def test_an_event_with_no_round_yet_is_followed_as_no_round_not_the_legacy_ones() -> None:
    assert rounds_followed(TablesEvent("c", "C"), {7: "legacy"}, {"a": {1: "a1"}}) == {}


# -- the link --------------------------------------------------------------------------------


def test_a_table_shows_its_events_latest_round_beside_another_event_at_another_round() -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo3")))
    assert _shown(link) == ("Round 1  Table 5", "Jays v Wrens")
    assert link.paired_match() is not None and link.paired_match().round == 1  # type: ignore[union-attr]


def test_a_table_moved_to_another_event_shows_that_events_latest_round() -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo3")))
    hear(link, (table_event_topic(TABLE), _event("combo4")))
    assert _shown(link) == ("Round 3  Table 5", "Owls v Hawks")


def test_a_table_with_no_event_message_shows_the_rounds_of_a_one_record_hub() -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (pairings_topic(4), _round(4, "Elks", "Mink")))
    assert _shown(link) == ("Round 4  Table 5", "Elks v Mink")


def test_an_empty_event_message_is_no_event_and_the_legacy_rounds_show_again() -> None:
    link = _link()
    hear(link, (pairings_topic(4), _round(4, "Elks", "Mink")), *TWO_EVENTS)
    hear(link, (table_event_topic(TABLE), _event("combo4")), (table_event_topic(TABLE), b""))
    assert link.event is None
    assert _shown(link) == ("Round 4  Table 5", "Elks v Mink")


def test_a_table_whose_event_has_no_round_yet_shows_no_next_match() -> None:
    link = _link()
    hear(link, (pairings_topic(4), _round(4, "Elks", "Mink")), *TWO_EVENTS)
    hear(link, (table_event_topic(TABLE), _event("states")))
    assert _shown(link) is None


def test_a_table_not_in_its_events_round_says_so() -> None:
    link = _link()
    hear(link, (event_pairings_topic("combo4", 2), _round(2, "Owls", "Hawks", table=9)))
    hear(link, (table_event_topic(TABLE), _event("combo4")))
    assert _shown(link) == ("Round 2  Table 5", "no match this round")


def test_a_round_the_hub_withdraws_is_no_longer_shown() -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo4")))
    hear(link, (event_pairings_topic("combo4", 3), b""))
    assert _shown(link) == ("Round 2  Table 5", "Owls v Ravens")


def test_a_bad_event_message_is_logged_and_dropped_and_the_table_keeps_its_event(
    caplog: pytest.LogCaptureFixture,
) -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo3")))
    hear(link, (table_event_topic(TABLE), b'{"event": "Not A Slug", "name": "x"}'))
    assert link.event == TablesEvent("combo3", "Combo3")
    assert "event=hub_bad_event" in caplog.text


def test_a_bad_round_of_an_event_is_logged_and_dropped(caplog: pytest.LogCaptureFixture) -> None:
    link = _link()
    hear(link, *TWO_EVENTS, (event_pairings_topic("combo3", 2), b"{not json"))
    assert sorted(link.event_rounds["combo3"]) == [1]
    assert "event=hub_bad_pairings" in caplog.text


def test_a_table_keeps_the_rounds_of_at_most_max_events_events() -> None:
    link = _link()
    slugs = [f"e{n}" for n in range(MAX_EVENTS + 1)]
    hear(link, *((event_pairings_topic(slug, 1), _round(1, "A", "B")) for slug in slugs))
    assert len(link.event_rounds) == MAX_EVENTS and slugs[-1] not in link.event_rounds


def test_a_table_keeps_its_own_events_rounds_beyond_the_bound() -> None:
    link = _link()
    slugs = [f"e{n}" for n in range(MAX_EVENTS)]
    hear(link, (table_event_topic(TABLE), _event("mine")))
    hear(link, *((event_pairings_topic(slug, 1), _round(1, "A", "B")) for slug in slugs))
    hear(link, (event_pairings_topic("mine", 2), _round(2, "Elks", "Mink")))
    assert len(link.event_rounds) == MAX_EVENTS and "mine" in link.event_rounds
    assert _shown(link) == ("Round 2  Table 5", "Elks v Mink")


def _subscriptions(link: HubLink, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The link as connected, each subscription it makes noted instead of sent."""
    asked: list[tuple[Any, ...]] = []
    link.connected = True
    monkeypatch.setattr(link._client, "subscribe", lambda *args: asked.append(args))
    return asked


def test_a_table_told_its_event_after_a_flood_dropped_its_rounds_asks_for_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R1154: retained rounds of more events than a day holds (a past day's left on the broker)
    reach the table before the message naming its event; its own event's rounds, dropped then,
    come again when it asks (a subscription made again is sent its retained messages)."""
    link = _link()
    asked = _subscriptions(link, monkeypatch)
    flood = [(event_pairings_topic(f"e{n}", 1), _round(1, "A", "B")) for n in range(MAX_EVENTS)]
    mine = (event_pairings_topic("mine", 2), _round(2, "Elks", "Mink"))
    hear(link, *flood, mine, (table_event_topic(TABLE), _event("mine")))
    assert asked == [(EVERY_EVENTS_ROUNDS_PAIRINGS, 1)]
    hear(link, *flood, mine)  # the broker sends every retained round again
    assert _shown(link) == ("Round 2  Table 5", "Elks v Mink")


def test_a_table_whose_events_rounds_were_kept_asks_for_nothing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = _link()
    asked = _subscriptions(link, monkeypatch)
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo3")))
    assert asked == []


@pytest.mark.parametrize(
    "topic",
    [
        f"tournament/events/combo4/rounds/{MAX_ROUND + 1}/pairings",
        "tournament/events/Combo4/rounds/1/pairings",
        "tournament/events/combo4/rounds/01/pairings",
        "tournament/events/combo4/rounds/1/seats",
    ],
)
def test_an_event_round_topic_out_of_bounds_names_no_round(topic: str) -> None:
    assert event_round_of(topic) is None


def test_an_event_round_topic_names_its_event_and_round() -> None:
    assert event_round_of(event_pairings_topic("combo4-junior", 7)) == ("combo4-junior", 7)
    assert event_seats_round_of(event_seats_topic("penta", 2)) == ("penta", 2)
    assert event_seats_round_of(event_pairings_topic("penta", 2)) is None


def test_a_pentathlon_table_follows_its_events_seats() -> None:
    link = _link(seated=True)
    seat = PentathlonTableSeat(TABLE, "contig-60", "III", "Ann Lee", "Ben Cho")
    other = PentathlonTableSeat(TABLE, "juggle", "IV", "Cy Diaz", "Dee Ng")
    hear(
        link,
        (event_seats_topic("penta-iii", 2), PentathlonSeats(2, "P III", (seat,)).to_bytes()),
        (event_seats_topic("penta-iv", 4), PentathlonSeats(4, "P IV", (other,)).to_bytes()),
        (table_event_topic(TABLE), _event("penta-iii")),
    )
    assert _shown(link) == ("Round 2  Table 5", "Ann Lee v Ben Cho")
    match = link.paired_match()
    assert match is not None and (match.round, match.a, match.event) == (2, "Ann Lee", "P III")


# -- over a real broker: ``gametable run`` as table 7 ----------------------------------------


@pytest.fixture
def hub(broker: Broker) -> Iterator[Peer]:
    """The hub's account, watching table 7's topics."""
    peer = Peer(broker, "hub")
    peer.subscribe("tables/7/#")
    yield peer
    peer.close()


@pytest.fixture
def table(tmp_path: Path, broker: Broker) -> Iterator[subprocess.Popen[str]]:
    """``gametable run`` as table 7 on mock pins."""
    config = str(_config(tmp_path, broker))
    process = subprocess.Popen(
        [*CLI, "run", "--config", config, "--journal", str(tmp_path / "j.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    yield process
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=10)


def _state(hub: Peer) -> dict[str, Any]:
    states = hub.payloads("tables/7/state")
    return json.loads(states[-1]) if states else {}


def _publish(hub: Peer, topic: str, payload: bytes) -> None:
    assert not hub.publish(topic, payload, retain=True).is_failure


def test_a_running_table_shows_its_events_round_and_says_the_event_it_follows(
    hub: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: bool(_state(hub)), "its state")
    _publish(hub, event_pairings_topic("combo4", 3), _round(3, "Owls", "Hawks", table=7))
    _publish(hub, event_pairings_topic("combo3", 1), _round(1, "Jays", "Wrens", table=7))
    _publish(hub, table_event_topic(7), _event("combo3"))
    wait_for(
        lambda: (
            _state(hub).get("event") == "combo3"
            and _state(hub)["screen"]["title"] == "Round 1  Table 7"
        ),
        "its event's round on its title row and the event in its state",
    )
    assert _state(hub)["screen"]["subtitle"] == "Jays v Wrens"
    _publish(hub, table_event_topic(7), _event("combo4"))  # moved between rounds
    wait_for(
        lambda: (
            (_state(hub).get("event"), _state(hub)["screen"]["subtitle"])
            == ("combo4", "Owls v Hawks")
        ),
        "the other event's round once the table is moved",
    )
    _publish(hub, table_event_topic(7), b"")  # no event: the state says none, as before
    wait_for(lambda: "event" not in _state(hub), "its state without an event")


def test_a_running_table_told_its_event_after_a_flood_is_sent_its_rounds_again(
    hub: Peer, table: subprocess.Popen[str]
) -> None:
    """R1154 over mosquitto: the subscription made again brings the retained rounds again."""
    wait_for(lambda: bool(_state(hub)), "its state")
    for n in range(MAX_EVENTS):
        _publish(hub, event_pairings_topic(f"past{n}", 1), _round(1, "A", "B", table=7))
    _publish(hub, event_pairings_topic("mine", 2), _round(2, "Elks", "Mink", table=7))
    _publish(hub, table_event_topic(7), _event("mine"))
    wait_for(
        lambda: (
            _state(hub).get("event") == "mine"
            and _state(hub)["screen"]["subtitle"] == "Elks v Mink"
        ),
        "its own event's round, dropped in the flood, shown once asked for again",
    )


def test_a_pairing_names_the_event_it_was_followed_in_so_a_move_is_known() -> None:
    """R1175: the table's pairing carries its day's event, journaled with it, so a table moved
    to an event at an earlier round takes that event's round."""
    link = _link()
    hear(link, *TWO_EVENTS, (table_event_topic(TABLE), _event("combo3")))
    paired = link.paired_match()
    assert paired is not None and (paired.round, paired.follows) == (1, "combo3")


def test_a_pairing_of_a_hub_of_one_record_names_no_event() -> None:
    link = _link()
    hear(link, (pairings_topic(2), _round(2, "Owls", "Hawks")))
    paired = link.paired_match()
    assert paired is not None and paired.follows == ""
