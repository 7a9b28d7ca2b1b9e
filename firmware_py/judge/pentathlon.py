"""``gametable pentathlon ...``: the judge's checks for the Mathematics Pentathlon.

Exit 0: the claim holds (or a decision was made); 1: the claim fails; 2: bad input, one line on
stderr, nothing written. Every command takes ``--json`` (docs/pentathlon.md).

The games' modules (which register the Pentathlon's actions) are imported only by the commands
that need them, so other commands' logs never meet Pentathlon action kinds.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.cli_args import file_path, print_error, whole_number
from firmware_py.user_files import MAX_BOARD, MAX_LOG, UserFileError, read_limited_text
from rules.errors import InvalidInput, RuleError
from rules.pentathlon.catalogue import Game
from rules.pentathlon.dice import DEFAULT_SIDES, check_roll, check_sides, parse_numbers
from rules.pentathlon.juggle_board import Contact, cell_name, check_board, parse_board
from rules.pentathlon.players import Player
from rules.pentathlon.reach import reach
from rules.pentathlon.results import How, Result
from rules.pentathlon.sentences import check_sentence, show
from rules.pentathlon.strips import DEFAULT_PARTITIONS, judge_trick

HOLDS, FAILS, BAD_INPUT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Answer:
    code: int
    text: str
    data: dict[str, Any]


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``pentathlon`` and its sub-commands; ``args.run_command`` carries one out."""
    pentathlon = commands.add_parser("pentathlon", help="Mathematics Pentathlon: judge a claim")
    pentathlon.set_defaults(run_command=run)
    sub = pentathlon.add_subparsers(
        dest="pentathlon_command", required=True, parser_class=type(pentathlon)
    )

    sentence = sub.add_parser("sentence", help="is a Contig 60 number sentence correct?")
    sentence.add_argument("sentence", help='e.g. "3 + 5 = 8 and 8 x 4 = 32"')
    _dice_options(sentence)
    sentence.add_argument("--target", type=whole_number, help="the number the sentence should make")

    reach_cmd = sub.add_parser("reach", help="every number a roll can make")
    _dice_options(reach_cmd)
    reach_cmd.add_argument(
        "--target", type=whole_number, help="only this number: can the roll make it?"
    )

    trick = sub.add_parser("trick", help="is this a Fab-a-Diffy trick?")
    trick.add_argument("--show", required=True, help="the Show Box strip, e.g. 1/2")
    trick.add_argument("first", help="one strip, e.g. 1/3")
    trick.add_argument("second", help="the other strip, e.g. 1/6")
    trick.add_argument("--partitions", default=_joined(DEFAULT_PARTITIONS), help="(2,3,4,6,12)")
    _add_json(trick)

    board = sub.add_parser("juggle-board", help="check a Juggle board typed as text")
    board.add_argument("path", type=file_path, help="the board file (format: docs/pentathlon.md)")
    _add_json(board)

    adjudicate = sub.add_parser("adjudicate", help="the time-limit adjudication of a game")
    adjudicate.add_argument("--game", required=True, help=", ".join(game.value for game in Game))
    adjudicate.add_argument("--scores", help="running scores A,B (contig-60, stars-bars)")
    adjudicate.add_argument("--empty", help="empty spaces A,B after the count (juggle)")
    adjudicate.add_argument("--games", help="finished games, e.g. A,tie (fab-a-diffy)")
    adjudicate.add_argument("--tricks", help="tricks A,B in the unfinished game (fab-a-diffy)")
    adjudicate.add_argument(
        "--round-complete", action="store_true", help="the round is complete (round games)"
    )
    _add_json(adjudicate)

    replay = sub.add_parser("replay", help="replay a Pentathlon log: print its record (JSON)")
    replay.add_argument("log", type=file_path)
    _add_json(replay)  # the record is always JSON; accepted for uniformity

    card = sub.add_parser(
        "card", help="a game's printable score card (HTML), from a journal or log"
    )
    card.add_argument("source", type=file_path, help="the table's journal, or a game's log")
    card.add_argument(
        "--session",
        type=whole_number,
        help="the journal's session (game) number; default: the last",
    )
    card.add_argument("-o", "--out", type=file_path, help="write the card here (default: stdout)")
    card.add_argument("--force", action="store_true", help="replace --out if it exists")
    card.add_argument("--names", help="the players' names, A's then B's: 'Ann Lee,Ben Cho'")
    card.add_argument(
        "--event",
        default="",
        help="the event's name, as printed on the card; with --day, the day's event (its "
        "short name), whose record and name are used",
    )
    card.add_argument(
        "--date", default="", help="the date played, e.g. 2026-11-26 (default: the journal's)"
    )
    card.add_argument("--division", default="", help="the division (I to V)")
    card.add_argument("--round", type=whole_number, dest="round_number", help="the round")
    card.add_argument("--table", type=whole_number, help="the table")
    card.add_argument("--monitor", default="", help="the Game Monitor's name")
    record = card.add_mutually_exclusive_group()
    record.add_argument(
        "--db", type=file_path, help="the tournament record: names and division of the seat"
    )
    record.add_argument(
        "--day", type=file_path, help="a day of several events: its --event's record (R1130)"
    )
    card.add_argument(
        "--layout", default="pages", help="pages (a card a page) or halves (one page, cut)"
    )
    _add_json(card)


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="answer with one JSON object")


def _dice_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", required=True, help="the roll, e.g. 3,5,4")
    parser.add_argument("--sides", default=_joined(DEFAULT_SIDES), help="the dice (6,6,6)")
    parser.add_argument(
        "--fractions", action="store_true", help="allow fractional steps (ruling R202)"
    )
    _add_json(parser)


def _joined(numbers: tuple[int, ...]) -> str:
    return ",".join(map(str, numbers))


def run(args: argparse.Namespace) -> int:
    try:
        answer = _COMMANDS[args.pentathlon_command](args)
    except RuleError as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read {error.filename}: {error.strerror}")
    except UnicodeDecodeError:
        return _fail("cannot read the file: expected UTF-8 text")
    print(json.dumps(answer.data) if args.json else answer.text)
    return answer.code


def _read(path: Path, limit: int, holding: str) -> str:
    try:
        return read_limited_text(path, limit, holding)
    except UserFileError as error:
        raise InvalidInput(str(error)) from None


def _fail(message: str) -> int:
    print_error(message)
    return BAD_INPUT


# -- Contig 60 ----------------------------------------------------------------------------


def _roll(args: argparse.Namespace) -> tuple[int, ...]:
    sides = check_sides(parse_numbers(args.sides, "--sides"))
    return check_roll(parse_numbers(args.dice, "--dice"), sides)


def _sentence(args: argparse.Namespace) -> Answer:
    dice = _roll(args)
    verdict = check_sentence(args.sentence, dice, fractions=args.fractions, target=args.target)
    value = None if verdict.value is None else show(verdict.value)
    data = {
        "correct": verdict.correct,
        "value": value,
        "dice": list(dice),
        "target": args.target,
        "sentence": verdict.sentence,
        "steps": [
            {
                "step": step.text,
                "value": None if step.value is None else show(step.value),
                "stated": step.stated,
            }
            for step in verdict.steps
        ],
        "problems": list(verdict.problems),
    }
    if verdict.correct:
        return Answer(HOLDS, f"correct: {verdict.sentence} makes {value}", data)
    return Answer(FAILS, "incorrect: " + "; ".join(verdict.problems), data)


def _reach(args: argparse.Namespace) -> Answer:
    dice = _roll(args)
    numbers = reach(dice, fractions=args.fractions)
    roll = ", ".join(map(str, dice))
    if args.target is not None:
        sentence = numbers.get(args.target)
        data = {"dice": list(dice), "target": args.target, "sentence": sentence}
        if sentence is None:
            return Answer(FAILS, f"{roll} cannot make {args.target}", data)
        return Answer(HOLDS, f"{args.target}: {sentence}", data)
    data = {"dice": list(dice), "numbers": list(numbers), "sentences": numbers}
    listed = ", ".join(map(str, numbers))
    return Answer(HOLDS, f"{roll} make {len(numbers)} numbers: {listed}", data)


# -- Fab-a-Diffy and Juggle ---------------------------------------------------------------------


def _trick(args: argparse.Namespace) -> Answer:
    partitions = parse_numbers(args.partitions, "--partitions")
    verdict = judge_trick(args.show, args.first, args.second, partitions)
    data = {
        "trick": verdict.trick,
        "sentence": verdict.sentence,
        "problems": list(verdict.problems),
    }
    if verdict.trick:
        return Answer(HOLDS, f"trick: {verdict.sentence}", data)
    return Answer(FAILS, "no trick: " + "; ".join(verdict.problems), data)


def _contact_text(contact: Contact) -> str:
    where = ", ".join(f"{cell_name(a)}/{cell_name(b)} ({how})" for a, b, how in contact.where)
    return f"{contact.first} and {contact.second} ({contact.colour}) touch at {where}"


def _juggle_board(args: argparse.Namespace) -> Answer:
    board = parse_board(_read(args.path, MAX_BOARD, "a Juggle board"))
    check = check_board(board)
    data = {
        "goal": check.goal,
        "rows": board.rows,
        "columns": board.columns,
        "covered": check.covered,
        "empty": [cell_name(cell) for cell in check.empty],
        "overlaps": [
            {"space": cell_name(cell), "pieces": list(pieces)} for cell, pieces in check.overlaps
        ],
        "touching": [
            {
                "pieces": [contact.first, contact.second],
                "colour": contact.colour,
                "where": [
                    {"spaces": [cell_name(a), cell_name(b)], "how": how}
                    for a, b, how in contact.where
                ],
            }
            for contact in check.touching
        ],
        "removed_at_count": list(check.removed),
        "empty_after_removal": check.empty_after_removal,
    }
    if check.goal:
        return Answer(HOLDS, "goal: covered, no overlaps, no pieces of one colour touching", data)
    problems = []
    if check.empty:
        spaces = ", ".join(cell_name(cell) for cell in check.empty)
        problems.append(f"{len(check.empty)} empty space(s): {spaces}")
    problems += [
        f"{' and '.join(pieces)} overlap at {cell_name(cell)}" for cell, pieces in check.overlaps
    ]
    problems += [_contact_text(contact) for contact in check.touching]
    count = f"empty spaces at a count (touching pieces removed): {check.empty_after_removal}"
    return Answer(FAILS, "not the goal: " + "; ".join(problems) + f". {count}", data)


# -- adjudication at the time limit ---------------------------------------------------------

_OPTIONS = {
    Game.CONTIG_60: {"scores"},
    Game.STARS_AND_BARS: {"scores", "round_complete"},
    Game.JUGGLE: {"empty", "round_complete"},
    Game.FAB_A_DIFFY: {"games", "tricks"},
    Game.QUEENS_AND_GUARDS: set(),
}


def _adjudicate(args: argparse.Namespace) -> Answer:
    game = Game.parse(args.game)
    given = {
        name
        for name in ("scores", "empty", "games", "tricks", "round_complete")
        if getattr(args, name) not in (None, False)
    }
    extra = sorted(given - _OPTIONS[game])
    if extra:
        raise InvalidInput(f"--{extra[0].replace('_', '-')} does not apply to {game.value}")
    if game in (Game.STARS_AND_BARS, Game.JUGGLE) and not args.round_complete:
        data = {"game": game.value, "decided": False, "result": None}
        text = (
            f"not yet: {game.value} is a round game: time is adjudicated once the round is complete"
        )
        return Answer(FAILS, text, data)
    result = _time_limit(game, args)
    data = {
        "game": game.value,
        "decided": True,
        "result": {
            "winner": result.winner.value if result.winner else None,
            "how": result.how.value,
            "detail": result.detail,
        },
    }
    verdict = f"{result.winner} wins" if result.winner else "tie"
    return Answer(HOLDS, f"{verdict}: {result.detail}", data)


def _pair(text: str | None, option: str, *, negative: bool = False) -> tuple[int, int]:
    if text is None:
        raise InvalidInput(f"{option} is needed: A's and B's, e.g. 120,104")
    values = parse_numbers(text, option)
    if len(values) != 2:
        raise InvalidInput(f"{option} {text}: expected two numbers, A's then B's")
    if not negative and min(values) < 0:
        raise InvalidInput(f"{option} {text}: expected numbers of 0 or more")
    return values[0], values[1]


def _time_limit(game: Game, args: argparse.Namespace) -> Result:
    from rules.pentathlon import contig, fab_a_diffy, juggle, stars_bars

    if game is Game.CONTIG_60:
        scores = _pair(args.scores, "--scores", negative=True)  # 0 or less is a Contig score
        if max(scores) > contig.START_SCORE:
            raise InvalidInput(
                f"--scores {args.scores}: a Contig 60 running score starts at "
                f"{contig.START_SCORE} and only goes down"
            )
        return contig.adjudicate(scores, How.TIME_LIMIT, "time limit")
    if game is Game.STARS_AND_BARS:
        return stars_bars.time_limit_award(_pair(args.scores, "--scores"))
    if game is Game.JUGGLE:
        return juggle.count_result(_pair(args.empty, "--empty"))
    if game is Game.FAB_A_DIFFY:
        return fab_a_diffy.timed_overall(_fab_games(args.games, args.tricks))
    return Result(None, How.TIME_LIMIT, "time limit: neither player has won")


def _fab_games(games_text: str | None, tricks_text: str | None) -> tuple[Player | None, ...]:
    from rules.pentathlon import fab_a_diffy

    games = tuple(_fab_game(item) for item in games_text.split(",")) if games_text else ()
    try:
        fab_a_diffy.check_games(games)
    except InvalidInput as error:
        raise InvalidInput(f"--{error}") from None
    if tricks_text is None:
        return games
    if fab_a_diffy.decided(games):
        raise InvalidInput(f"--games {games_text} decides the match: no game is in progress")
    return (*games, fab_a_diffy.game_winner(_pair(tricks_text, "--tricks")))


def _fab_game(text: str) -> Player | None:
    if text.strip().lower() == "tie":
        return None
    try:
        return Player.parse(text)
    except InvalidInput:
        raise InvalidInput(f"--games: {text.strip()!r}: expected A, B or tie per game") from None


def _card(args: argparse.Namespace) -> Answer:
    from firmware_py.families.pentathlon.card import card_html
    from firmware_py.judge.pentathlon_source import (
        card_heading,
        card_layout,
        game_record,
        names,
        seat_of,
        write_card,
    )

    if args.force and args.out is None:
        raise InvalidInput("--force replaces the --out file: give --out too")
    if args.day is not None:
        from firmware_py.director.record.day import day_event

        event = day_event(args.day, args.event)  # R1130: its record, and its name printed
        args = argparse.Namespace(**{**vars(args), "db": event.record, "event": event.name})
    layout = card_layout(args.layout)
    players = names(args.names)
    source = game_record(args.source, args.session)
    data = source.record
    division, points = args.division, None
    if args.db is not None:
        if args.names is not None:
            raise InvalidInput("--names with --db: the names are the tournament record's seat's")
        players, division, points = seat_of(args.db, args.round_number, args.table, data["game"])
    heading = card_heading(args, division, source.played)
    text = card_html(data, names=players, heading=heading, layout=layout, points=points)
    if args.out is None:
        return Answer(HOLDS, text.rstrip("\n"), {"record": data, "html": text})
    write_card(args.out, text, force=args.force)
    return Answer(HOLDS, f"wrote {args.out}", {"record": data, "out": str(args.out)})


def _replay(args: argparse.Namespace) -> Answer:
    from rules.pentathlon.log import replay_log
    from rules.pentathlon.record import record

    data = record(replay_log(_read(args.log, MAX_LOG, "a game's log").splitlines()))
    return Answer(HOLDS, json.dumps(data), data)


_COMMANDS = {
    "sentence": _sentence,
    "reach": _reach,
    "trick": _trick,
    "juggle-board": _juggle_board,
    "adjudicate": _adjudicate,
    "replay": _replay,
    "card": _card,
}
