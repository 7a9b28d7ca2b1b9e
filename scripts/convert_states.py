"""Convert the verified state facts in shared/data/us-states/states.json into rules package data.

Run from the repository root: ``python scripts/convert_states.py [SOURCE] [DEST]``.
Borders become postal codes so the rules core compares codes, never spellings.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared/data/us-states/states.json"
DEFAULT_DEST = Path(__file__).resolve().parents[1] / "rules/data/states.json"


# Where a rulebook prints a card's wording and the merged sources word it differently, the
# card wins (docs/state-data.md): the Utah and Texas cards in the Combo 4 rulebook.
CARD_WORDING: dict[str, dict[str, str]] = {
    "UT": {"state_bird": "Sea Gull"},
    "TX": {"patos": "James Polk", "nickname": "The Lone Star State"},
}


def card_style_president(name: str | None) -> str | None:
    """A PATOS name the way the printed cards write one: first and last name, no middle
    initial ("James Polk", "Grover Cleveland"), so every state's reads alike."""
    if name is None:
        return None
    return " ".join(word for word in name.split() if not re.fullmatch(r"[A-Z]\.", word))


def convert(source: list[dict[str, Any]]) -> list[dict[str, Any]]:
    code_of = {state["name"]: state["postal_code"] for state in source}
    source = [{**state, **CARD_WORDING.get(state["postal_code"], {})} for state in source]
    return [
        {
            "name": state["name"],
            "code": state["postal_code"],
            "capital": state["capital"],
            "statehood_date": state["statehood_date"],
            "statehood_rank": state["statehood_rank"],
            "population_rank": state["population_rank"],
            "size_rank": state["size_rank"],
            "borders": sorted(code_of[name] for name in state["bordering_states"]),
            "water_only_neighbours": sorted(
                code_of[name] for name in state["water_only_neighbors_excluded"]
            ),
            "nicknames": [state["nickname"], *state["nickname_alternates"]],
            "flower": state["state_flower"],
            "bird": state["state_bird"],
            "top_cities": state["top_5_cities"],
            "time_zones": state["time_zones"],
            "patos": card_style_president(state["patos"]),
            "electoral_votes": state["electoral_votes"],
            "census_2000": state["population_2000"],
            "census_2010": state["population_2010"],
        }
        for state in source
    ]


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    dest = Path(argv[2]) if len(argv) > 2 else DEFAULT_DEST
    converted = convert(json.loads(source.read_text(encoding="utf-8")))
    dest.write_text(json.dumps(converted, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(converted)} states to {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
