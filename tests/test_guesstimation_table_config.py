"""Setting up a Guesstimation table for ``gametable run``: [table] family = "guesstimation" and
the [guesstimation] section (deck, board, players' names, seed), 3 to 6 seats, each error one
line naming the key path; the daemon runs it on fake GPIO and its page names the players."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from drivers.mockpins import mock_factory
from firmware_py.families.guesstimation import options as family_options
from firmware_py.families.guesstimation.options import parse_options
from firmware_py.table import config as table_config
from firmware_py.table.config import ConfigError, parse_config
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.family import FamilyOptionsError
from firmware_py.table.journal import Journal
from firmware_py.table.wiring import input_specs, led_pins, table_settings
from rules.guesstimation.session import MAX_PLAYERS, MIN_PLAYERS
from tests.journal_helpers import assert_one_line_refusal, in_process
from tests.test_web_daemon import MOCK, RUN, _free_port

SHIPPED = Path(__file__).resolve().parent.parent / "config" / "table.toml"
SEAT = "[seats.{0}]\nstand = {{ pin = {1} }}\nshout = {{ pin = {2} }}\nled = {3}\n"
SEATS = "".join(
    SEAT.format(*seat) for seat in (("A", 5, 6, 13), ("B", 19, 26, 12), ("C", 4, 14, 16))
)
GUESSTIMATION = '[table]\nfamily = "guesstimation"\n' + SEATS


def error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(tomllib.loads(text))
    message = str(caught.value)
    assert "\n" not in message
    return message


def options_of(text: str) -> dict[str, Any]:
    return dict(table_settings(parse_config(tomllib.loads(text))).options)


def test_a_guesstimation_table_without_options_takes_the_family_s_defaults() -> None:
    settings = table_settings(parse_config(tomllib.loads(GUESSTIMATION)))
    assert (settings.family, settings.seats, dict(settings.options)) == (
        "guesstimation",
        ("A", "B", "C"),
        {},
    )
    parsed = parse_options(settings.options, settings.seats)
    assert (parsed.players, parsed.deck, parsed.finish) == (("A", "B", "C"), None, 20)


def test_every_guesstimation_key_reaches_the_family() -> None:
    text = GUESSTIMATION + (
        '[guesstimation]\ndeck = "sample"\nfinish = 12\nplayers = ["Ann", "Bo", "Cy"]\n'
        "seed = 2026\n"
    )
    parsed = parse_options(options_of(text), ("A", "B", "C"))
    assert (parsed.players, parsed.finish, parsed.seed) == (("Ann", "Bo", "Cy"), 12, 2026)
    assert parsed.deck is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'deck = "decks/mine.toml"\n',
            'guesstimation.deck: expected "sample" or a deck file\'s absolute path (a TOML '
            'file), got "decks/mine.toml"',
        ),
        (
            "finish = 1\n",
            "guesstimation.finish: expected an integer from 2 to 100 (spaces from Start to "
            "Finish), got 1",
        ),
        (
            'players = "Ann, Bo, Cy"\n',
            "guesstimation.players: expected an array of the players' names, one per seat in "
            'seat order, like ["Ann", "Bo"], got "Ann, Bo, Cy"',
        ),
        (
            'players = ["Ann", "Bo"]\n',
            "guesstimation.players: expected 3 names, one per seat (A, B, C), got 2",
        ),
        ("seed = -1\n", "guesstimation.seed: expected an integer from 0 to "),
        ('units = "metric"\n', "guesstimation.units: unknown key (expected one of deck, "),
    ],
)
def test_a_bad_guesstimation_key_is_named_with_what_was_expected(text: str, message: str) -> None:
    got = error(GUESSTIMATION + "[guesstimation]\n" + text)
    assert got.startswith(message), got


def test_a_guesstimation_section_is_refused_for_another_family() -> None:
    assert error("[guesstimation]\nfinish = 12\n") == (
        'guesstimation: expected none with table.family = "geoplunge" (Guesstimation\'s '
        "options), got a table"
    )


def test_guesstimation_needs_three_seats_at_least() -> None:
    assert error('[table]\nfamily = "guesstimation"\n') == (
        "seats: Guesstimation is played by 3 to 6: expected [seats.A] to [seats.C] at least, "
        "got A, B"
    )


def test_six_seats_are_a_guesstimation_table() -> None:
    six = SEATS + "".join(
        SEAT.format(*seat) for seat in (("D", 7, 8, 9), ("E", 10, 11, 18), ("F", 20, 21, 0))
    )
    text = '[table]\nfamily = "guesstimation"\n[oled]\nenabled = false\n' + six
    assert table_settings(parse_config(tomllib.loads(text))).seats == tuple("ABCDEF")


def test_the_config_knows_the_family_s_ranges() -> None:
    assert table_config.GUESSTIMATION_SEATS == (MIN_PLAYERS, MAX_PLAYERS)
    assert table_config.GUESSTIMATION_SAMPLE == family_options.SAMPLE
    assert table_config.GUESSTIMATION_FINISH == (2, 100)
    with pytest.raises(FamilyOptionsError):
        family_options.parse_options({"finish": 101}, ("A", "B", "C"))


def test_the_shipped_guesstimation_example_is_a_valid_section() -> None:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    start = lines.index("# [guesstimation]")
    example = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        if not line.startswith("#  "):  # the continuation comments
            example.append(line[2:])
    parsed = parse_options(options_of(GUESSTIMATION + "\n".join(example)), ("A", "B", "C"))
    assert (parsed.players, parsed.finish, parsed.seed) == (("Ann", "Bo", "Cy"), 20, 2026)


def _config(tmp_path: Path, section: str, port: int = 8080) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(
        f'[table]\nfamily = "guesstimation"\n{MOCK}{SEATS}[guesstimation]\n{section}'
        f"[web]\nenabled = true\nport = {port}\n"
    )
    return path


def test_a_deck_file_that_cannot_be_read_is_one_line_before_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, 'deck = "/nowhere/deck.toml"\n')
    journal = tmp_path / "journal.db"
    outcome = in_process(capsys, "run", "--config", str(config), "--journal", str(journal))
    assert_one_line_refusal(outcome, names="guesstimation.deck: ")
    assert not journal.exists()


def test_players_the_rules_refuse_are_one_line_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, 'players = ["Ann", "Bo", "Ann"]\n')
    journal = tmp_path / "journal.db"
    outcome = in_process(capsys, "run", "--config", str(config), "--journal", str(journal))
    assert_one_line_refusal(outcome, names="guesstimation.players: player 'Ann' is named twice")
    assert not journal.exists()


def test_the_daemon_runs_the_configured_table_on_fake_gpio(tmp_path: Path) -> None:
    config = parse_config(
        tomllib.loads(GUESSTIMATION + '[guesstimation]\nplayers = ["Ann", "Bo", "Cy"]\n')
    )
    daemon = TableDaemon(
        settings=table_settings(config),
        factory=mock_factory(),
        input_specs=input_specs(config),
        led_pins=led_pins(config),
        on_event=lambda event: None,
    )
    daemon.journal = Journal.open(tmp_path / "journal.db")

    async def scenario() -> list[str]:
        daemon.start_controller(asyncio.get_running_loop().time())
        task = asyncio.create_task(daemon.run())
        while not hasattr(daemon, "leds"):
            await asyncio.sleep(0.01)
        seen = [" ".join(daemon.controller.view().screen.lines)]
        pin = daemon.bank.pin("A.shout")  # Ann's buzzer: her roll for the lead
        pin.drive_low()
        await asyncio.sleep(0.05)
        pin.drive_high()
        await asyncio.sleep(0.05)
        seen.append(" ".join(daemon.controller.view().screen.lines))
        daemon.stop()
        await task
        return seen

    assert asyncio.run(scenario()) == ["Ann rolls for the lead", "Bo rolls for the lead"]


def test_gametable_run_serves_a_guesstimation_table_with_the_players_names(
    tmp_path: Path,
) -> None:
    port = _free_port()
    config = _config(tmp_path, 'deck = "sample"\nplayers = ["Ann", "Bo", "Cy"]\n', port)
    process = subprocess.Popen(
        [*RUN, "--config", str(config), "--journal", str(tmp_path / "journal.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        state = None
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                    state = json.load(r)
                break
            except OSError:
                time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert state is not None and state["family"] == "guesstimation"
    assert state["seats"] == [
        {"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bo"}, {"seat": "C", "name": "Cy"},
    ]  # fmt: skip
    assert process.returncode == 0, err
