"""The dealer guide is current; the selftest works; the simulator has a key for every input
(the simulator in a real terminal: test_sim_terminal.py)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image, ImageChops

from drivers.mockpins import mock_factory
from firmware_py.table.selftest import selftest
from firmware_py.table.sim import CONSOLE_KEYS, SEAT_KEYS, help_line, key_map, sim_specs

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def test_dealer_guide_and_its_oled_screenshots_are_current(tmp_path: Path) -> None:
    guide = _load(ROOT / "scripts/make_dealer_guide.py")
    text = guide.build(tmp_path / "dealer-guide")
    assert text == (ROOT / "docs/dealer-guide.md").read_text(), "run scripts/make_dealer_guide.py"
    fresh = sorted((tmp_path / "dealer-guide").glob("*.png"))
    assert fresh, "no screenshots were drawn"
    for image in fresh:
        committed = ROOT / "docs/dealer-guide" / image.name
        a = Image.open(image).convert("RGB")
        b = Image.open(committed).convert("RGB")
        assert ImageChops.difference(a, b).getbbox() is None, f"{image.name} differs"


def test_dealer_guide_covers_every_game() -> None:
    text = (ROOT / "docs/dealer-guide.md").read_text()
    for title in ("Border-Up", "State IQ", "Dashing States", "Play the Ranks", "Chummy"):
        assert "## Game" in text and title in text


def _press_everything(factory_pins: dict[str, object]) -> None:
    time.sleep(0.3)
    for pin in factory_pins.values():
        pin.drive_low()  # type: ignore[attr-defined]
        time.sleep(0.01)
        pin.drive_high()  # type: ignore[attr-defined]


def test_selftest_lights_each_led_and_sees_every_input() -> None:
    factory = mock_factory()
    specs = sim_specs(("A", "B"))
    lines: list[str] = []
    pins = {spec.name: factory.pin(spec.pin) for spec in specs}
    presser = threading.Thread(target=_press_everything, args=(pins,))
    presser.start()
    code = asyncio.run(
        selftest(
            factory=factory,
            specs=specs,
            led_pins={"A": 20, "B": 21},
            oled=None,
            seconds=1.5,
            say=lines.append,
        )
    )
    presser.join()
    assert code == 0
    assert "led A plunging" in lines and "led B standing" in lines
    assert "input console.undo pressed" in lines
    assert lines[-1] == "all inputs seen"


def test_selftest_names_the_inputs_never_pressed() -> None:
    lines: list[str] = []
    code = asyncio.run(
        selftest(
            factory=mock_factory(),
            specs=sim_specs(("A", "B")),
            led_pins={},
            oled=None,
            seconds=0.05,
            say=lines.append,
        )
    )
    assert code == 1
    assert lines[-1].startswith("never pressed: A.stand, A.shout")


def test_every_seat_and_button_has_a_key() -> None:
    keys = key_map(("A", "B"))
    assert set(keys.values()) == {spec.name for spec in sim_specs(("A", "B"))}
    assert "c=COUNT" in help_line(("A", "B"))


@pytest.mark.parametrize("count", range(2, 7))
def test_no_seat_takes_a_console_key_with_any_number_of_seats(count: int) -> None:
    """Issue 19, finding 5: with four seats, seat D's key was the console's NO."""
    seats = tuple("ABCDEF"[:count])
    keys = key_map(seats)
    assert set(keys.values()) == {spec.name for spec in sim_specs(seats)}
    assert keys["n"] == "console.no"
    seat_keys = [key for seat in seats for key in SEAT_KEYS[seat]]
    assert len(set(seat_keys)) == len(seat_keys) and not set(seat_keys) & set(CONSOLE_KEYS)
