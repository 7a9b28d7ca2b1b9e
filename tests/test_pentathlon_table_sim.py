"""``gametable sim --family pentathlon`` as a person sees it, in tmux at 80x24: the key help
names the flag buttons and challenge inputs, and a challenge input is a button (each press
opens a challenge), not a sensor that toggles."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from firmware_py.table.family import family
from firmware_py.table.sim import help_line
from tests.test_sim_tmux import Tmux


@pytest.fixture
def pentathlon_sim() -> Iterator[Tmux]:
    tmux = Tmux(80, 24, "--family", "pentathlon", "--game", "contig-60")
    try:
        yield tmux
    finally:
        tmux.close()


def test_the_key_help_names_the_pentathlon_s_inputs() -> None:
    line = help_line(("A", "B"), family("pentathlon").words)
    assert "A: a=challenge s=flag" in line
    assert "B: k=challenge l=flag" in line


def test_the_pentathlon_s_inputs_are_buttons_and_geoplunge_s_stand_up_sensor_a_level() -> None:
    assert family("pentathlon").levels == frozenset()
    assert family("geoplunge").levels == frozenset({"stand"})


def test_the_flag_key_passes_the_flag_and_each_challenge_key_press_opens_a_challenge(
    pentathlon_sim: Tmux,
) -> None:
    pentathlon_sim.wait_for("A's die toss")
    assert any("a=challenge s=flag" in line for line in pentathlon_sim.pane())
    pentathlon_sim.run("send-keys", "y")  # A tossed 1
    pentathlon_sim.wait_for("B's die toss")
    pentathlon_sim.run("send-keys", "Space")  # NEXT: B tossed 2
    time.sleep(0.5)
    pentathlon_sim.run("send-keys", "y")
    pentathlon_sim.wait_for("MSG A on turn, round 1")
    pentathlon_sim.run("send-keys", "s")  # A's flag button
    pentathlon_sim.wait_for("MSG B on turn, round 1")
    for _ in range(2):  # a press, UNDO, and a press again
        time.sleep(0.5)  # past the key's hold: a press while the input is still down is no edge
        pentathlon_sim.run("send-keys", "a")
        pentathlon_sim.wait_for("MSG A challenges: rule?")
        pentathlon_sim.run("send-keys", "u")
        pentathlon_sim.wait_for("MSG B on turn, round 1")
