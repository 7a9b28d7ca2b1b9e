"""For the tests of a hub serving a day of several events (issue 27, R1120-R1125): a day of two
Combo 4 events, each a record of its own, and a table's match result as the table sends it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.tournament import Entrant, TournamentFormat, new_config
from rules.tournament.records import RoundPairing

NOW = "2026-11-29T09:00:00+00:00"
JUNIOR_TEAMS = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls", "Ravens"))
SENIOR_TEAMS = tuple(Entrant(name, "", ()) for name in ("Bears", "Wolves", "Foxes", "Lynxes"))
# round 1 of each event, at these tables: the junior event's at 1 and 2, the senior's at 3 and 7
JUNIOR_TABLES = (1, 2)
SENIOR_TABLES = (3, 7)


def make_event(path: Path, teams: tuple[Entrant, ...], tables: tuple[int, ...]) -> Path:
    """A Combo 4 event of four teams, three rounds, round 1 paired at ``tables``."""
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, teams, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(
            at_tables(tournament.pair(1), tables), tournament.plan(1), now=NOW, by="director"
        )
    return path


def at_tables(pairing: RoundPairing, tables: tuple[int, ...]) -> RoundPairing:
    """A round's matches put at ``tables`` (an event's tables in the hall), in order."""
    matches = tuple(replace(m, table=t) for m, t in zip(pairing.matches, tables, strict=True))
    return replace(pairing, matches=matches)


def pair_next(path: Path, number: int, tables: tuple[int, ...]) -> None:
    """Pair the event's round ``number`` at ``tables``."""
    with TournamentDB.open(path) as record, record.transaction() as tournament:
        record.add_round(
            at_tables(tournament.pair(number), tables),
            tournament.plan(number),
            now=NOW,
            by="director",
        )


def make_day(directory: Path) -> Path:
    """A day of two events, ``junior`` (tables 1 and 2) and ``senior`` (tables 3 and 7); table
    8 plays for no event."""
    junior = make_event(directory / "junior.db", JUNIOR_TEAMS, JUNIOR_TABLES)
    senior = make_event(directory / "senior.db", SENIOR_TEAMS, SENIOR_TABLES)
    path = directory / "day.sqlite"
    with DayRecord.create(
        path, name="League day", time_zone="America/Chicago", now=NOW, by="director"
    ) as day:
        day.add_event("junior", "Combo 4, Junior", junior, now=NOW, by="director")
        day.add_event("senior", "Combo 4, Senior", senior, now=NOW, by="director")
        day.assign(JUNIOR_TABLES, "junior", now=NOW, by="director", reason="the junior room")
        day.assign(SENIOR_TABLES, "senior", now=NOW, by="director", reason="the senior room")
    return path


def move_table(day_path: Path, table: int, event: str) -> None:
    with DayRecord.open(day_path) as day:
        day.assign((table,), event, now=NOW, by="director", reason="between rounds")


def result(
    journal: str, seq: int, round_number: int, points: tuple[int, int], prev: int | None = None
) -> bytes:
    """A table's match result, decision ``seq`` of ``journal``, following on from ``prev``."""
    return Decision(
        journal,
        seq,
        "2026-11-29T09:30:00.000+00:00",
        {"action": "match.start", "round": round_number},
        {"event": "match_result", "A": points[0], "B": points[1]},
        prev,
    ).to_bytes()


def recorded(path: Path, round_number: int, table: int) -> list[tuple[int, int, str]]:
    """The results an event's record holds of ``round_number`` at ``table``."""
    with TournamentDB.open(path) as record:
        return [
            (e.a_points, e.b_points, e.entered_by)
            for e in record.result_history(round_number, table)
        ]


def table_events(path: Path, table: int) -> list[tuple[str, int]]:
    """Every decision of ``table`` an event's record applied: (journal, seq)."""
    with TournamentDB.open(path) as record:
        rows = record.connection.execute(
            "SELECT journal, seq FROM table_events WHERE table_number = ? ORDER BY seq", (table,)
        )
        return [(str(j), int(s)) for j, s in rows]
