"""A Pentathlon table's confirmed game (its ``game_over``) into the record's Pentathlon event,
once, by the record's rules (R268): to the latest round's seat at that table for that game;
recorded as the table's, unchanged on a second report, the table's own correction an
amendment, the director's entry standing against a table that disagrees, and refused or left
out saying why."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_py.director.hub.wire.apply import apply_result, bears_on_the_record
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TABLE_SOURCE, TournamentDB
from firmware_py.families.pentathlon.view import report
from firmware_py.table.hub_wire import Decision
from rules.actions import encode
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.monitor import apply
from rules.pentathlon.monitor_actions import Challenge, Confirm, Rule, start_action
from rules.pentathlon.players import Player
from rules.pentathlon.results import How
from rules.tournament.pentathlon import GameResult, Pentathlete, PentathlonPoints
from tests.pentathlon_helpers import play
from tests.test_pentathlon_fab_a_diffy import fab, won_game

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:40:00+00:00"
JOURNAL = "7a1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"
PLAYERS = (Pentathlete("Ann", "III"), Pentathlete("Ben", "III"), Pentathlete("Cy", "III"),
           Pentathlete("Dee", "III"))  # fmt: skip
START = {"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """An event with round 1 seated: Ann v Ben at table 1, Cy v Dee at table 2 (Contig 60)."""
    made = PentathlonRecord.start(
        tmp_path / "t.db", PentathlonPoints(), PLAYERS, now=NOW, by="director"
    )
    _seat(made, 1, 1, "Ann", "Ben")
    _seat(made, 1, 2, "Cy", "Dee")
    with made:
        yield made


def _seat(
    record: TournamentDB,
    round_number: int,
    table: int,
    a: str,
    b: str,
    *,
    game: Game = Game.CONTIG_60,
) -> None:
    event = PentathlonRecord(record)
    with record.writing():
        seat = event.event().seat(round_number, table, game, a, b)
        event.add_seat(seat, now=NOW, by="director")


def game_over(
    seq: int,
    winner: str | None = "A",
    *,
    how: str = "time-limit",
    scores: dict[str, Any] | None = None,
    session: dict[str, Any] = START,
) -> Decision:
    event = {
        "t": 1200.0,
        "event": "game_over",
        "winner": winner,
        "how": how,
        "detail": "time limit",
        "scores": {"A": 25, "B": 34} if scores is None else scores,
        "challenges": {"A": {"C": 1, "I": 0, "IA": 0}, "B": {"C": 0, "I": 1, "IA": 1}},
    }
    return Decision(JOURNAL, seq, "2026-05-09T09:35:00.000+00:00", dict(session), event)


def _history(record: TournamentDB, table: int = 1) -> list[tuple[str | None, str, str]]:
    return [
        (e.result.winner, e.entered_by, e.source)
        for e in PentathlonRecord(record).history(1, table)
    ]


def test_only_a_confirmed_pentathlon_game_bears_on_the_record() -> None:
    assert bears_on_the_record(game_over(9))
    ruling = Decision(JOURNAL, 8, NOW, START, {"event": "game_result", "winner": "A"})
    assert not bears_on_the_record(ruling)


def test_the_table_s_game_is_recorded_at_its_seat_as_the_table_s(record: TournamentDB) -> None:
    applied = apply_result(record, 1, game_over(40), now=LATER)
    assert applied.event is not None and applied.event.outcome == "recorded"
    (entry,) = PentathlonRecord(record).history(1, 1)
    assert (entry.result.winner, entry.result.how, entry.result.scores) == (
        "A",
        How.TIME_LIMIT,
        (25, 34),
    )
    assert (entry.entered_by, entry.entered_at, entry.source) == ("table 1", LATER, TABLE_SOURCE)
    assert entry.result.challenges[1].ia == 1


def test_a_second_delivery_changes_nothing(record: TournamentDB) -> None:
    apply_result(record, 1, game_over(40), now=LATER)
    again = apply_result(record, 1, game_over(40), now=LATER)
    assert again.event is None
    assert len(record.table_events()) == 1 and len(_history(record)) == 1


def test_the_same_result_reported_again_is_unchanged(record: TournamentDB) -> None:
    apply_result(record, 1, game_over(40), now=LATER)
    applied = apply_result(record, 1, game_over(41), now=LATER)
    assert applied.event is not None and applied.event.outcome == "unchanged"


def test_the_table_s_own_correction_is_an_amendment_that_says_so(record: TournamentDB) -> None:
    apply_result(record, 1, game_over(40), now=LATER)
    applied = apply_result(record, 1, game_over(52, "B", how="challenged-win"), now=LATER)
    assert applied.event is not None and applied.event.outcome == "amended"
    (_, amended) = PentathlonRecord(record).history(1, 1)
    assert amended.reason == "table 1 changed its result at the table (journal entry 52)"


def test_another_journal_s_other_result_is_a_conflict_not_an_amendment(
    record: TournamentDB,
) -> None:
    """R928: a client on the table's account, under a journal id of its own, cannot change the
    table's result."""
    apply_result(record, 1, game_over(40), now=LATER)
    invented = replace(game_over(52, "B", how="challenged-win"), journal="e" * 32)
    applied = apply_result(record, 1, invented, now=LATER)
    assert applied.event is not None and applied.event.outcome == "conflict"
    assert "reported by its journal 7a1c0e7a, stands" in applied.event.note
    assert _history(record) == [("A", "table 1", TABLE_SOURCE)]


def test_the_director_s_entry_stands_against_the_table(record: TournamentDB) -> None:
    event = PentathlonRecord(record)
    with record.writing():
        seat = event.event().seat_at(1, 1)
        event.add_result(
            GameResult(seat, "B", How.GOAL), now=NOW, by="director", source=DIRECTOR_SOURCE
        )
    applied = apply_result(record, 1, game_over(40), now=LATER)
    assert applied.event is not None and applied.event.outcome == "conflict"
    assert "Ben (B) wins (goal) entered by director stands" in applied.event.note
    assert _history(record) == [("B", "director", DIRECTOR_SOURCE)]


def test_an_older_decision_delivered_after_a_newer_one_is_superseded(
    record: TournamentDB,
) -> None:
    apply_result(record, 1, game_over(52, "B", how="challenged-win"), now=LATER)
    applied = apply_result(record, 1, game_over(40), now=LATER)
    assert applied.event is not None and applied.event.outcome == "superseded"
    assert _history(record) == [("B", "table 1", TABLE_SOURCE)]


def test_the_latest_round_seated_at_the_table_takes_the_result(record: TournamentDB) -> None:
    _seat(record, 2, 1, "Ann", "Cy")
    apply_result(record, 1, game_over(40), now=LATER)
    assert PentathlonRecord(record).history(1, 1) == ()
    (entry,) = PentathlonRecord(record).history(2, 1)
    assert (entry.result.seat.a, entry.result.seat.b) == ("Ann", "Cy")


@pytest.mark.parametrize(
    ("table", "decision", "note"),
    [
        (3, game_over(40), "table 3 is not seated for contig-60 in any round"),
        (1, game_over(40, session={**START, "game": "juggle"}), "not seated for juggle"),
        (1, game_over(40, None, how="three-i-ia"), "a tie by three-i-ia"),
        (1, game_over(40, scores={"A": "x", "B": 1}), "score 'x'"),
        (1, game_over(40, how="luck"), "the result cannot be read"),
    ],
)
def test_what_cannot_be_placed_or_read_is_refused_saying_why(
    record: TournamentDB, table: int, decision: Decision, note: str
) -> None:
    applied = apply_result(record, table, decision, now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert note in applied.event.note
    assert _history(record) == []


@pytest.mark.parametrize("winner", ["B", None])
def test_the_result_the_director_gives_is_taken_like_any_result(
    record: TournamentDB, winner: str | None
) -> None:
    """R789: "the monitor then records the result the Director gives", a win or a tie, whatever
    the scores say (R748)."""
    applied = apply_result(record, 1, game_over(40, winner, how="director"), now=LATER)
    assert applied.event is not None and applied.event.outcome != "refused"
    assert _history(record) == [(winner, "table 1", TABLE_SOURCE)]


def test_a_table_s_result_its_own_scores_contradict_is_refused(record: TournamentDB) -> None:
    # A hand-edited journal: B cannot win Contig 60 at the time limit with the higher score.
    applied = apply_result(record, 1, game_over(40, "B"), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert "the result contradicts itself" in applied.event.note
    assert "the adjudication gives A wins" in applied.event.note
    assert _history(record) == []


def test_a_record_without_a_pentathlon_event_leaves_the_game_out(tmp_path: Path) -> None:
    with TournamentDB.create_record(tmp_path / "empty.db") as record:
        applied = apply_result(record, 1, game_over(40), now=LATER)
        assert applied.event is not None and applied.event.outcome == "not recorded"
        assert "holds no Pentathlon event" in applied.event.note


def test_fab_a_diffy_s_third_ia_is_stored_with_the_games_it_lost_the_offender(
    record: TournamentDB,
) -> None:
    """R996: B won game 1, B's third IA in game 2 loses B games 2 and 3: the hub takes the
    table's games won A 2, B 1 beside A's win by three I/IA."""
    _seat(record, 2, 1, "Ann", "Ben", game=Game.FAB_A_DIFFY)
    state = won_game(fab(), Player.B)  # A begins game 1, B wins it
    for _ in range(3):
        state = play(state, Challenge(Player.B, ("other",)), Rule(Ruling.INAPPROPRIATE))
    events = report(state, apply(state, Confirm())).events
    (over,) = [fields for name, fields in events if name == "game_over"]
    session = encode(start_action(Game.FAB_A_DIFFY, 30))
    table_s = Decision(JOURNAL, 40, NOW, session, {"t": 60.0, "event": "game_over", **over})
    applied = apply_result(record, 1, table_s, now=LATER)
    assert applied.event is not None and applied.event.outcome == "recorded"
    (entry,) = PentathlonRecord(record).history(2, 1)
    assert (entry.result.winner, entry.result.how, entry.result.scores) == (
        "A",
        How.THREE_STRIKES,
        (2, 1),
    )
