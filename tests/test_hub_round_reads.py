"""The hub reads a record's rounds again only once the record has changed (issue 27,
bench/day_scale.py): on a day of 24 events, every Pair from the page read all 24 records to
publish one event's round, and the hub's poll read them all every second."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.wire.service import Hub
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import RoundPairings, event_pairings_topic
from tests.hub_day_helpers import NOW, SENIOR_TABLES, make_day, pair_next
from tests.test_hub_day_routing import day_hub


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    made = day_hub(make_day(tmp_path))
    yield made
    made.router.close()
    assert made.day is not None
    made.day.close()


@pytest.fixture
def reads(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times the hub read each event's rounds, by the event's file name."""
    counted: Counter[str] = Counter()
    rounds = hub._rounds

    def counting(record: TournamentDB) -> dict[int, RoundPairings]:
        counted[record.path.stem] += 1
        return rounds(record)

    monkeypatch.setattr(hub, "_rounds", counting)
    return counted


def _round_one_played(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        for match in tournament.rounds[0].matches:
            entry = tournament.result(1, match.table, 40, 30)
            record.add_result(entry, now=NOW, by="director")


def test_an_unchanged_record_is_not_read_again(hub: Hub, reads: Counter[str]) -> None:
    first = hub._round_payloads()
    assert hub._round_payloads() == first
    assert reads == {"junior": 1, "senior": 1}


def test_an_event_paired_by_the_page_is_read_again_alone(hub: Hub, reads: Counter[str]) -> None:
    hub._round_payloads()
    senior = hub.events["senior"]  # the record the page writes through, in `hub run --day`
    _round_one_played(senior)
    with senior.transaction() as tournament:
        senior.add_round(tournament.pair(2), tournament.plan(2), now=NOW, by="director")
    assert event_pairings_topic("senior", 2) in hub._round_payloads()
    assert reads == {"junior": 1, "senior": 2}


def test_an_event_changed_by_a_command_beside_the_hub_is_read_again(
    hub: Hub, reads: Counter[str], tmp_path: Path
) -> None:
    hub._round_payloads()
    with TournamentDB.open(tmp_path / "senior.db") as command:  # another connection
        _round_one_played(command)
    pair_next(tmp_path / "senior.db", 2, SENIOR_TABLES)
    assert event_pairings_topic("senior", 2) in hub._round_payloads()
    assert reads == {"junior": 1, "senior": 2}
