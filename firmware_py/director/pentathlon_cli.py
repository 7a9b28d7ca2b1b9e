"""``gametable tournament pentathlon ...``: the director's commands for a Mathematics Pentathlon
event in the tournament record (docs/tournament.md, "A Pentathlon event").

Exit 0: done (or found); 1: ``result --show`` of a seat with no result yet; 2: bad input, one
line on stderr, nothing changed. Every command takes ``--db`` and ``--json``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from firmware_py.cli_args import file_path, number_error, whole_number
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.day_tables import event_tables, require_event_table
from firmware_py.director.record.pentathlon import PentathlonEntry, PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TABLE_SOURCE, TournamentDB
from rules.errors import InvalidInput
from rules.pentathlon.catalogue import Game
from rules.tournament.pentathlon import (
    DIVISIONS,
    SIDES,
    Challenges,
    GameResult,
    PentathlonPoints,
    PentathlonStanding,
    check_event_name,
    parse_how,
    parse_players_csv,
    parse_winner,
    parse_zero_points,
)

FOUND, NOT_FOUND = 0, 1

# (code, text, data): what a command answers; the tournament CLI prints it.
Answer = tuple[int, str, Any]


def add_parser(
    sub: argparse._SubParsersAction[Any],
    common: Callable[..., None],
    reason: Callable[[str], str],
) -> None:
    """Add ``tournament pentathlon`` and its commands; ``common(parser, by=...)`` adds --db,
    --json and --by as every tournament command has them, ``reason`` reads a reason."""
    pentathlon = sub.add_parser("pentathlon", help="a Mathematics Pentathlon event's record")
    commands = pentathlon.add_subparsers(
        dest="pentathlon_command", required=True, parser_class=type(pentathlon)
    )

    new = commands.add_parser("new", help="start the event from a Pentathletes CSV")
    new.add_argument("--players", required=True, type=file_path, help="CSV: name,division,school")
    new.add_argument("--points", default="2,1,0", help="a win, a tie, a loss (2,1,0: R264)")
    new.add_argument(
        "--name", default="", help="the event's name, on the tables' score cards (R795)"
    )
    common(new, by="director")

    seat = commands.add_parser("seat", help="seat two Pentathletes at a table for a round's game")
    _where(seat)
    seat.add_argument("--game", required=True, help=", ".join(game.value for game in Game))
    seat.add_argument("--a", required=True, help="Player A's name")
    seat.add_argument("--b", required=True, help="Player B's name")
    common(seat, by="director")

    result = commands.add_parser("result", help="enter (or --show) a seat's game result")
    _where(result)
    result.add_argument("--winner", help="A, B or tie")
    result.add_argument(
        "--how", help="goal, award, time-limit, three-i-ia, challenged-win, agreement, director"
    )
    result.add_argument("--scores", help="final scores A,B in the game's terms (if it keeps one)")
    result.add_argument("--challenges", help="C/I/IA of A and of B: 0/1/0,1/0/2 (default none)")
    result.add_argument(
        "--zero-points", help="the players the Tournament Director gave 0 points: A, B or A,B"
    )
    result.add_argument("--show", action="store_true", help="show the result and its versions")
    result.add_argument("--director", action="store_true", help="entered by the director")
    result.add_argument("--amend", action="store_true", help="replace the recorded result")
    result.add_argument("--reason", type=reason, help="why it is amended (with --amend)")
    common(result, by="table T, or director")

    standings = commands.add_parser("standings", help="the standings per division")
    standings.add_argument("--game", help="one game's standings (default: every game)")
    common(standings)


def _where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--round", type=whole_number, required=True, dest="round_number")
    parser.add_argument("--table", type=whole_number, required=True)


def run(args: argparse.Namespace, now: str, read_text: Callable[[Any], str]) -> Answer:
    """Carry out one command; RuleError for bad input (the tournament CLI's one line).
    ``read_text`` reads the players' CSV as the tournament's ``new`` reads its teams'."""
    if args.pentathlon_command == "new":
        return _new(args, now, read_text)
    return _COMMANDS[args.pentathlon_command](args, now)


def _new(args: argparse.Namespace, now: str, read_text: Callable[[Any], str]) -> Answer:
    points = PentathlonPoints.parse(args.points)
    players = parse_players_csv(read_text(args.players), str(args.players))
    if not players:
        raise InvalidInput(f"{args.players}: expected at least one Pentathlete")
    name = check_event_name(args.name)
    PentathlonRecord.start(
        args.db, points, players, now=now, by=args.by or "director", name=name
    ).close()
    divisions = [d for d in DIVISIONS if any(player.division == d for player in players)]
    text = (
        f"Pentathlon event: {len(players)} Pentathletes (divisions {', '.join(divisions)}), "
        f"points win {points.win}, tie {points.tie}, loss {points.loss}; recorded in {args.db}"
    )
    data = {
        "db": str(args.db),
        "players": [player.to_json() for player in players],
        "points": points.to_json(),
        "name": name,
    }
    return FOUND, text, data


def _seat(args: argparse.Namespace, now: str) -> Answer:
    game = Game.parse(args.game)
    if getattr(args, "day_record", None) is not None:  # an event of a day: its tables (R1172)
        with DayRecord.open(args.day_record) as day:
            tables = event_tables(day, args.day_event)
        if tables is not None:
            require_event_table(tables, args.table, args.day_event, undone="nothing seated")
    with TournamentDB.open(args.db) as record, record.writing():
        event = PentathlonRecord(record)
        seat = event.event().seat(args.round_number, args.table, game, args.a, args.b)
        event.add_seat(seat, now=now, by=args.by or "director")
    text = f"round {seat.round} table {seat.table}: {seat.a} (A) v {seat.b} (B), {game.value}"
    return FOUND, text, seat.to_json()


def _result(args: argparse.Namespace, now: str) -> Answer:
    if args.show:
        return _show(args)
    if args.winner is None or args.how is None:
        raise InvalidInput("result: expected --winner and --how (or --show)")
    if args.amend and not (args.reason or "").strip():
        raise InvalidInput("--amend without --reason: expected why the result changes")
    if args.reason is not None and not args.amend:
        raise InvalidInput("--reason without --amend: a reason goes with an amendment")
    winner, how = parse_winner(args.winner), parse_how(args.how)
    scores = _scores(args.scores)
    challenges = _challenges(args.challenges)
    source = DIRECTOR_SOURCE if args.director or args.amend else TABLE_SOURCE
    by = args.by or (f"table {args.table}" if source == TABLE_SOURCE else "director")
    with TournamentDB.open(args.db) as record, record.writing():
        event = PentathlonRecord(record)
        seat = event.event().seat_at(args.round_number, args.table)
        result = GameResult(
            seat, winner, how, scores, challenges, parse_zero_points(args.zero_points)
        )
        entry = event.add_result(
            result,
            now=now,
            by=by,
            source=source,
            amend_reason=args.reason.strip() if args.amend else None,
        )
    verb = "amended" if args.amend else "recorded"
    text = f"{_line(entry)} ({verb}, version {entry.version}, by {entry.entered_by})"
    return FOUND, text, entry.to_json()


def _show(args: argparse.Namespace) -> Answer:
    entered = [args.winner, args.how, args.scores, args.challenges, args.reason, args.zero_points]
    if any(value is not None for value in entered) or args.amend or args.director:
        raise InvalidInput("--show shows a result: expected no result options with it")
    with TournamentDB.open(args.db) as record:
        event = PentathlonRecord(record)
        seat = event.event().seat_at(args.round_number, args.table)
        history = event.history(seat.round, seat.table)
    where = f"round {seat.round} table {seat.table}: {seat.a} (A) v {seat.b} (B), {seat.game}"
    data = {**seat.to_json(), "versions": [entry.to_json() for entry in history]}
    if not history:
        return NOT_FOUND, f"{where}: no result yet", data
    lines = [where]
    for entry in history:
        why = f", because {entry.reason}" if entry.reason else ""
        lines.append(
            f"  version {entry.version}: {_line(entry)} (by {entry.entered_by} at "
            f"{entry.entered_at}{why})"
        )
    return FOUND, "\n".join(lines), data


def _line(entry: PentathlonEntry) -> str:
    result = entry.result
    seat = result.seat
    who = "a tie" if result.winner is None else f"{seat.a if result.winner == 'A' else seat.b} wins"
    scores = ""
    if result.scores != (None, None):
        scores = f", scores {result.scores[0]}-{result.scores[1]}"
    counts = ", ".join(
        f"{side} C/I/IA {c.c}/{c.i}/{c.ia}"
        for side, c in zip(SIDES, result.challenges, strict=True)
    )
    zero = "".join(f"; 0 points to {side} (the Tournament Director)" for side in result.zeroed)
    return (
        f"round {seat.round} table {seat.table} ({seat.game}): {who} by {result.how.value}"
        f"{scores}; {counts}{zero}"
    )


def _scores(text: str | None) -> tuple[int | None, int | None]:
    if text is None:
        return None, None
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2 or any(number_error(part) for part in parts):
        raise InvalidInput(f"--scores {text!r}: expected two whole numbers, A's then B's: 25,34")
    return int(parts[0]), int(parts[1])


def _challenges(text: str | None) -> tuple[Challenges, Challenges]:
    if text is None:
        return Challenges(), Challenges()
    parts = text.split(",")
    if len(parts) != 2:
        raise InvalidInput(f"--challenges {text!r}: expected A's and B's C/I/IA: 0/1/0,1/0/2")
    return Challenges.parse(parts[0], "A"), Challenges.parse(parts[1], "B")


def _standings(args: argparse.Namespace, now: str) -> Answer:
    game = None if args.game is None else Game.parse(args.game)
    with TournamentDB.open(args.db) as record:
        table = PentathlonRecord(record).event().standings(game)
    heading = f"standings: {game.value if game else 'every game'}"
    return FOUND, "\n".join([heading, *_standing_lines(table)]), [r.to_json() for r in table]


def _standing_lines(table: tuple[PentathlonStanding, ...]) -> list[str]:
    if not table:
        return ["no Pentathletes"]
    width = max(len("name"), *(len(row.name) for row in table))
    lines = []
    division = None
    for row in table:
        if row.division != division:
            division = row.division
            lines.append(f"division {division}")
            lines.append(
                f"{'rank':>4}  {'name':<{width}}  {'P':>2} {'W':>2} {'T':>2} {'L':>2}  "
                f"{'points':>6}  I/IA"
            )
        lines.append(
            f"{row.rank:>4}  {row.name:<{width}}  {row.played:>2} {row.wins:>2} {row.ties:>2} "
            f"{row.losses:>2}  {row.points:>6}  {row.i_ia:>4}"
        )
    return lines


_COMMANDS: dict[str, Callable[[argparse.Namespace, str], Answer]] = {
    "seat": _seat,
    "result": _result,
    "standings": _standings,
}
