"""``gametable``: the command line. Bad input is one line on stderr and exit 2, no traceback."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from firmware_py.cli_args import file_path, print_error, whole_number
from firmware_py.extras import MissingExtra, require
from firmware_py.user_files import MAX_LOG, UserFileError, read_limited_text
from rules.errors import RuleError

if TYPE_CHECKING:
    from firmware_py.judge.geoplunge import Answer

BAD_INPUT = 2
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
NOT_INSTALLED = 1  # a part of gametable this install does not have (firmware_py/extras.py)
GAME_HELP = (
    "GeoPlunge: play one game (1-5), no match; Pentathlon: the game "
    "(contig-60, fab-a-diffy, juggle, queens-guards, stars-bars)"
)


class UsageError(Exception):
    """argparse's complaint, turned into one line."""


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="answer with one JSON object")


# argparse's class is generic only to type checkers.
Commands: TypeAlias = "argparse._SubParsersAction[OneLineParser]"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or only ``command``'s part of it when it is one of ours.

    Each part imports its own modules: ``gametable run`` on a Pi then loads the table and its
    family, not the judges, the tournament record or the hub (the daemon's RSS, issue 18).
    """
    parser = OneLineParser(
        prog="gametable",
        description="academic game tournament tables: GeoPlunge, Mathematics Pentathlon, "
        "Guesstimation",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    parts = [adder for names, adder in PARTS if command is None or command in names]
    for adder in parts or [adder for _, adder in PARTS]:
        adder(commands)
    return parser


def _add_geoplunge_commands(commands: Commands) -> None:
    _add_check_commands(commands)

    solve = commands.add_parser("solve", help="find a winning showing")
    solve_games = solve.add_subparsers(dest="game", required=True, parser_class=OneLineParser)
    solve_bu = solve_games.add_parser("border-up", help="a valid Border-Up showing in a hand")
    solve_bu.add_argument("hand", help="comma list of the hand's cards")
    solve_bu.add_argument("--level", type=whole_number, default=4, help="3 or 4 (default 4)")
    solve_bu.add_argument("--three-o", action="store_true", help="look for a ThreeOPlunge")
    _add_json(solve_bu)

    score = commands.add_parser("score", help="the points for one game")
    score.add_argument("--result", required=True, help="A, B or tie")
    score.add_argument("--bonus", action="store_true")
    score.add_argument("--plunging", help="the teams GeoPlunging, e.g. A,B")
    _add_json(score)

    rotation = commands.add_parser("rotation", help="the game order of a match")
    rotation.add_argument("--round", type=whole_number, required=True, dest="round_number")
    rotation.add_argument(
        "--picks",
        action="append",
        help="Level 4: one team's 2 games, e.g. 3,5; Level 3: one team's game, draw winner first",
    )
    rotation.add_argument(
        "--level", type=whole_number, default=4, help="3 (Combo 3) or 4 (default 4)"
    )
    _add_json(rotation)

    replay = commands.add_parser("replay", help="replay a JSON Lines action log")
    replay.add_argument("log", type=file_path)
    _add_json(replay)  # the answer is always one JSON object; accepted for uniformity

    demo = commands.add_parser("demo", help="replay an example Combo 4 match, narrated")
    demo.add_argument("--log", type=file_path, help="another action log to narrate")
    _add_json(demo)


def _add_guesstimation_commands(commands: Commands) -> None:
    from firmware_py.judge import guesstimation as guesstimation_cli

    guesstimation_cli.add_parser(commands)


def _add_pentathlon_commands(commands: Commands) -> None:
    from firmware_py.judge import pentathlon as pentathlon_cli

    pentathlon_cli.add_parser(commands)


def _add_states_commands(commands: Commands) -> None:
    from firmware_py.judge import states as states_cli

    states_cli.add_parser(commands)


def _add_check_commands(commands: Commands) -> None:
    check = commands.add_parser("check", help="judge a claim at the table")
    claims = check.add_subparsers(dest="claim", required=True, parser_class=OneLineParser)
    border_up = claims.add_parser("border-up", help="are these Border-Up groups winning?")
    border_up.add_argument("groups", nargs="+", metavar="GROUP", help="e.g. KS,MO,KY,WV,PA")
    border_up.add_argument("--level", type=whole_number, default=4, help="3 or 4 (default 4)")
    _add_json(border_up)
    zap = claims.add_parser("zap", help="who wins a Border Zap trick")
    zap.add_argument("lead")
    zap.add_argument("other")
    zap.add_argument(
        "--level", type=whole_number, default=4, help="3 or 4: the same judge (default 4)"
    )
    _add_json(zap)
    trick = claims.add_parser("trick", help="who wins a Play the Ranks trick")
    trick.add_argument("--version", required=True, help="ptr1 or ptr2")
    trick.add_argument("--base", type=whole_number, required=True, help="1, 10, 20, 30 or 50")
    trick.add_argument("--category", required=True, help="size, statehood or population")
    trick.add_argument("--lead", required=True, help="the lead team's state")
    trick.add_argument("--other", required=True, help="the other team's state")
    trick.add_argument("--lead-power", help="category of the lead's Power card")
    trick.add_argument("--other-power", help="category of the other team's Power card")
    trick.add_argument(
        "--other-power-base", type=whole_number, help="left number of that Power card"
    )
    trick.add_argument("--change-base", action="store_true", help='PTR2 "Change the Base"')
    trick.add_argument("--bur", help="the BUR cards, e.g. FL,VA (Level 4 only)")
    trick.add_argument("--level", type=whole_number, default=4, help="3 (no BUR) or 4 (default 4)")
    _add_json(trick)


def _add_tournament_commands(commands: Commands) -> None:
    from firmware_py.director import tournament_cli

    tournament_cli.add_parser(commands)


def _add_day_commands(commands: Commands) -> None:
    from firmware_py.director import day_cli

    day_cli.add_parser(commands)


def _add_hub_commands(commands: Commands) -> None:
    from firmware_py.director.hub import cli as hub_cli

    hub_cli.add_parser(commands)


def _add_table_commands(commands: Commands) -> None:
    from firmware_py import families

    sim = commands.add_parser("sim", help="the table in simulation on fake GPIO (make run)")
    sim.add_argument("--headless", action="store_true", help="no terminal UI: play --script")
    sim.add_argument("--script", type=file_path, help="a timed input script (JSON Lines)")
    sim.add_argument("--config", type=file_path, help="a table config (default: the built-in one)")
    sim.add_argument(
        "--family",
        choices=families.NAMES,
        help="the game family (default: the config's [table] family, geoplunge)",
    )
    sim.add_argument("--game", help=GAME_HELP)
    sim.add_argument(
        "--format",
        choices=("combo4", "combo3", "championship"),
        dest="table_format",
        help="the GeoPlunge format (default: the config's, combo4)",
    )
    sim.add_argument(
        "--round",
        type=whole_number,
        dest="first_round",
        help="the first match's round (combo4 1-99, combo3 1-8; default 1)",
    )
    sim.add_argument(
        "--journal", type=file_path, help="--headless: record to (and resume from) a journal"
    )

    run = commands.add_parser("run", help="run the table on its hardware")
    run.add_argument("--config", type=file_path, required=True)
    run.add_argument("--game", help=GAME_HELP)
    run.add_argument(
        "--journal", type=file_path, help="default: $STATE_DIRECTORY/gametable-journal.db"
    )
    run.add_argument(
        "--new-journal", action="store_true", help="move the journal aside and start a new match"
    )

    journal = commands.add_parser("journal", help="the record of a match")
    journal_commands = journal.add_subparsers(
        dest="journal_command", required=True, parser_class=OneLineParser
    )
    show = journal_commands.add_parser("show", help="print the decisions of a match")
    show.add_argument("path", type=file_path)
    _add_json(show)
    export = journal_commands.add_parser("export", help="a JSON file that gametable replay takes")
    export.add_argument("path", type=file_path)
    export.add_argument("--out", type=file_path, help="write here instead of stdout")
    _add_json(export)  # the export is JSON already

    config = commands.add_parser("config", help="the table's config file")
    config_commands = config.add_subparsers(
        dest="config_command", required=True, parser_class=OneLineParser
    )
    config_check = config_commands.add_parser("check", help="validate a config file")
    config_check.add_argument("path", type=file_path)
    config_wiring = config_commands.add_parser(
        "wiring", help="draw the table's wiring diagram (SVG) from a config file"
    )
    config_wiring.add_argument("path", type=file_path)
    config_wiring.add_argument(
        "-o", "--out", type=file_path, help="the SVG file to write (default: stdout)"
    )

    selftest = commands.add_parser("selftest", help="light each LED, draw, show each button")
    selftest.add_argument("--config", type=file_path)
    selftest.add_argument("--seconds", type=float, default=60.0, help="how long to watch inputs")


def _run(args: argparse.Namespace) -> Answer:
    from firmware_py.judge import geoplunge as judge

    if args.command == "check" and args.claim == "border-up":
        return judge.check_border_up(args.groups, args.level)
    if args.command == "check" and args.claim == "zap":
        return judge.check_zap(args.lead, args.other, args.level)
    if args.command == "check" and args.claim == "trick":
        return judge.check_trick(
            version=args.version,
            base=args.base,
            category=args.category,
            lead=args.lead,
            other=args.other,
            lead_power=args.lead_power,
            other_power=args.other_power,
            other_power_base=args.other_power_base,
            change_base=args.change_base,
            bur=args.bur,
            level=args.level,
        )
    if args.command == "solve":
        return judge.solve_border_up(args.hand, args.level, args.three_o)
    if args.command == "score":
        return judge.score(args.result, args.bonus, args.plunging)
    if args.command == "rotation":
        return judge.rotation(args.round_number, args.picks, args.level)
    raise AssertionError(f"unhandled command {args.command}")


def _table_command(args: argparse.Namespace) -> int:
    from firmware_py.table import commands
    from firmware_py.table.config import check_config_main

    if args.command == "sim":
        return commands.sim(
            config_path=args.config,
            script=args.script,
            game=args.game,
            family=args.family,
            headless=args.headless,
            journal_path=args.journal,
            table_format=args.table_format,
            first_round=args.first_round,
        )
    if args.command == "run":
        return commands.run(
            config_path=args.config,
            game=args.game,
            journal_path=args.journal,
            new_journal=args.new_journal,
        )
    if args.command == "journal":
        return _journal_command(args)
    if args.command == "config" and args.config_command == "wiring":
        from firmware_py.table.wiring_diagram import wiring_main

        return wiring_main(args.path, args.out)
    if args.command == "config":
        return check_config_main(args.path)
    return commands.selftest(config_path=args.config, seconds=args.seconds)


def _journal_command(args: argparse.Namespace) -> int:
    from firmware_py.table import journal_cli
    from firmware_py.table.journal import JournalError

    try:
        if args.journal_command == "show":
            return journal_cli.show(args.path, as_json=args.json)
        return journal_cli.export(args.path, args.out)
    except JournalError as error:
        print_error(error)
        return BAD_INPUT


def _read_lines(path: Path) -> list[str]:
    try:
        return read_limited_text(path, MAX_LOG, "a game's log").splitlines()
    except UserFileError as error:
        raise UsageError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (``gametable demo | head``): not an error worth a traceback.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stop the interpreter's final flush
        return 0
    except KeyboardInterrupt:
        # Ctrl-C before a command's own handling of it (a table starting up): what it had
        # written is as a kill leaves it, which every command survives (docs/durability.md)
        print_error("interrupted (Ctrl-C)")
        return INTERRUPTED


# Each command word with the part of the command line that adds it (build_parser).
PARTS: tuple[tuple[tuple[str, ...], Callable[[Commands], None]], ...] = (
    (("check", "solve", "score", "rotation", "replay", "demo"), _add_geoplunge_commands),
    (("sim", "run", "journal", "config", "selftest"), _add_table_commands),
    (("tournament",), _add_tournament_commands),
    (("day",), _add_day_commands),
    (("hub",), _add_hub_commands),
    (("guesstimation",), _add_guesstimation_commands),
    (("pentathlon",), _add_pentathlon_commands),
    (("states",), _add_states_commands),
)


def _command_named(argv: Sequence[str] | None) -> str | None:
    """The command word of the arguments (the first that is not an option), if any."""
    words = sys.argv[1:] if argv is None else argv
    return next((word for word in words if not word.startswith("-")), None)


def _undecodable(argv: Sequence[str]) -> str | None:
    """The first argument that is not UTF-8 text (the shell passed bytes that are not)."""
    for argument in argv:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            return argument.encode("utf-8", "replace").decode("utf-8")
    return None


def _main(argv: Sequence[str] | None) -> int:
    # the families (and GPIO, the drivers) are imported here, not as this module is: a Ctrl-C
    # while they load is then main's one line, not a traceback (issue 25, finding 7)
    from firmware_py import families

    families.install()
    bad = _undecodable(sys.argv[1:] if argv is None else argv)
    if bad is not None:
        print_error(f"argument {bad!r} is not UTF-8 text")
        return BAD_INPUT
    try:
        args = build_parser(_command_named(argv)).parse_args(argv)
        if "run_command" in args:  # a command family that carries out its own commands
            code: int = args.run_command(args)
            return code
        if args.command in ("tournament", "day", "hub"):
            require("hub", command=args.command)  # the pairings' library (R751)
        if args.command == "day":
            from firmware_py.director import day_cli

            return day_cli.run(args)
        if args.command == "tournament":
            from firmware_py.director import tournament_cli

            return tournament_cli.run(args)
        if args.command == "hub":
            from firmware_py.director.hub import cli as hub_cli

            return hub_cli.run(args)
        if args.command == "guesstimation":
            from firmware_py.judge import guesstimation as guesstimation_cli

            return guesstimation_cli.run(args)
        if args.command == "replay":
            from firmware_py.judge.geoplunge import replay_file

            answer = replay_file(_read_lines(args.log))
            print(json.dumps(answer.data))
            return answer.code
        if args.command in ("sim", "run", "config", "selftest", "journal"):
            return _table_command(args)
        if args.command == "demo":
            from firmware_py.judge.demo import narrate

            return narrate(_read_lines(args.log) if args.log else None, as_json=args.json)
        answer = _run(args)
    except (RuleError, UsageError) as error:
        print_error(error)
        return BAD_INPUT
    except MissingExtra as error:
        print_error(error)
        return NOT_INSTALLED
    print(json.dumps(answer.data) if args.json else answer.text)
    return answer.code


if __name__ == "__main__":
    sys.exit(main())
