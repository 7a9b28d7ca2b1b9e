"""``gametable tournament ...``: the director's commands (docs/tournament.md).

``add_parser(commands)`` adds the command tree to gametable's sub-commands; ``run(args)``
carries one out: exit 0 done, 2 bad input with one line on stderr and nothing changed.
Every command takes ``--db PATH`` (default ``tournament.db`` here), or ``--day DAY --event
SLUG`` for an event's record of a day (docs/day.md, R1130), and ``--json``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_py.cli_args import file_path, print_error, whole_number
from firmware_py.director import pentathlon_cli
from firmware_py.director.record import rooms as record_rooms
from firmware_py.director.record.day import DayRecord, event_record
from firmware_py.director.record.day_tables import (
    at_event_tables,
    event_tables,
    require_event_table,
)
from firmware_py.director.record.draw import (
    checked_reason,
    move_in_draw,
    plan_swap,
    swap_in_draw,
)
from firmware_py.director.record.export import record_json
from firmware_py.director.record.teams import edit_team
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TABLE_SOURCE, TournamentDB
from firmware_py.director.record.venue import Venue, check_name, check_time_zone
from firmware_py.user_files import MAX_CSV, UserFileError, read_limited_text
from rules.errors import IllegalAction, InvalidInput, RuleError
from rules.tournament import (
    ByePolicy,
    ByeResult,
    Match,
    PairingMethod,
    PlayoffChanged,
    Qualification,
    Qualify,
    RoundPairing,
    Standing,
    TournamentFormat,
    new_config,
    parse_choice,
    parse_teams_csv,
    parse_tiebreaks,
)
from rules.tournament.records import counted, spell_tables
from rules.tournament.teams import clean_text, one_line_reason

DEFAULT_DB = Path("tournament.db")
HOW_TO_VOID = (
    "void it with 'gametable tournament playoff --void --reason TEXT' (or Void the playoff on "
    "the page's /close)"
)
BAD_INPUT = 2
SEED_RANGE = 1_000_000


@dataclass(frozen=True, slots=True)
class Answer:
    """A command's answer: a line (or table) for a person and JSON data for a program."""

    code: int
    text: str
    data: Any


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``tournament`` and its sub-commands to gametable's sub-command parsers."""
    tournament = commands.add_parser("tournament", help="pairings, results, standings, champion")
    sub = tournament.add_subparsers(
        dest="tournament_command", required=True, parser_class=type(tournament)
    )

    _add_new(sub)

    pair = sub.add_parser("pair", help="pair the next round")
    _round(pair)
    _common(pair, by="director")

    _add_unpair(sub)
    _add_attendance(sub)
    _add_swap(sub)
    _add_move(sub)
    _add_team(sub)
    _add_room(sub)

    show = sub.add_parser("round", help="show a round's pairings and results")
    _round(show)
    _common(show)

    result = sub.add_parser("result", help="enter a match's points")
    _round(result)
    result.add_argument("--table", type=whole_number, required=True)
    result.add_argument("--a-points", type=whole_number, required=True, help="team A's points")
    result.add_argument("--b-points", type=whole_number, required=True, help="team B's points")
    result.add_argument("--director", action="store_true", help="entered by the director")
    _amend(result)
    _common(result, by="table T, or director")

    standings = sub.add_parser("standings", help="the standings so far")
    _common(standings)

    championship = sub.add_parser("championship", help="the championship teams and playoff")
    championship.add_argument("--winner", help="record the champion")
    _amend(championship)
    _common(championship, by="director")

    playoff = sub.add_parser("playoff", help="record a Border-Up playoff game")
    playoff.add_argument("--winner", help="the winner of the next playoff game")
    playoff.add_argument("--void", action="store_true", help="void the playoff games so far")
    playoff.add_argument("--reason", type=_reason, help="why the games are voided")
    _common(playoff, by="director")

    _add_reopen(sub)
    _add_settings(sub)

    protest = sub.add_parser("protest", help="record a protest")
    protest.add_argument("text", type=PROTEST, help="what is protested")
    protest.add_argument("--round", type=whole_number, dest="round_number")
    protest.add_argument("--table", type=whole_number)
    _common(protest, by="director")

    export = sub.add_parser("export", help="the whole tournament record as JSON")
    _common(export)

    pentathlon_cli.add_parser(sub, _common, _reason)


def _add_new(sub: argparse._SubParsersAction[Any]) -> None:
    new = sub.add_parser("new", help="start a tournament record from a teams CSV")
    new.add_argument("--format", required=True, dest="fmt", help="combo3 or combo4")
    new.add_argument(
        "--teams", required=True, type=file_path, help="CSV: name,school,players[,short]"
    )
    new.add_argument(
        "--rounds", type=whole_number, help="how many rounds (combo3: 8; combo4: default 8)"
    )
    new.add_argument(
        "--seed", type=whole_number, help="the draw's seed (default: drawn and recorded)"
    )
    new.add_argument(
        "--tiebreaks",
        help="after match wins, e.g. points,head_to_head,opponents_wins (the default); none",
    )
    new.add_argument("--bye-result", default="win", help="a bye scores as a win, tie or loss")
    new.add_argument("--bye-points", type=whole_number, default=0, help="points a bye scores (0)")
    new.add_argument(
        "--allow-same-school", action="store_true", help="do not avoid same-school pairs"
    )
    new.add_argument("--qualify", help="championship by wins (combo3) or standings (combo4)")
    new.add_argument("--pairing", default="swiss", help="swiss (default) or random")
    _venue_options(new)
    _common(new, by="director")


def _add_settings(sub: argparse._SubParsersAction[Any]) -> None:
    settings = sub.add_parser(
        "settings", help="the tournament's name and the venue's time zone (shown, or set)"
    )
    _venue_options(settings)
    _common(settings, by="director")


def _venue_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", help="the tournament's name, on every page and sheet")
    parser.add_argument(
        "--time-zone", help="the venue's IANA time zone, e.g. America/Chicago (default UTC)"
    )


def _add_reopen(sub: argparse._SubParsersAction[Any]) -> None:
    reopen = sub.add_parser("reopen", help="reopen the closed tournament, with a reason")
    reopen.add_argument("--reason", type=_reason, required=True, help="why it is reopened")
    _common(reopen, by="director")


def _add_attendance(sub: argparse._SubParsersAction[Any]) -> None:
    """Check-in, withdrawal and the standings' release switch (R1040-R1043)."""
    checkin = sub.add_parser(
        "checkin", help="mark a team present or absent for the next round, or list the marks"
    )
    _round(checkin)
    checkin.add_argument("--team", type=TEAM, help="the team to mark")
    here = checkin.add_mutually_exclusive_group()
    here.add_argument("--present", action="store_true", help="the team is here to be paired")
    here.add_argument("--absent", action="store_true", help="the team is not here")
    _common(checkin, by="director")

    withdraw = sub.add_parser("withdraw", help="withdraw a team for good, with a reason")
    withdraw.add_argument("--team", type=TEAM, required=True, help="the team withdrawn")
    withdraw.add_argument("--reason", type=_reason, required=True, help="why it withdraws")
    _common(withdraw, by="director")

    release = sub.add_parser(
        "standings-release", help="hide the standings from the public page, or release them"
    )
    public = release.add_mutually_exclusive_group()
    public.add_argument("--hidden", action="store_true", help="hide them until released")
    public.add_argument("--public", action="store_true", help="release them")
    _common(release, by="director")


def _add_unpair(sub: argparse._SubParsersAction[Any]) -> None:
    unpair = sub.add_parser(
        "unpair", help="undo the latest round's pairing while none of its results is in"
    )
    _round(unpair)
    unpair.add_argument("--reason", type=_reason, required=True, help="why it is undone")
    _common(unpair, by="director")


def _add_swap(sub: argparse._SubParsersAction[Any]) -> None:
    swap = sub.add_parser(
        "swap", help="swap two teams in the latest round's draw while none of its results is in"
    )
    _round(swap)
    swap.add_argument("--teams", nargs=2, required=True, metavar="TEAM", help="the two teams")
    swap.add_argument("--reason", type=_reason, required=True, help="why the draw changes")
    swap.add_argument(
        "--confirm", action="store_true", help="swap despite a rematch or same-school warning"
    )
    _common(swap, by="director")


def _add_move(sub: argparse._SubParsersAction[Any]) -> None:
    move = sub.add_parser(
        "move",
        help="move a team's match to a free table in the latest round's draw while none of its "
        "results is in",
    )
    _round(move)
    move.add_argument("--team", required=True, help="a team of the match to move")
    move.add_argument("--table", type=whole_number, required=True, help="the free table")
    move.add_argument("--reason", type=_reason, required=True, help="why the draw changes")
    _common(move, by="director")


def _add_team(sub: argparse._SubParsersAction[Any]) -> None:
    team = sub.add_parser("team", help="edit a team: its name, school or players")
    teams = team.add_subparsers(dest="team_command", required=True, parser_class=type(team))
    edit = teams.add_parser("edit", help="edit a team's name, school or players, with a reason")
    edit.add_argument("--team", required=True, help="the team, by its name now")
    edit.add_argument("--name", help="its new name")
    edit.add_argument("--school", help="its school ('' for none)")
    edit.add_argument("--players", help="its players, separated by ';' ('' for none)")
    edit.add_argument("--reason", type=_reason, required=True, help="why it is edited")
    _common(edit, by="director")


def _add_room(sub: argparse._SubParsersAction[Any]) -> None:
    """Rooms holding numbered tables (R1110-R1113)."""
    room = sub.add_parser("room", help="name rooms and the tables each holds")
    rooms = room.add_subparsers(dest="room_command", required=True, parser_class=type(room))
    add = rooms.add_parser("add", help="add a room holding some tables")
    add.add_argument("name", type=_room_text(record_rooms.check_room_name), help="the room")
    add.add_argument(
        "--tables",
        type=_room_text(record_rooms.parse_tables),
        required=True,
        help="its tables: 9-16, 1,3,5 or 1-4,9",
    )
    add.add_argument(
        "--building",
        type=_room_text(lambda text: record_rooms.check_room_name(text, "the building")),
        default="",
        help="the building it is in (default: none)",
    )
    _common(add, by="director")
    listed = rooms.add_parser("list", help="the rooms and their tables")
    _common(listed)
    remove = rooms.add_parser("remove", help="remove a room: its tables are then in none")
    remove.add_argument("name", help="the room")
    _common(remove, by="director")


def _room_text(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argument type from a record_rooms check: its error as argparse's one line."""

    def checked(text: str) -> Any:
        try:
            return parse(text)
        except InvalidInput as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return checked


def _plain_text(what: str, max_length: int) -> Callable[[str], str]:
    """An argument type for free text kept in the record (R131, R133): made one way, one line,
    no control characters (they would reach the terminal of whoever reads the record)."""

    def parse(text: str) -> str:
        try:
            cleaned = clean_text(text, what)
        except InvalidInput as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if len(cleaned) > max_length:
            raise argparse.ArgumentTypeError(
                f"{what} is {len(cleaned)} characters: expected at most {max_length}"
            )
        return cleaned

    return parse


WHO = _plain_text("who enters it", 64)
PROTEST = _plain_text("the protest", 2000)
TEAM = _plain_text("the team", 200)


def _reason(text: str) -> str:
    """An argument type for an amendment's or a voided playoff's reason: one line (R342)."""
    try:
        return one_line_reason(text)
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _common(parser: argparse.ArgumentParser, by: str | None = None) -> None:
    record = parser.add_mutually_exclusive_group()
    record.add_argument("--db", type=file_path, default=DEFAULT_DB, help="the tournament record")
    record.add_argument(
        "--day", type=file_path, dest="day_record", help="a day of several events (with --event)"
    )
    parser.add_argument(
        "--event", dest="day_event", metavar="SLUG", help="the day's event whose record it is"
    )
    parser.add_argument("--json", action="store_true", help="answer with JSON")
    if by is not None:
        parser.add_argument("--by", type=WHO, help=f"who enters it (default: {by})")


def _round(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--round", type=whole_number, required=True, dest="round_number")


def _amend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--amend", action="store_true", help="replace the recorded entry")
    parser.add_argument("--reason", type=_reason, help="why it is amended (required with --amend)")


def run(args: argparse.Namespace, now: str | None = None) -> int:
    """Carry out ``gametable tournament ...``; ``now`` (ISO 8601) defaults to the clock."""
    stamp = now or datetime.now(UTC).isoformat(timespec="seconds")
    try:
        _resolve_record(args)
        answer = _COMMANDS[args.tournament_command](args, stamp)
    except PlayoffChanged as stopped:  # R960: say how the director goes on, here
        return _fail(f"{stopped}: {HOW_TO_VOID}")
    except RuleError as error:
        return _fail(str(error))
    except sqlite3.Error as error:
        return _fail(f"{args.db}: {error}")
    except OSError as error:
        return _fail(f"{error.filename or args.db}: {error.strerror}")
    if args.json:
        print(json.dumps(answer.data))
    else:
        print(answer.text)
    return answer.code


def _resolve_record(args: argparse.Namespace) -> None:
    """``--day DAY --event SLUG`` names an event's record (R1130): every command then reads
    ``args.db`` as it does with ``--db``."""
    if args.day_record is not None:
        args.db = event_record(args.day_record, args.day_event)
    elif args.day_event is not None:
        raise InvalidInput(
            f"--event {args.day_event} names an event of a day: expected --day DAY with it"
        )


def _fail(message: str) -> int:
    print_error(message)
    return BAD_INPUT


# -- the commands ----------------------------------------------------------------------------


def _new(args: argparse.Namespace, now: str) -> Answer:
    fmt = TournamentFormat.parse(args.fmt)
    config = new_config(
        fmt,
        seed=secrets.randbelow(SEED_RANGE) if args.seed is None else args.seed,
        rounds=args.rounds,
        tiebreaks=None if args.tiebreaks is None else parse_tiebreaks(args.tiebreaks),
        bye=ByePolicy(parse_choice(ByeResult, args.bye_result, "bye result"), args.bye_points),
        avoid_same_school=not args.allow_same_school,
        qualify=None if args.qualify is None else parse_choice(Qualify, args.qualify, "qualify"),
        pairing=parse_choice(PairingMethod, args.pairing, "pairing"),
    )
    entrants = parse_teams_csv(_read_text(args.teams), str(args.teams))
    # checked before the record is made: a bad name or zone leaves no file behind
    name = None if args.name is None else check_name(args.name)
    zone = None if args.time_zone is None else check_time_zone(args.time_zone)
    by = args.by or "director"
    with TournamentDB.create(args.db, config, entrants, now=now, by=by) as record:
        if name is not None or zone is not None:
            record.set_venue(name=name, time_zone=zone, now=now, by=by)
        venue = record.venue()
    text = (
        f"{fmt.value} tournament{_named(venue)}: {len(entrants)} teams, {config.rounds} rounds, "
        f"seed {config.seed}; recorded in {args.db}"
    )
    data = {"db": str(args.db), "teams": len(entrants), **config.to_json(), **venue.to_json()}
    return Answer(0, text, data)


def _named(venue: Venue) -> str:
    return "" if venue.name is None else f" {venue.name!r}"


def _settings(args: argparse.Namespace, now: str) -> Answer:
    """Show the tournament's name and time zone, or set either (R962)."""
    with TournamentDB.open(args.db) as record:
        if args.name is not None or args.time_zone is not None:
            record.set_venue(
                name=args.name, time_zone=args.time_zone, now=now, by=args.by or "director"
            )
        venue = record.venue()
    name = "none (set it with --name TEXT)" if venue.name is None else venue.name
    return Answer(0, f"name: {name}\ntime zone: {venue.time_zone}", venue.to_json())


def _pair(args: argparse.Namespace, now: str) -> Answer:
    tables = None
    if args.day_record is not None:  # an event of a day: at the tables playing for it (R1172)
        with DayRecord.open(args.day_record) as day:
            tables = event_tables(day, args.day_event)
    with TournamentDB.open(args.db) as record, record.transaction() as tournament:
        record.require_open(f"pairing round {args.round_number}")
        pairing = tournament.pair(args.round_number)
        if tables is not None:
            pairing = at_event_tables(pairing, tables, args.day_event)
        plan = tournament.plan(args.round_number)
        record.add_round(pairing, plan, now=now, by=args.by or "director")
    return _round_answer(pairing, plan.kind.value, plan.minutes, {})


def _unpair(args: argparse.Namespace, now: str) -> Answer:
    """Undo the latest round's pairing (R820): marked withdrawn in the record, never deleted."""
    with TournamentDB.open(args.db) as record:
        undone = record.unpair_round(
            args.round_number, now=now, by=args.by or "director", reason=args.reason
        )
    text = (
        f"round {undone.round}'s pairing undone "
        f"({counted(len(undone.matches), 'match', 'matches')} withdrawn): "
        f"pair round {undone.round} again with 'gametable tournament pair --round {undone.round}'"
    )
    data = {
        "round": undone.round,
        "matches": len(undone.matches),
        "withdrawn_at": now,
        "withdrawn_by": args.by or "director",
        "reason": args.reason,
    }
    return Answer(0, text, data)


def _checkin(args: argparse.Namespace, now: str) -> Answer:
    """Mark a team for the next round (R1040), or list round ``--round``'s marks."""
    if args.team is None and (args.present or args.absent):
        raise InvalidInput("--present or --absent without --team: expected the team to mark")
    with TournamentDB.open(args.db) as record:
        if args.team is not None:
            if not (args.present or args.absent):
                raise InvalidInput(
                    f"--team {args.team} without --present or --absent: expected one"
                )
            team, present = record.mark_checkin(
                args.round_number,
                args.team,
                present=args.present,
                now=now,
                by=args.by or "director",
            )
            state = "present" if present else "absent"
            text = f"round {args.round_number}: {team} marked {state} (by {args.by or 'director'})"
            return Answer(0, text, {"round": args.round_number, "team": team, "present": present})
        tournament = record.load()
        tournament.plan(args.round_number)
    marks = tournament.attendance.marks(args.round_number)
    withdrawn = tournament.attendance.withdrawn
    rows = [
        {"team": name, "state": _checkin_state(name, marks, withdrawn)} for name in tournament.names
    ]
    used = "in use" if marks else "not used: every active team is paired"
    lines = [f"round {args.round_number} check-in: {used}"]
    lines += [f"{row['team']}: {row['state']}" for row in rows]
    return Answer(0, "\n".join(lines), {"round": args.round_number, "teams": rows})


def _checkin_state(team: str, marks: dict[str, bool], withdrawn: frozenset[str]) -> str:
    if team in withdrawn:
        return "withdrawn"
    if team not in marks:
        return "not marked"
    return "present" if marks[team] else "absent"


def _withdraw(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record:
        gone = record.withdraw_team(
            args.team, now=now, by=args.by or "director", reason=args.reason
        )
    text = (
        f"{gone.team} withdrawn {_when_withdrawn(gone.after_round)} (by {gone.withdrawn_by}): "
        "never paired again; its games stay in the standings"
    )
    return Answer(0, text, gone.to_json())


def _when_withdrawn(after_round: int) -> str:
    return "before round 1" if after_round == 0 else f"after round {after_round}"


def _standings_release(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record:
        if args.hidden or args.public:
            shown = record.set_standings_release(
                public=args.public, now=now, by=args.by or "director"
            )
        else:
            shown = record.standings_release()
    state = "public" if shown.public else "hidden from the public page and projector until released"
    who = "" if shown.set_by is None else f" (set by {shown.set_by} at {shown.set_at})"
    return Answer(0, f"standings: {state}{who}", shown.to_json())


def _swap(args: argparse.Namespace, now: str) -> Answer:
    """Swap two teams in the latest round's draw (R1064); warned first (R1065)."""
    first, second = args.teams
    checked_reason(args.round_number, args.reason)
    with TournamentDB.open(args.db) as record:
        plan = plan_swap(record, args.round_number, first, second)
        if plan.warnings and not args.confirm:
            raise IllegalAction(
                f"{plan.change} makes {'; '.join(plan.warnings)}: nothing swapped; run again "
                "with --confirm to swap anyway"
            )
        by = args.by or "director"
        done = swap_in_draw(
            record,
            args.round_number,
            first,
            second,
            reason=args.reason,
            now=now,
            by=by,
            confirmed=args.confirm,
            expected=plan.stamp,
        )
        matches = [_match_json(match) for match in done.after.matches]
    data = {
        "round": args.round_number,
        "change": done.change,
        "warnings": list(done.warnings),
        "reason": args.reason,
        "changed_by": by,
        "changed_at": now,
        "matches": matches,
        "bye": done.after.bye,
    }
    return Answer(0, f"round {args.round_number}: {done.change}", data)


def _move(args: argparse.Namespace, now: str) -> Answer:
    """Move a team's match to a free table in the latest round's draw (R1068)."""
    checked_reason(args.round_number, args.reason)
    by = args.by or "director"
    tables = None  # the record's (R1069); in a day of several events, the event's (R1172)
    if args.day_record is not None:
        with DayRecord.open(args.day_record) as day:
            tables = event_tables(day, args.day_event)
        if tables is not None:
            require_event_table(tables, args.table, args.day_event, undone="nothing moved")
    with TournamentDB.open(args.db) as record:
        done = move_in_draw(
            record,
            args.round_number,
            args.team,
            args.table,
            reason=args.reason,
            now=now,
            by=by,
            tables=tables,
        )
        matches = [_match_json(match) for match in done.after.matches]
    data = {
        "round": args.round_number,
        "change": done.change,
        "reason": args.reason,
        "changed_by": by,
        "changed_at": now,
        "matches": matches,
        "bye": done.after.bye,
    }
    return Answer(0, f"round {args.round_number}: {done.change}", data)


def _match_json(match: Match) -> dict[str, Any]:
    return {"table": match.table, "a": match.a, "b": match.b}


def _team(args: argparse.Namespace, now: str) -> Answer:
    """Edit a team (R1067): the old values kept with who, when and why."""
    if args.name is None and args.school is None and args.players is None:
        raise InvalidInput(
            f"editing team {args.team!r}: expected --name, --school or --players (what changes)"
        )
    with TournamentDB.open(args.db) as record:
        edit = edit_team(
            record,
            args.team,
            name=args.name,
            school=args.school,
            players=args.players,
            reason=args.reason,
            now=now,
            by=args.by or "director",
        )
    return Answer(0, f"team {edit.before.name!r} edited: {edit.change}", edit.to_json())


def _room(args: argparse.Namespace, now: str) -> Answer:
    """Add, list or remove rooms (R1110-R1113)."""
    by = getattr(args, "by", None) or "director"
    with TournamentDB.open(args.db) as record:
        if args.room_command == "add":
            room = record.add_room(args.name, args.tables, building=args.building, now=now, by=by)
            return Answer(0, f"room {_room_line(room)} added (by {by})", room.to_json())
        if args.room_command == "remove":
            room = record.remove_room(args.name, now=now, by=by)
            text = f"room {room.name!r} removed (by {by}): tables {_spelled(room)} in no room"
            return Answer(0, text, room.to_json())
        standing = record.rooms()
    lines = [_room_line(room) for room in standing] or ["no rooms: every table is in none"]
    return Answer(0, "\n".join(lines), [room.to_json() for room in standing])


def _room_line(room: record_rooms.Room) -> str:
    return f"{room.place}: tables {_spelled(room)}"


def _spelled(room: record_rooms.Room) -> str:
    return spell_tables(room.tables)


def _show_round(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record:
        tournament = record.load()
        if not 1 <= args.round_number <= len(tournament.rounds):
            paired = len(tournament.rounds)
            expected = f"a round from 1 to {paired}" if paired else "no round is paired yet"
            raise InvalidInput(f"round {args.round_number} is not paired: {expected}")
        pairing = tournament.rounds[args.round_number - 1]
        plan = record.round_plans()[args.round_number]
        scores = {
            r.table: (r.a_points, r.b_points)
            for r in tournament.results
            if r.round == args.round_number
        }
    return _round_answer(pairing, plan["kind"], plan["minutes"], scores)


def _round_answer(
    pairing: RoundPairing, kind: str, minutes: int, scores: dict[int, tuple[int, int]]
) -> Answer:
    lines = [f"round {pairing.round} ({kind}, {minutes} minutes)"]
    rows = []
    for match in pairing.matches:
        score = scores.get(match.table)
        shown = "" if score is None else f"  {score[0]}-{score[1]}"
        lines.append(f"table {match.table}: {match.a} (A) v {match.b} (B){shown}")
        row: dict[str, Any] = {"table": match.table, "A": match.a, "B": match.b}
        if score is not None:
            row["a_points"], row["b_points"] = score
        rows.append(row)
    lines.append(f"bye: {pairing.bye}" if pairing.bye is not None else "bye: none")
    data = {
        "round": pairing.round,
        "kind": kind,
        "minutes": minutes,
        "pairings": rows,
        "bye": pairing.bye,
    }
    return Answer(0, "\n".join(lines), data)


def _result(args: argparse.Namespace, now: str) -> Answer:
    if args.amend and not (args.reason or "").strip():
        raise InvalidInput("--amend without --reason: expected why the result changes")
    if args.reason is not None and not args.amend:
        raise InvalidInput("--reason without --amend: a reason goes with an amendment")
    with TournamentDB.open(args.db) as record, record.transaction() as tournament:
        record.require_open(f"round {args.round_number} table {args.table}'s result")
        result = tournament.result(args.round_number, args.table, args.a_points, args.b_points)
        source = DIRECTOR_SOURCE if args.director or args.amend else TABLE_SOURCE
        entry = record.add_result(
            result,
            now=now,
            by=args.by or (f"table {args.table}" if source == TABLE_SOURCE else "director"),
            source=source,
            amend_reason=args.reason if args.amend else None,
        )
    outcome = "a tie" if result.winner is None else f"{result.winner} wins"
    verb = "amended" if args.amend else "recorded"
    text = (
        f"round {result.round} table {result.table}: {result.a} {result.a_points}, "
        f"{result.b} {result.b_points}: {outcome} ({verb}, version {entry.version}, "
        f"by {entry.entered_by})"
    )
    data = {
        "round": result.round,
        "table": result.table,
        "A": result.a,
        "B": result.b,
        "winner": result.winner,
        **entry.to_json(),
    }
    return Answer(0, text, data)


def _standings(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record:
        tournament = record.load()
    table = tournament.standings()
    withdrawn = tournament.attendance.withdrawn
    data = [{**row.to_json(), "withdrawn": row.team in withdrawn} for row in table]
    return Answer(0, _standings_text(table, withdrawn), data)


def _standings_text(table: tuple[Standing, ...], withdrawn: frozenset[str] = frozenset()) -> str:
    width = max(len("team"), *(len(row.team) for row in table))
    lines = [f"{'rank':>4}  {'team':<{width}}  {'W':>2} {'T':>2} {'L':>2}  {'points':>6}  opp W"]
    for row in table:
        gone = "  (withdrawn)" if row.team in withdrawn else ""  # R1041
        lines.append(
            f"{row.rank:>4}  {row.team:<{width}}  {row.wins:>2} {row.ties:>2} {row.losses:>2}  "
            f"{row.points:>6}  {row.opponents_wins:>5}{gone}"
        )
    return "\n".join(lines)


def _championship(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record, record.transaction() as tournament:
        found = tournament.qualification(record.playoff_games())
        if args.winner is not None:
            if args.amend and not (args.reason or "").strip():
                raise InvalidInput("--amend without --reason: expected why the champion changes")
            finalists = found.finalists
            if finalists is None:
                raise IllegalAction("the championship teams are not known yet: play the playoff")
            team = tournament.entrant(args.winner).name
            if team not in finalists:
                raise InvalidInput(
                    f"{team!r} is not in the championship: expected "
                    f"{finalists[0]!r} or {finalists[1]!r}"
                )
            record.set_champion(
                team,
                now=now,
                by=args.by or "director",
                amend_reason=args.reason if args.amend else None,
            )
        champion = record.champion()
    return _qualification_answer(found, champion)


def _playoff(args: argparse.Namespace, now: str) -> Answer:
    if args.void == (args.winner is not None):
        raise InvalidInput("playoff: expected either --winner NAME or --void --reason TEXT")
    with TournamentDB.open(args.db) as record, record.transaction() as tournament:
        record.require_open("voiding the playoff" if args.void else "a playoff game")
        if args.void:
            record.void_playoff(now=now, by=args.by or "director", reason=args.reason or "")
            found = tournament.qualification()
        else:
            found = tournament.qualification(record.playoff_games())
            if found.playoff is None:
                raise IllegalAction("no playoff is needed: the championship teams are known")
            name = tournament.entrant(args.winner).name
            after = found.playoff.record(name)
            game = after.games[-1]
            record.add_playoff_game(game, now=now, by=args.by or "director")
            found = Qualification(found.qualified, after)
        champion = record.champion()
    return _qualification_answer(found, champion)


def _qualification_answer(found: Qualification, champion: str | None) -> Answer:
    finalists = found.finalists
    lines = []
    if found.qualified:
        lines.append("qualified: " + ", ".join(found.qualified))
    if found.playoff is not None:
        playoff = found.playoff
        places = "1 place" if playoff.places == 1 else f"{playoff.places} places"
        lines.append(
            f"Border-Up playoff for {places} among {', '.join(playoff.seeds)} "
            "(seeded in that order)"
        )
        lines += [f"  {g.a} v {g.b}: {g.winner} won" for g in playoff.games]
        upcoming = playoff.next_game()
        if upcoming is not None:
            lines.append(
                f"next playoff game: {upcoming[0]} v {upcoming[1]} ({playoff.next_game_decides()})"
            )
    if finalists is not None:
        lines.append(f"championship: {finalists[0]} v {finalists[1]}")
    if champion is not None:
        lines.append(f"champion: {champion}")
    data = {
        "qualified": list(found.qualified),
        "playoff": None if found.playoff is None else found.playoff.to_json(),
        "finalists": None if finalists is None else list(finalists),
        "champion": champion,
    }
    return Answer(0, "\n".join(lines), data)


def _reopen(args: argparse.Namespace, now: str) -> Answer:
    """Reopen the closed tournament (R850): the champion no longer stands, with who, when, why."""
    by = args.by or "director"
    with TournamentDB.open(args.db) as record:
        undone = record.reopen(now=now, by=by, reason=args.reason)
    text = (
        f"the tournament is reopened ({undone.champion} was recorded as champion by "
        f"{undone.closed_by} at {undone.closed_at_shown}): close it again with "
        "'gametable tournament championship --winner NAME'"
    )
    data = {**undone.to_json(), "reopened_by": by, "reopened_at": now, "reason": args.reason}
    return Answer(0, text, data)


def _protest(args: argparse.Namespace, now: str) -> Answer:
    if args.table is not None and args.round_number is None:
        raise InvalidInput("--table without --round: expected the round of that table")
    with TournamentDB.open(args.db) as record, record.transaction():
        protest = record.add_protest(
            args.round_number, args.table, args.text, now=now, by=args.by or "director"
        )
    where = "" if protest.round is None else f" (round {protest.round}"
    if protest.round is not None:
        where += "" if protest.table is None else f" table {protest.table}"
        where += ")"
    text = f"protest {protest.number}{where} recorded: {protest.text}"
    return Answer(0, text, protest.to_json())


def _export(args: argparse.Namespace, now: str) -> Answer:
    with TournamentDB.open(args.db) as record:
        data = record_json(record)  # the page's download is the same (R1060)
    return Answer(0, json.dumps(data, indent=2), data)


def _read_text(path: Path) -> str:
    try:
        return read_limited_text(path, MAX_CSV, "a CSV of entrants")
    except UserFileError as error:
        raise InvalidInput(str(error)) from None


_COMMANDS: dict[str, Callable[[argparse.Namespace, str], Answer]] = {
    "new": _new,
    "pair": _pair,
    "unpair": _unpair,
    "checkin": _checkin,
    "withdraw": _withdraw,
    "standings-release": _standings_release,
    "swap": _swap,
    "move": _move,
    "team": _team,
    "room": _room,
    "round": _show_round,
    "result": _result,
    "standings": _standings,
    "championship": _championship,
    "playoff": _playoff,
    "reopen": _reopen,
    "settings": _settings,
    "protest": _protest,
    "export": _export,
    "pentathlon": lambda args, now: Answer(*pentathlon_cli.run(args, now, _read_text)),
}
