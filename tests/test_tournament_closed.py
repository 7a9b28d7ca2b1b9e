"""A closed tournament's record is final until a director reopens it (R850): the record's own
functions refuse every change, and a table's result arriving over the hub changes nothing but
stays in the director's queue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.page.problems import find_problems, read_hall
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Entrant, TournamentFormat, new_config

NOW = "2026-05-09T09:00:00+00:00"
CLOSED = "2026-05-09T17:00:00+00:00"
CLOSED_SHOWN = "Sat 9 May 2026, 17:00 UTC"  # as a person reads it (R962)
LATER = "2026-05-09T17:30:00+00:00"
TEAMS = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls", "Ravens"))


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """One round of four teams played (A wins 40-20 at each table) and the champion recorded."""
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=1)
    with TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director") as made:
        with made.transaction() as tournament:
            made.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        with made.transaction() as tournament:
            for match in tournament.rounds[0].matches:
                entry = tournament.result(1, match.table, 40, 20)
                made.add_result(entry, now=NOW, by="director", source=DIRECTOR_SOURCE)
        with made.transaction() as tournament:
            finalists = tournament.qualification().finalists
        assert finalists is not None
        made.set_champion(finalists[0], now=CLOSED, by="ann")
        yield made


def _table_reports(seq: int, a: int, b: int) -> Decision:
    session = {"action": "match.start", "round": 1, "minutes": 20, "on_time_up": "abandon"}
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    return Decision("5f1c0e7a9b2d4c1e", seq, "2026-05-09T17:29:00+00:00", session, event)


def test_the_record_refuses_a_result_while_closed_naming_who_closed_it_and_when(
    record: TournamentDB,
) -> None:
    champion = record.champion()
    with pytest.raises(IllegalAction) as refused, record.transaction() as tournament:
        record.add_result(
            tournament.result(1, 1, 20, 40), now=LATER, by="director", amend_reason="misread"
        )
    assert str(refused.value) == (
        f"round 1 table 1's result: the tournament is closed ({champion} recorded as champion "
        f"by ann at {CLOSED_SHOWN}): a director reopens it with a reason (Reopen on the page's "
        "/close, or gametable tournament reopen --reason TEXT)"
    )
    assert [(e.a_points, e.b_points) for e in record.result_history(1, 1)] == [(40, 20)]


def test_reopening_needs_a_reason_and_lets_the_record_change_again(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="empty reason"):
        record.reopen(now=LATER, by="ann", reason="  ")
    assert record.closing() is not None
    record.reopen(now=LATER, by="ann", reason="table 1's sheet misread")
    assert record.closing() is None and record.champion() is None
    with record.transaction() as tournament:
        record.add_result(
            tournament.result(1, 1, 20, 40), now=LATER, by="ann", amend_reason="misread"
        )
    assert [(e.a_points, e.b_points) for e in record.result_history(1, 1)][-1] == (20, 40)


def test_the_reopenings_table_is_append_only(record: TournamentDB) -> None:
    record.reopen(now=LATER, by="ann", reason="a late protest")
    with pytest.raises(Exception, match="append-only"):
        record.connection.execute("DELETE FROM reopenings")


def test_a_tables_other_points_while_closed_change_nothing_and_wait_in_the_queue(
    record: TournamentDB,
) -> None:
    applied = apply_result(record, 1, _table_reports(40, 20, 40), now=LATER)
    assert applied.event is not None and applied.event.outcome == "conflict"
    assert "the tournament is closed" in applied.event.note
    assert "by ann at" in applied.event.note
    assert [(e.a_points, e.b_points) for e in record.result_history(1, 1)] == [(40, 20)]
    record.reopen(now=LATER, by="ann", reason="table 1 reported late")
    (problem,) = [p for p in find_problems(read_hall(record), (), (), 0.0) if p.table == 1]
    assert problem.kind == "conflict" and "reports 20-40" in problem.what


def test_a_tables_same_points_while_closed_are_left_as_they_are(record: TournamentDB) -> None:
    applied = apply_result(record, 1, _table_reports(40, 40, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "unchanged"
    assert find_problems(read_hall(record), (), (), 0.0) == []


def test_amending_the_champion_once_reopened_says_to_record_it_anew(
    record: TournamentDB,
) -> None:
    """A champion was recorded, then reopened: an amendment is refused saying so, not that no
    champion was ever recorded."""
    champion = record.champion()
    record.reopen(now=LATER, by="ann", reason="a late protest")
    with pytest.raises(IllegalAction) as refused, record.transaction():
        record.set_champion(champion or "", now=LATER, by="ann", amend_reason="wrong team")
    assert str(refused.value) == (
        f"the tournament was reopened ({champion} no longer stands as champion): nothing to "
        "amend; record the champion anew (without --amend), which closes it again"
    )


def test_recording_the_champion_again_says_when_it_was_closed_as_the_venue_reads_it(
    record: TournamentDB,
) -> None:
    """R962, R965: the record's own refusal (the command line's) says the time in the venue's
    zone, not the record's UTC."""
    record.set_venue(time_zone="America/Chicago", now=LATER, by="director")
    champion = record.champion()
    with pytest.raises(IllegalAction) as refused, record.transaction():
        record.set_champion(champion or "", now=LATER, by="bob")
    assert str(refused.value) == (
        f"the champion is already recorded ({champion}, by ann at Sat 9 May 2026, 12:00 CDT): "
        "expected an amendment with a reason to change it"
    )
