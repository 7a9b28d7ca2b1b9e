"""The monitor's docs are the table's: the guide's OLED frames are current, the chapter's config
is a valid config, and every menu entry the table offers is in the chapter."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from PIL import Image, ImageChops

from firmware_py.families.pentathlon.flows.moves import GAME_MOVES, GOAL_LABELS
from firmware_py.families.pentathlon.options import parse_options
from firmware_py.table.config import parse_config
from firmware_py.table.wiring import table_settings
from rules.pentathlon.catalogue import Game

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = (ROOT / "docs/pentathlon.md").read_text(encoding="utf-8")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def test_the_monitor_s_guide_and_its_oled_frames_are_current(tmp_path: Path) -> None:
    guide = _load(ROOT / "scripts/make_pentathlon_guide.py")
    text = guide.build(tmp_path / "pentathlon-guide")
    assert text == (ROOT / "docs/pentathlon-guide.md").read_text(), (
        "run scripts/make_pentathlon_guide.py"
    )
    fresh = sorted((tmp_path / "pentathlon-guide").glob("*.png"))
    assert len(fresh) == len(list((ROOT / "docs/pentathlon-guide").glob("*.png")))
    for image in fresh:
        committed = ROOT / "docs/pentathlon-guide" / image.name
        a = Image.open(image).convert("RGB")
        b = Image.open(committed).convert("RGB")
        assert ImageChops.difference(a, b).getbbox() is None, f"{image.name} differs"


def test_the_chapter_s_config_is_a_valid_pentathlon_config() -> None:
    (block,) = re.findall(r"```toml\n(.*?)```", CHAPTER, re.S)
    options = parse_options(table_settings(parse_config(tomllib.loads(block))).options)
    assert options.game is Game.CONTIG_60
    assert options.minutes[Game.JUGGLE] == 25


def test_every_menu_entry_the_table_offers_is_in_the_chapter() -> None:
    labels = [move.label for moves in GAME_MOVES.values() for move in moves]
    labels += [*GOAL_LABELS.values(), "Award win: A", "Forfeit turn", "Flag passes"]
    missing = [label for label in labels if f"`{label}`" not in CHAPTER]
    assert missing == []


def test_the_table_s_rulings_are_written_down() -> None:
    rulings = (ROOT / "docs/rulings.md").read_text(encoding="utf-8")
    for number in range(250, 260):
        assert f"### R{number}. " in rulings
