"""What the day's tables are doing in their events (issue 27): which of them cannot move to
another event now, and how far each event's round has come.

A table moves between rounds only (R1116): while its match (or its Pentathlon seat) in its
current event has no result, the table's next decision belongs to that event. These read the
events' records and nothing else, so ``gametable day`` and the day's page ask the same
question and get the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament.records import RoundPairing


@dataclass(frozen=True, slots=True)
class Pending:
    """One match or seat of an event's record with no result yet."""

    round: int
    table: int
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class EventProgress:
    """An event's latest round (None: nothing paired or seated yet) and its results in and
    still out."""

    round: int | None
    results_in: int
    results_out: int


def _played(record: TournamentDB) -> list[tuple[int, int, str, str, bool]]:
    """Every match and Pentathlon seat of the record: round, table, A, B, has a result."""
    played: list[tuple[int, int, str, str, bool]] = []
    if record.has_tournament():
        done = {(result.round, result.table) for result in record.results()}
        played.extend(
            (pairing.round, match.table, match.a, match.b, (pairing.round, match.table) in done)
            for pairing in record.rounds()
            for match in pairing.matches
        )
    pentathlon = PentathlonRecord(record)
    if pentathlon.has_event():
        event = pentathlon.event()
        done = {(result.seat.round, result.seat.table) for result in event.results}
        played.extend(
            (seat.round, seat.table, seat.a, seat.b, (seat.round, seat.table) in done)
            for seat in event.seats
        )
    return played


def pending(record: TournamentDB) -> tuple[Pending, ...]:
    """The event's matches and seats with no result yet, by round and table."""
    return tuple(
        Pending(number, table, a, b)
        for number, table, a, b, done in sorted(_played(record))
        if not done
    )


def progress(record: TournamentDB) -> EventProgress:
    """The event's latest round and how many of its results are in and out."""
    played = _played(record)
    if not played:
        return EventProgress(None, 0, 0)
    latest = max(number for number, *_ in played)
    done = [finished for number, *_, finished in played if number == latest]
    return EventProgress(latest, sum(done), len(done) - sum(done))


def unfinished_at(pendings: Iterable[Pending], event: str) -> dict[int, str]:
    """Per table, the words for why it stays with ``event``: its first match with no result."""
    held: dict[int, str] = {}
    for match in pendings:
        held.setdefault(
            match.table,
            f"its round {match.round} match in {event} ({match.a} v {match.b}) has no result yet",
        )
    return held


def busy_tables(
    day: DayRecord, records: Mapping[str, TournamentDB] | None = None
) -> dict[int, str]:
    """Every assigned table that cannot move to another event now, with why in words: its
    match or seat in its current event has no result yet. ``records`` are the events' open
    records when the caller holds them (the page); otherwise each is opened and closed here."""
    assigned: dict[str, set[int]] = {}
    for table, assignment in day.assignments().items():
        assigned.setdefault(assignment.event, set()).add(table)
    busy: dict[int, str] = {}
    for event, tables in assigned.items():
        if records is not None and event in records:
            held = unfinished_at(pending(records[event]), event)
        else:
            held = unfinished_at(_read_pending(day, event), event)
        busy.update({table: why for table, why in held.items() if table in tables})
    return dict(sorted(busy.items()))


def _read_pending(day: DayRecord, event: str) -> tuple[Pending, ...]:
    """The event's unfinished matches, its record opened for it; a record that cannot be
    read is named as the day's event's (so the line says which event's tables are unknown)."""
    try:
        with TournamentDB.open(day.event(event).record) as record:
            return pending(record)
    except InvalidInput as error:
        raise InvalidInput(
            f"event {event!r} of {day.path.name}: {error} (whether its tables are free to move "
            "is not known)"
        ) from None


def event_tables(day: DayRecord, event: str) -> tuple[int, ...] | None:
    """The tables a round of ``event`` is paired at (R1160): the tables the day gives it, in a
    day of several events; None in a day of one event, whose rounds keep the rules' tables
    1, 2, ... (every table plays for it)."""
    if len(day.events()) < 2:
        return None
    assigned = day.assignments().items()
    return tuple(sorted(table for table, a in assigned if a.event == event))


def at_event_tables(pairing: RoundPairing, tables: Iterable[int], event: str) -> RoundPairing:
    """A round paired by the rules (its matches at tables 1, 2, ...) put at the tables its
    event plays at, the lowest first (R1160); refused in words when the event has fewer
    tables than the round has matches."""
    mine = sorted(set(tables))
    needed = len(pairing.matches)
    if len(mine) < needed:
        has = f"{len(mine)} ({table_ranges(mine)})" if mine else "none"
        raise IllegalAction(
            f"round {pairing.round} of {event} needs {needed} tables and the day gives it {has}: "
            f"nothing paired; move tables to {event} first (the day page's 'Move tables to an "
            "event', or 'gametable day assign')"
        )
    moved = tuple(replace(m, table=t) for m, t in zip(pairing.matches, mine, strict=False))
    return replace(pairing, matches=moved)


def table_ranges(tables: Iterable[int]) -> str:
    """Table numbers as a person writes them (``parse_table_list`` reads it back): 1-12,15."""
    numbers = sorted(set(tables))
    parts: list[str] = []
    start = previous = None
    for number in [*numbers, None]:
        if previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return ",".join(parts)
