"""``gametable day ...``: a tournament's day of several events (issue 27, docs/day.md).

``add_parser(commands)`` adds the command tree; ``run(args)`` carries one out: exit 0 done, 2 bad
input with one line on stderr and nothing changed (as ``gametable tournament``). The day record
names each event's tournament record (made first with ``gametable tournament new``) and which
event each table plays for; every ``gametable tournament`` command then takes ``--day DAY
--event SLUG`` for that event's record.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from firmware_py.cli_args import file_path, print_error
from firmware_py.director.record.day import (
    DayEvent,
    DayRecord,
    open_event_record,
    parse_table_list,
)
from firmware_py.director.record.day_tables import (
    busy_tables,
    progress,
    table_ranges,
    tables_moved_line,
)
from firmware_py.director.tournament_cli import BAD_INPUT, WHO, Answer
from rules.errors import RuleError

DEFAULT_BY = "director"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``day`` and its sub-commands to gametable's sub-command parsers."""
    day = commands.add_parser("day", help="a tournament's day of several events, and its tables")
    sub = day.add_subparsers(dest="day_command", required=True, parser_class=type(day))

    new = sub.add_parser("new", help="start a day record")
    _day(new)
    new.add_argument("--name", required=True, help="the tournament's name")
    new.add_argument("--time-zone", required=True, help="an IANA name like America/Chicago")
    _common(new, by=True)

    event = sub.add_parser("event", help="add an event: a tournament record made before")
    _day(event)
    event.add_argument("slug", metavar="SLUG", help="its short name, like combo4-junior")
    event.add_argument("name", metavar="NAME", help="its name, like 'Combo 4, Junior'")
    event.add_argument(
        "--record", type=file_path, required=True, help="the event's tournament record"
    )
    _common(event, by=True)

    assign = sub.add_parser("assign", help="give tables to an event (between rounds)")
    _day(assign)
    assign.add_argument("tables", metavar="TABLES", help="table numbers like 1-12,15")
    assign.add_argument("event", metavar="EVENT", help="the event's short name")
    assign.add_argument("--reason", required=True, help="why the tables move")
    _common(assign, by=True)

    show = sub.add_parser("show", help="the events, their rounds and results, their tables")
    _day(show)
    _common(show, by=False)


def _day(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("day", metavar="DAY", type=file_path, help="the day record")


def _common(parser: argparse.ArgumentParser, *, by: bool) -> None:
    parser.add_argument("--json", action="store_true", help="answer with JSON")
    if by:
        parser.add_argument("--by", type=WHO, help=f"who does it (default: {DEFAULT_BY})")


def run(args: argparse.Namespace, now: str | None = None) -> int:
    """Carry out ``gametable day ...``; ``now`` (ISO 8601) defaults to the clock."""
    stamp = now or datetime.now(UTC).isoformat(timespec="seconds")
    try:
        answer = _COMMANDS[args.day_command](args, stamp)
    except RuleError as error:
        return _fail(str(error))
    except sqlite3.Error as error:
        return _fail(f"{args.day}: {error}")
    except OSError as error:
        return _fail(f"{error.filename or args.day}: {error.strerror}")
    print(json.dumps(answer.data) if args.json else answer.text)
    return answer.code


def _fail(message: str) -> int:
    print_error(message)
    return BAD_INPUT


def _new(args: argparse.Namespace, now: str) -> Answer:
    by = args.by or DEFAULT_BY
    with DayRecord.create(
        args.day, name=args.name, time_zone=args.time_zone, now=now, by=by
    ) as day:
        data = {"day": str(args.day), "name": day.name, "time_zone": day.time_zone}
    text = f"day {data['name']!r} ({data['time_zone']}): recorded in {args.day}; add its events "
    text += f"with 'gametable day event {args.day} SLUG NAME --record PATH'"
    return Answer(0, text, data)


def _event(args: argparse.Namespace, now: str) -> Answer:
    with DayRecord.open(args.day) as day:
        event = day.add_event(args.slug, args.name, args.record, now=now, by=args.by or DEFAULT_BY)
    text = f"event {event.slug} ({event.name}) of {args.day}: its record {args.record}"
    return Answer(0, text, _event_json(event))


def _assign(args: argparse.Namespace, now: str) -> Answer:
    tables = parse_table_list(args.tables)
    with DayRecord.open(args.day) as day:
        day.event(args.event)  # a known event before the records are read
        moved = day.assign(
            tables,
            args.event,
            now=now,
            by=args.by or DEFAULT_BY,
            reason=args.reason,
            busy=busy_tables(day),
        )
    text = tables_moved_line(tables, moved, args.event)
    return Answer(0, text, {"event": args.event, "tables": list(tables), "moved": list(moved)})


def _show(args: argparse.Namespace, now: str) -> Answer:
    with DayRecord.open(args.day) as day:
        name, zone, events = day.name, day.time_zone, day.events()
        assignments = day.assignments()
    tables: dict[str, list[int]] = {}
    for table, assignment in assignments.items():
        tables.setdefault(assignment.event, []).append(table)
    shown = [_event_state(event, tables.get(event.slug, [])) for event in events]
    lines = [f"{name} ({zone}): {len(events)} event{'' if len(events) == 1 else 's'}"]
    if not events:
        lines.append(f"  add one with 'gametable day event {args.day} SLUG NAME --record PATH'")
    width = max((len(event.slug) for event in events), default=0)
    for event, state in zip(events, shown, strict=True):
        lines.append(f"  {event.slug:<{width}}  {event.name}: {state['said']}")
    data = {
        "day": str(args.day),
        "name": name,
        "time_zone": zone,
        "events": [{k: v for k, v in state.items() if k != "said"} for state in shown],
    }
    return Answer(0, "\n".join(lines), data)


def _event_state(event: DayEvent, tables: list[int]) -> dict[str, Any]:
    """One event as ``day show`` tells it: its round, its results in and out, its tables."""
    state: dict[str, Any] = {**_event_json(event), "tables": sorted(tables)}
    where = _tables(tables) if tables else "no tables"
    try:
        with open_event_record(event) as record:
            found = progress(record)
    except RuleError as error:  # one event's record gone or damaged: the others still show
        state.update(round=None, results_in=None, results_out=None, problem=str(error))
        state["said"] = f"cannot read its record: {error}; {where}"
        return state
    state.update(
        round=found.round,
        results_in=found.results_in,
        results_out=found.results_out,
        champion=found.champion,
    )
    # a closed event says so, and its champion: its tables are free for another (R1182)
    closed = "" if found.champion is None else f"; closed, {found.champion} champion"
    if found.round is None:
        state["said"] = f"nothing paired yet; {where}"
    else:
        state["said"] = (
            f"round {found.round}, {_results(found.results_in)} in, {found.results_out} out"
            f"{closed}; {where}"
        )
    return state


def _tables(tables: Sequence[int]) -> str:
    return f"table{'' if len(tables) == 1 else 's'} {table_ranges(tables)}"


def _results(count: int) -> str:
    return f"{count} result{'' if count == 1 else 's'}"


def _event_json(event: DayEvent) -> dict[str, Any]:
    return {"slug": event.slug, "name": event.name, "record": str(event.record)}


_COMMANDS: dict[str, Callable[[argparse.Namespace, str], Answer]] = {
    "new": _new,
    "event": _event,
    "assign": _assign,
    "show": _show,
}
