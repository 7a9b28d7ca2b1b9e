"""What the day's tables are doing in their events (issue 27): which of them cannot move to
another event now, and how far each event's round has come.

A table moves between rounds only (R1116): while its match (or its Pentathlon seat) in its
current event has no result, the table's next decision belongs to that event. These read the
events' records and nothing else, so ``gametable day`` and the day's page ask the same
question and get the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from firmware_py.director.record.day import DayRecord, open_event_record
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament.records import RoundPairing, counted, spell_tables


@dataclass(frozen=True, slots=True)
class Pending:
    """One match or seat of an event's record with no result yet."""

    round: int
    table: int
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class EventProgress:
    """An event's latest round (None: nothing paired or seated yet), its results in and
    still out, and its champion once it is closed (R1182)."""

    round: int | None
    results_in: int
    results_out: int
    champion: str | None = None


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
    """The event's latest round, how many of its results are in and out, its champion."""
    played = _played(record)
    if not played:
        return EventProgress(None, 0, 0)
    latest = max(number for number, *_ in played)
    done = [finished for number, *_, finished in played if number == latest]
    return EventProgress(latest, sum(done), len(done) - sum(done), champion_of(record))


def champion_of(record: TournamentDB) -> str | None:
    """The champion of a closed event (R1182); None while it is open (a Pentathlon event has
    no championship to close)."""
    closed = record.closing() if record.has_tournament() else None
    return None if closed is None else closed.champion


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
        with open_event_record(day.event(event)) as record:
            return pending(record)
    except InvalidInput as error:
        raise InvalidInput(
            f"event {event!r} of {day.path.name}: {error} (whether its tables are free to move "
            "is not known)"
        ) from None


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


def tables_moved_line(asked: Sequence[int], moved: Sequence[int], event: str) -> str:
    """What a move did, in the words of both ``day assign`` and the day page's **Move** (R1180):
    "table 3 now plays for senior", "tables 1-4 now play for junior (table 5 already did)"."""
    if not moved:
        return f"{_tables(asked)} already {_plays(asked)} for {event}: nothing moved"
    line = f"{_tables(moved)} now {_plays(moved)} for {event}"
    kept = sorted(set(asked) - set(moved))
    return f"{line} ({_tables(kept)} already did)" if kept else line


def _tables(tables: Sequence[int]) -> str:
    return f"table{'' if len(set(tables)) == 1 else 's'} {table_ranges(tables)}"


def _plays(tables: Sequence[int]) -> str:
    return "plays" if len(set(tables)) == 1 else "play"


def event_tables(day: DayRecord, event: str) -> tuple[int, ...] | None:
    """The tables an event's round is paired at (R1172): in a day of several events, the
    tables playing for ``event`` now, ascending; None in a day of one event (every table plays
    for it, and its rounds are paired at tables 1, 2, ... as one record's are)."""
    if len(day.events()) < 2:
        return None
    return day.tables_of(event)


def at_event_tables(pairing: RoundPairing, tables: Iterable[int], event: str) -> RoundPairing:
    """Round ``pairing``'s matches put at the event's ``tables``, in order (its first match at
    its lowest table), or refused in words when it has too few: a match at a table that plays
    for another event would be played by no table of its own (R1172)."""
    ordered = sorted(tables)
    if len(ordered) < len(pairing.matches):
        if not ordered:
            held = "no table plays"
        elif len(ordered) == 1:
            held = f"only table {ordered[0]} plays"
        else:
            held = f"only tables {spell_tables(ordered)} play"
        matches = counted(len(pairing.matches), "match", "matches")
        raise IllegalAction(
            f"round {pairing.round} of {event} has {matches} but {held} "
            "for it: give it more tables first ('Move tables to an event' on the day page, or "
            "'gametable day assign'); nothing paired"
        )
    placed = (replace(m, table=t) for m, t in zip(pairing.matches, ordered, strict=False))
    return replace(pairing, matches=tuple(placed))


def require_event_table(tables: Sequence[int], table: int, event: str, *, undone: str) -> None:
    """A match or seat of ``event`` goes to one of its ``tables`` only (R1172), else refused in
    words saying what was not done (``undone``: "nothing moved")."""
    if table in tables:
        return
    theirs = f"its tables are {spell_tables(tables)}" if tables else "it has no table"
    raise IllegalAction(
        f"table {table} does not play for {event}: {theirs}; give the table to the event first "
        f"('Move tables to an event' on the day page, or 'gametable day assign'): {undone}"
    )
