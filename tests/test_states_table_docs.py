"""The STATES table's docs are the table's: the dealer's guide and its OLED frames are current,
and the chapter's config is a valid STATES config."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from PIL import Image, ImageChops

from firmware_py.table.config import parse_config

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = (ROOT / "docs/states.md").read_text(encoding="utf-8")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def test_the_states_guide_and_its_oled_frames_are_current(tmp_path: Path) -> None:
    guide = _load(ROOT / "scripts/make_states_guide.py")
    text = guide.build(tmp_path / "states-guide")
    assert text == (ROOT / "docs/states-guide.md").read_text(), "run scripts/make_states_guide.py"
    fresh = sorted((tmp_path / "states-guide").glob("*.png"))
    assert len(fresh) == len(list((ROOT / "docs/states-guide").glob("*.png")))
    for image in fresh:
        committed = ROOT / "docs/states-guide" / image.name
        a = Image.open(image).convert("RGB")
        b = Image.open(committed).convert("RGB")
        assert ImageChops.difference(a, b).getbbox() is None, f"{image.name} differs"


def test_the_chapter_s_config_is_a_valid_states_config() -> None:
    (block,) = re.findall(r"```toml\n(\[table\].*?)```", CHAPTER, re.S)
    section = parse_config(tomllib.loads(block)).states
    assert section.teams is True and section.scoring == "alternate"
