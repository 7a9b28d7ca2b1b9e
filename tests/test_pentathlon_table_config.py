"""Setting up a Pentathlon table: [table] family and the [pentathlon] section of the config,
the family's options (each error names its option), two seats exactly, and the simulator's
--family and --game (one line, exit 2, for anything wrong)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.pentathlon import options as family_options
from firmware_py.families.pentathlon.options import parse_options
from firmware_py.table import config as table_config
from firmware_py.table.commands import web_page
from firmware_py.table.config import ConfigError, parse_config
from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.wiring import table_settings
from rules.pentathlon.catalogue import Game
from rules.pentathlon.strips import DEFAULT_PARTITIONS
from tests.hub_helpers import free_port
from tests.journal_helpers import assert_one_line_refusal, in_process

SHIPPED = Path(__file__).resolve().parent.parent / "config" / "table.toml"
PENTATHLON = '[table]\nfamily = "pentathlon"\n'


def error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(tomllib.loads(text))
    message = str(caught.value)
    assert "\n" not in message
    return message


def options_of(text: str) -> dict[str, Any]:
    return dict(table_settings(parse_config(tomllib.loads(text))).options)


# --- [table] family ------------------------------------------------------------------------


def test_the_family_defaults_to_geoplunge() -> None:
    assert parse_config({}).table.family == "geoplunge"
    assert table_settings(parse_config({})).family == "geoplunge"


def test_an_unknown_family_is_named_with_the_families() -> None:
    assert error('[table]\nfamily = "chess"\n') == (
        'table.family: expected one of "geoplunge", "pentathlon", "guesstimation", "states", '
        'got "chess"'
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('format = "combo4"\n', "table.format"),
        ("round = 1\n", "table.round"),
        ("match_minutes = 20\n", "table.match_minutes"),
        ('on_time_up = "tie"\n', "table.on_time_up"),
        ("ptr_early_end = true\n", "table.ptr_early_end"),
    ],
)
def test_a_geoplunge_key_is_refused_for_a_pentathlon_table(text: str, key: str) -> None:
    assert error(PENTATHLON + text).startswith(
        f'{key}: expected none with family = "pentathlon" (a GeoPlunge key), got'
    )


def test_the_chummy_timer_is_refused_for_a_pentathlon_table() -> None:
    assert error(PENTATHLON + "[timing]\nchummy_seconds = 15.0\n") == (
        'timing.chummy_seconds: expected none with table.family = "pentathlon" (a GeoPlunge '
        "key), got 15.0"
    )


def test_a_pentathlon_section_is_refused_for_a_geoplunge_table() -> None:
    assert error('[pentathlon]\ngame = "juggle"\n') == (
        'pentathlon: expected none with table.family = "geoplunge" (the Pentathlon\'s '
        "options), got a table"
    )


# --- [pentathlon] ----------------------------------------------------------------------------


def test_a_pentathlon_table_without_options_takes_the_family_s_defaults() -> None:
    settings = table_settings(parse_config(tomllib.loads(PENTATHLON)))
    assert (settings.family, dict(settings.options)) == ("pentathlon", {"minutes": {}})
    # a new table runs the current flow: its journal keeps it (R786)
    fresh = family_options.fresh_options(settings.options)
    assert parse_options(fresh) == family_options.PentathlonOptions()


def test_every_pentathlon_key_reaches_the_family() -> None:
    text = PENTATHLON + (
        '[pentathlon]\ngame = "fab-a-diffy"\nchips = 12\npartitions = [2, 4]\n'
        "turn_seconds = 45\ncapture_seconds = 8.5\n[pentathlon.minutes]\nfab-a-diffy = 40\n"
    )
    parsed = parse_options(options_of(text))
    assert parsed.game is Game.FAB_A_DIFFY
    assert parsed.minutes[Game.FAB_A_DIFFY] == 40
    assert parsed.minutes[Game.JUGGLE] == family_options.DEFAULT_MINUTES
    assert (parsed.chips, parsed.partitions) == (12, (2, 4))
    assert (parsed.turn_seconds, parsed.capture_seconds) == (45.0, 8.5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'game = "chess"\n',
            'pentathlon.game: expected one of "contig-60", "fab-a-diffy", "juggle", '
            '"queens-guards", "stars-bars", got "chess"',
        ),
        ("chips = 4\n", "pentathlon.chips: expected an integer from 5 to 99, got 4"),
        (
            "partitions = [2, 2]\n",
            "pentathlon.partitions: expected an array of different integers from 1 to 99, "
            "like [2, 3, 4, 6, 12], got [2, 2]",
        ),
        (
            "partitions = []\n",
            "pentathlon.partitions: expected an array of different integers from 1 to 99, "
            "like [2, 3, 4, 6, 12], got []",
        ),
        ("turn_seconds = 5\n", "pentathlon.turn_seconds: expected a number from 10 to 600, got 5"),
        (
            "capture_seconds = true\n",
            "pentathlon.capture_seconds: expected a number from 1 to 60, got true",
        ),
        (
            "[pentathlon.minutes]\njuggle = 0\n",
            "pentathlon.minutes.juggle: expected an integer from 1 to 180, got 0",
        ),
        (
            "[pentathlon.minutes]\nchess = 10\n",
            "pentathlon.minutes.chess: unknown game (expected one of contig-60, fab-a-diffy, "
            "juggle, queens-guards, stars-bars)",
        ),
        ("colour = 1\n", "pentathlon.colour: unknown key (expected one of game, minutes, chips, "),
    ],
)
def test_a_bad_pentathlon_key_is_named_with_what_was_expected(text: str, message: str) -> None:
    got = error(PENTATHLON + "[pentathlon]\n" + text)
    assert got.startswith(message), got


def test_the_shipped_pentathlon_example_is_a_valid_section() -> None:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    start = lines.index("# [pentathlon]")
    example = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        if not line.startswith("#  "):  # the continuation comments
            example.append(line[2:])
    parsed = parse_options(options_of(PENTATHLON + "\n".join(example)))
    assert parsed.game is Game.CONTIG_60
    assert parsed.minutes[Game.JUGGLE] == 25


def test_the_config_knows_the_family_s_games_and_ranges() -> None:
    assert tuple(game.value for game in Game) == table_config.PENTATHLON_GAMES
    assert table_config.PENTATHLON_MINUTES == family_options.MINUTES_RANGE
    assert table_config.PENTATHLON_CHIPS == family_options.CHIPS_RANGE
    assert table_config.PENTATHLON_TURN_SECONDS == family_options.TURN_RANGE
    assert table_config.PENTATHLON_CAPTURE_SECONDS == family_options.CAPTURE_RANGE


# --- the family's options --------------------------------------------------------------------


def test_the_options_default_to_the_rulings() -> None:
    parsed = parse_options({})
    assert parsed.game is None
    assert set(parsed.minutes.values()) == {30}  # R250
    assert (parsed.chips, parsed.partitions) == (20, DEFAULT_PARTITIONS)  # R251, R210
    assert (parsed.turn_seconds, parsed.capture_seconds) == (60.0, 10.0)


def test_a_game_may_be_named_without_its_hyphens() -> None:
    assert parse_options({"game": "contig60"}).game is Game.CONTIG_60


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"game": 3}, "game"),
        ({"minutes": {"juggle": 200}}, "minutes.juggle"),
        ({"minutes": {"chess": 20}}, "minutes.chess"),
        ({"minutes": [20]}, "minutes"),
        ({"chips": 2.5}, "chips"),
        ({"partitions": [0, 2]}, "partitions"),
        ({"partitions": "2,3"}, "partitions"),
        ({"turn_seconds": "60"}, "turn_seconds"),
        ({"capture_seconds": 0}, "capture_seconds"),
        ({"format": "combo4"}, "format"),
    ],
)
def test_a_bad_option_is_named(options: dict[str, Any], option: str) -> None:
    with pytest.raises(FamilyOptionsError) as raised:
        parse_options(options)
    assert raised.value.option == option
    assert "\n" not in str(raised.value)


def test_the_options_are_written_whole_into_the_start_action() -> None:
    start = parse_options({"chips": 12}).start(Game.CONTIG_60)
    assert (start.minutes, start.chips, start.partitions) == (30, 12, None)
    fab = parse_options({}).start(Game.FAB_A_DIFFY)
    assert fab.partitions == DEFAULT_PARTITIONS


@pytest.mark.parametrize("seats", [("A",), ("A", "B", "C")])
def test_the_pentathlon_is_played_at_two_seats_exactly(seats: tuple[str, ...]) -> None:
    with pytest.raises(FamilyOptionsError) as raised:
        family("pentathlon").game({}, seats)
    assert raised.value.option == "seats"
    assert "played by 2 players at seats A and B" in str(raised.value)


# --- the simulator's flags -------------------------------------------------------------------


def _script(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_sim_family_pentathlon_plays_a_headless_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(
        tmp_path,
        {"t": 1.0, "press": "console.yes"},
        {"t": 1.1, "release": "console.yes"},
        {"t": 2.0, "press": "console.next"},
        {"t": 2.1, "release": "console.next"},
        {"t": 3.0, "press": "console.yes"},
        {"t": 3.1, "release": "console.yes"},
        {"t": 4.0, "press": "console.yes"},
        {"t": 4.1, "release": "console.yes"},
    )
    outcome = in_process(
        capsys, "sim", "--family", "pentathlon", "--headless", "--script", str(script)
    )
    assert outcome.code == 0, outcome
    actions = [json.loads(line) for line in outcome.stdout.splitlines()]
    # the game kept; A tossed 2 (NEXT from 1), B 1: B begins (R788)
    toss = {"t": 4.0, "event": "action", "action": "pentathlon.die_toss", "a": 2, "b": 1}
    assert toss in actions


def test_sim_game_names_the_pentathlon_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(
        capsys,
        "sim",
        "--family",
        "pentathlon",
        "--game",
        "juggle",
        "--headless",
        "--script",
        str(script),
    )
    assert outcome.code == 0


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--family", "pentathlon", "--game", "chess"], "--game: expected one of contig-60"),
        (["--family", "pentathlon", "--format", "combo3"], "--format: not a Pentathlon option"),
        (["--family", "pentathlon", "--round", "2"], "--round: not a Pentathlon option"),
        (["--family", "geoplunge", "--game", "juggle"], "--game: expected a whole number"),
        (["--family", "chess"], "argument --family: invalid choice: 'chess'"),
    ],
)
def test_a_bad_sim_flag_is_one_line(
    argv: list[str], names: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(capsys, "sim", *argv, "--headless", "--script", str(script))
    assert_one_line_refusal(outcome, names=names)


def test_a_pentathlon_config_with_three_seats_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = "".join(
        f"[seats.{name}]\nstand = {{ pin = {a} }}\nshout = {{ pin = {b} }}\nled = {c}\n"
        for name, a, b, c in (("A", 5, 6, 13), ("B", 19, 26, 12), ("C", 20, 21, 16))
    )
    config = tmp_path / "table.toml"
    config.write_text(PENTATHLON + seats)
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(
        capsys, "sim", "--config", str(config), "--headless", "--script", str(script)
    )
    assert_one_line_refusal(outcome, names="seats: the Mathematics Pentathlon is played by 2")


def test_the_config_s_pentathlon_section_reaches_the_simulator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        PENTATHLON + '[pentathlon]\ngame = "stars-bars"\n[pentathlon.minutes]\nstars-bars = 17\n'
    )
    script = _script(
        tmp_path,
        {"t": 1.0, "press": "console.yes"},
        {"t": 1.1, "release": "console.yes"},
        {"t": 2.0, "press": "console.yes"},
        {"t": 2.1, "release": "console.yes"},
    )
    outcome = in_process(
        capsys, "sim", "--config", str(config), "--headless", "--script", str(script)
    )
    events = [json.loads(line) for line in outcome.stdout.splitlines()]
    # no game to choose: A draws first, stars on the first draw; the clock is the game's own
    assert {"t": 2.0, "event": "clock", "started": True, "minutes": 17} in events
    star = {"t": 2.0, "event": "action", "action": "pentathlon.star_card", "first": "A", "draw": 1}
    assert star in events


# --- [pentathlon] monitor: the Game Monitor's name on the score card -------------------------


def test_the_game_monitor_s_name_is_read_for_the_score_card() -> None:
    config = parse_config(tomllib.loads(PENTATHLON + '[pentathlon]\nmonitor = " Mo   Reyes "\n'))
    assert config.pentathlon.monitor == "Mo Reyes"


def test_without_a_monitor_key_the_card_s_monitor_line_is_blank() -> None:
    assert parse_config(tomllib.loads(PENTATHLON)).pentathlon.monitor == ""


def test_the_monitor_s_name_is_not_a_game_option() -> None:
    """A new monitor at the table (the config changed) is not a different table: nothing of
    it goes into the journaled settings (R742)."""
    named = options_of(PENTATHLON + '[pentathlon]\nmonitor = "Mo Reyes"\n')
    assert named == options_of(PENTATHLON)


@pytest.mark.parametrize(
    "value",
    ['""', '"   "', "7", '"Mo\\nReyes"', '"Mo\\tReyes"', '"' + "M" * 61 + '"', '["Mo"]'],
)
def test_a_bad_monitor_name_is_named_with_what_was_expected(value: str) -> None:
    got = error(PENTATHLON + f"[pentathlon]\nmonitor = {value}\n")
    assert got.startswith(
        "pentathlon.monitor: expected a non-empty string of at most 60 characters on one line"
    ), got


def test_a_misspelt_monitor_key_is_refused_by_name() -> None:
    got = error(PENTATHLON + '[pentathlon]\nmonitr = "Mo Reyes"\n')
    assert got.startswith("pentathlon.monitr: unknown key"), got
    assert "monitor" in got


def test_the_table_s_page_is_given_the_configured_monitor() -> None:
    web = f'[web]\nenabled = true\nlisten = "127.0.0.1"\nport = {free_port()}\n'
    text = PENTATHLON + web + '[pentathlon]\nmonitor = "Mo Reyes"\n'
    page = web_page(parse_config(tomllib.loads(text)))
    assert page is not None
    try:
        assert page.monitor == "Mo Reyes"
    finally:
        page.sock.close()
