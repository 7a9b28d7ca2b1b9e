"""The JSON Lines examples in docs/actions.md, for the tests that replay them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rules.actions import Action, decode, encode

ACTIONS_DOC = Path(__file__).resolve().parents[1] / "docs" / "actions.md"


def documented_game(prefix: str) -> list[Action]:
    """The one example whose actions include ``prefix``, checked to be exactly as encoded."""
    blocks = re.findall(r"```jsonl\n(.*?)```", ACTIONS_DOC.read_text(encoding="utf-8"), re.S)
    (block,) = [block for block in blocks if f'"{prefix}' in block]
    lines = block.strip().splitlines()
    actions = [decode(json.loads(line)) for line in lines]
    assert [json.dumps(encode(action)) for action in actions] == lines
    return actions
