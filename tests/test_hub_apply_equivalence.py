"""The hub applies a table's result from lookups of the one match it is for (R725), and decides
exactly as it did when it loaded the whole tournament for each: same outcome, same note, same
record, on random runs of results, amendments at the table, the director's entries and
amendments, rounds paired as the run goes, and deliveries again. The reference below is the
whole-record path as it was (``record.transaction()`` loading the ``Tournament`` and its
``result`` check), kept here only to compare with.

And what makes it constant in the tournament's size: no lookup of a result reads a table that
grows with the tournament from end to end."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.director.hub.wire.apply import (
    MATCH_STARTS,
    Applied,
    _no_tournament_match,
    _points_fault,
    _Reported,
    apply_result,
)
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TABLE_SOURCE, TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.errors import RuleError
from rules.pentathlon.catalogue import Game
from rules.tournament import Entrant, Tournament, TournamentFormat, new_config
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints

NOW = "2026-05-09T09:00:00+00:00"
TEAMS = tuple(Entrant(f"Team {i}", f"School {i % 3}", ()) for i in range(7))  # 3 tables, a bye
JOURNALS = ("5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a", "0b9e2d41aa7c4c1e8f3a6b7c9d0e1f2a")


# --- the reference: the whole tournament loaded for each delivery, as before R725 -------------


def reference_apply(record: TournamentDB, table: int, decision: Decision, *, now: str) -> Applied:
    with record.transaction() as tournament:
        if record.table_event_seen(table, decision.journal, decision.seq):
            return Applied(table, decision.seq, None)
        reported = _Reported(table, decision, now)
        event = reported.event(*_reference_judged(record, tournament, reported))
        record.add_table_event(event)
    return Applied(table, decision.seq, event)


def _reference_judged(
    record: TournamentDB, tournament: Tournament, reported: _Reported
) -> tuple[str, str]:
    number, points = reported.round, reported.points
    if number is None:
        return "not recorded", _no_tournament_match(reported.start)
    played, held = MATCH_STARTS[reported.start], tournament.config.format
    if played is not held:
        return "not recorded", f"a {played.value} match in a {held.value} tournament"
    fault = _points_fault(reported.decision.event, played.points_step)
    if fault is not None or points is None:
        return "refused", fault or "the result has no points"
    decision = reported.decision
    later = record.later_table_event(reported.table, decision.journal, number, decision.seq)
    if later is not None:
        return "superseded", f"{reported.by} reported a later result (journal entry {later})"
    try:
        result = tournament.result(number, reported.table, *points)
    except RuleError as error:
        return "refused", str(error)
    score = f"{points[0]}-{points[1]}"
    current = record.current_result(number, reported.table)
    if current is None:
        entry = record.add_result(
            result, now=reported.received_at, by=reported.by, source=TABLE_SOURCE
        )
        return "recorded", f"{score}, version {entry.version}"
    was = f"{current.a_points}-{current.b_points}"
    if was == score:
        return "unchanged", f"{score} is already recorded (by {current.entered_by})"
    if current.source == TABLE_SOURCE and current.entered_by == reported.by:
        # R928: the journal of the table's latest report that made the result, read from
        # every table event rather than looked up
        made = [
            e.journal
            for e in record.table_events()
            if e.table == reported.table
            and e.round == number
            and e.outcome in ("recorded", "amended")
        ]
        if made and made[-1] != reported.decision.journal:
            return "conflict", (
                f"the table's journal {reported.decision.journal[:8]} reports {score}; {was}, "
                f"reported by its journal {made[-1][:8]}, stands: amend it with a reason if "
                "the table is right"
            )
        entry = record.add_result(
            result,
            now=reported.received_at,
            by=reported.by,
            source=TABLE_SOURCE,
            amend_reason=(
                f"{reported.by} changed its result at the table "
                f"(journal entry {reported.decision.seq})"
            ),
        )
        return "amended", f"{was} became {score}, version {entry.version}"
    return "conflict", (
        f"the table reports {score}; {was} entered by {current.entered_by} stands: "
        "amend it with a reason if the table is right"
    )


# --- random runs --------------------------------------------------------------------------------


def random_run(luck: random.Random) -> list[tuple[Any, ...]]:
    """A run of steps, most of them a table's report, weighted so every outcome comes up."""
    steps: list[tuple[Any, ...]] = []
    for _ in range(luck.randint(5, 50)):
        kind = luck.choices(["report", "again", "director", "pair"], [12, 3, 2, 1])[0]
        if kind == "report":
            steps.append(
                (
                    "report",
                    luck.randint(1, 4),  # table: 3 are paired in a round
                    luck.choice(JOURNALS),
                    # seq: the run's next, or one before (a result delivered late; the same id
                    # again with other content, still a duplicate)
                    luck.choices([0, 1, 2, 6], [8, 1, 1, 1])[0],
                    luck.choices([1, 2, 0, 3, 4], [8, 4, 1, 1, 1])[0],  # 0: none; 4: beyond 3
                    luck.choices(["match.start", "match3.start", "championship.start"], [12, 1, 1])[
                        0
                    ],
                    *(luck.choices([*SCORED, *UNSCORED], [4] * 5 + [1] * 5)[0] for _ in "AB"),
                )
            )
        elif kind == "again":
            steps.append(("again", luck.randrange(10_000)))
        elif kind == "director":
            steps.append(
                (
                    "director",
                    luck.randint(1, 3),
                    luck.randint(1, 2),
                    luck.choice([0, 20, 40]),
                    luck.choice([5, 25]),
                    luck.random() < 0.5,  # an amendment with a reason, or a first entry
                )
            )
        else:
            steps.append(("pair",))
    return steps


SCORED = (0, 5, 20, 25, 40)
UNSCORED = (42, -5, 10_005, "40", None)


def decision(
    journal: str, seq: int, round_number: int, start: str, points: tuple[object, object]
) -> Decision:
    session: dict[str, Any] = {"action": start, "round": round_number, "minutes": 20}
    event: dict[str, Any] = {"t": 900.0, "event": "match_result", "winner": "A"}
    event.update({side: p for side, p in zip("AB", points, strict=True) if p is not None})
    return Decision(journal, seq, "2026-05-09T09:35:00.000+00:00", session, event)


@contextmanager
def two_records() -> Iterator[tuple[TournamentDB, TournamentDB]]:
    """Two records made alike: the tournament and its first round."""
    config = new_config(TournamentFormat.COMBO4, seed=11, rounds=3)
    with tempfile.TemporaryDirectory() as name:
        made = []
        for which in ("fast", "reference"):
            record = TournamentDB.create(
                Path(name) / f"{which}.db", config, TEAMS, now=NOW, by="director"
            )
            record.connection.execute("PRAGMA synchronous = OFF")  # a test's: no fsync needed
            _pair_next(record)
            made.append(record)
        try:
            yield made[0], made[1]
        finally:
            for record in made:
                record.close()


def _pair_next(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        number = tournament.next_round
        record.add_round(tournament.pair(number), tournament.plan(number), now=NOW, by="director")


def _director_enters(
    record: TournamentDB, table: int, round_number: int, points: tuple[int, int], amend: bool
) -> None:
    with record.transaction() as tournament:
        record.add_result(
            tournament.result(round_number, table, *points),
            now=NOW,
            by="director",
            source=DIRECTOR_SOURCE,
            amend_reason="the score sheet says so" if amend else None,
        )


def _outcome(step: Callable[[], object]) -> object:
    """What a step gave: its value, or the rules' refusal in words."""
    try:
        return step()
    except RuleError as error:
        return (type(error).__name__, str(error))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))  # the run's seed: a failure names it, and it replays
def test_the_hub_decides_each_result_as_the_whole_tournament_loaded_would(seed: int) -> None:
    run = random_run(random.Random(seed))
    sent: list[tuple[int, Decision]] = []
    with two_records() as (fast, reference):
        for step in run:
            if step[0] == "report":
                _, table, journal, back, round_number, start, a, b = step
                seq = max(1, 2 * len(sent) + 3 - back)
                sent.append((table, decision(journal, seq, round_number, start, (a, b))))
                table, said = sent[-1]
            elif step[0] == "again" and sent:
                table, said = sent[step[1] % len(sent)]
            elif step[0] == "director":
                _, table, round_number, a, b, amend = step
                entered = [
                    _outcome(partial(_director_enters, r, table, round_number, (a, b), amend))
                    for r in (fast, reference)
                ]
                assert entered[0] == entered[1]
                continue
            elif step[0] == "pair":
                paired = [_outcome(partial(_pair_next, r)) for r in (fast, reference)]
                assert paired[0] == paired[1]
                continue
            else:
                continue
            applied = _outcome(partial(apply_result, fast, table, said, now=NOW))
            expected = _outcome(partial(reference_apply, reference, table, said, now=NOW))
            assert applied == expected, (table, said)
        assert fast.export() == reference.export()


# --- constant in the tournament's size ---------------------------------------------------------

# Tables that stay small whatever the field: one row, one per round (at most 99), or one per
# closing of the tournament or amendment of its champion (R850).
BOUNDED = {"tournament", "rounds", "pentathlon", "champions"}


def _full_reads(record: TournamentDB, apply: Callable[[], object]) -> list[str]:
    """Every step of every query ``apply`` ran that reads a table from end to end, but for the
    tables that stay small."""
    statements: list[str] = []
    record.connection.set_trace_callback(statements.append)
    try:
        apply()
    finally:
        record.connection.set_trace_callback(None)
    reads = []
    for statement in statements:
        if not statement.lstrip().upper().startswith("SELECT"):
            continue
        for row in record.connection.execute(f"EXPLAIN QUERY PLAN {statement}"):
            words = str(row[3]).split()
            if words[0] == "SCAN" and words[1] not in BOUNDED:
                reads.append(f"{row[3]} in {statement}")
    return reads


def test_a_result_and_its_duplicate_are_applied_by_lookups_alone(tmp_path: Path) -> None:
    config = new_config(TournamentFormat.COMBO4, seed=11, rounds=3)
    with TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director") as record:
        _pair_next(record)
        steps = [
            (1, decision(JOURNALS[0], 5, 1, "match.start", (40, 20))),  # recorded
            (1, decision(JOURNALS[0], 5, 1, "match.start", (40, 20))),  # a duplicate
            (1, decision(JOURNALS[0], 9, 1, "match.start", (40, 25))),  # amended
            (1, decision(JOURNALS[0], 7, 1, "match.start", (40, 20))),  # superseded
            (1, decision(JOURNALS[0], 11, 1, "match.start", (40, 25))),  # unchanged
            (9, decision(JOURNALS[0], 12, 1, "match.start", (40, 25))),  # refused: no table 9
        ]
        for table, said in steps:
            assert _full_reads(record, partial(apply_result, record, table, said, now=NOW)) == []
        outcomes = [event.outcome for event in record.table_events()]
        assert outcomes == ["recorded", "amended", "superseded", "unchanged", "refused"]


def test_a_pentathlon_game_is_applied_by_lookups_alone(tmp_path: Path) -> None:
    players = tuple(Pentathlete(name, "III") for name in ("Ann", "Ben", "Cy", "Dee"))
    with PentathlonRecord.start(
        tmp_path / "p.db", PentathlonPoints(), players, now=NOW, by="director"
    ) as record:
        event = PentathlonRecord(record)
        with record.writing():
            event.add_seat(
                event.event().seat(1, 1, Game.CONTIG_60, "Ann", "Ben"), now=NOW, by="director"
            )
        start = {"action": "pentathlon.start", "game": "contig-60", "minutes": 30}
        game = {
            "t": 1200.0,
            "event": "game_over",
            "winner": "A",
            "how": "time-limit",
            "scores": {"A": 25, "B": 34},
            "challenges": {"A": {"C": 1, "I": 0, "IA": 0}, "B": {"C": 0, "I": 1, "IA": 1}},
        }
        said = Decision(JOURNALS[0], 4, NOW, start, game)
        assert _full_reads(record, lambda: apply_result(record, 1, said, now=NOW)) == []
        assert record.table_events()[0].outcome == "recorded"


def test_the_hub_gives_an_older_record_the_indexes_its_lookups_use(tmp_path: Path) -> None:
    config = new_config(TournamentFormat.COMBO4, seed=11, rounds=3)
    TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director").close()
    connection = sqlite3.connect(tmp_path / "t.db")
    connection.execute("DROP INDEX results_of_pairing")  # as a record made before R725
    connection.close()
    with TournamentDB.open(tmp_path / "t.db") as record:
        assert record.index_for_hub()
        assert not record.index_for_hub()  # once
        names = {row[0] for row in record.connection.execute("SELECT name FROM sqlite_master")}
        assert "results_of_pairing" in names
