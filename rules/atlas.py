"""The 50 states as printed on the GeoPlunge cards, validated on load.

The data is this package's own constant file (provenance: docs/state-data.md); reading it is
the one read the rules core does, once, and it is validated before anything can use it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from rules.errors import InvalidInput, RuleError, UnknownState

STATE_COUNT = 50


class Category(StrEnum):
    """The three ranked categories printed on every GeoPlunge card."""

    SIZE = "size"
    STATEHOOD = "statehood"
    POPULATION = "population"

    @classmethod
    def parse(cls, text: str) -> Category:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidInput(
                f"unknown category {text!r}: expected size, statehood or population"
            ) from None


@dataclass(frozen=True, slots=True)
class StateFacts:
    name: str
    code: str
    capital: str
    statehood_date: date
    statehood_rank: int
    population_rank: int
    size_rank: int
    borders: frozenset[str]
    nicknames: tuple[str, ...]
    flower: str
    bird: str
    top_cities: tuple[str, ...]
    time_zones: tuple[str, ...]
    patos: str | None
    electoral_votes: int
    census_2000: int
    census_2010: int

    def rank(self, category: Category) -> int:
        if category is Category.SIZE:
            return self.size_rank
        if category is Category.STATEHOOD:
            return self.statehood_rank
        return self.population_rank

    @property
    def nickname(self) -> str:
        return self.nicknames[0]


class AtlasDataError(RuleError):
    """The shipped state data is inconsistent (a packaging bug, never a player's mistake)."""


class Atlas:
    """Look-up of states by postal code or name, case-insensitively."""

    def __init__(self, states: Iterable[StateFacts]) -> None:
        self._by_code = {state.code: state for state in states}
        self._by_key = {state.code.lower(): state for state in self._by_code.values()}
        self._by_key.update({state.name.lower(): state for state in self._by_code.values()})
        _validate(self._by_code)

    def __iter__(self) -> Iterator[StateFacts]:
        return iter(self._by_code.values())

    def __len__(self) -> int:
        return len(self._by_code)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(self._by_code)

    def lookup(self, text: str) -> StateFacts:
        key = " ".join(text.split()).lower()
        found = self._by_key.get(key)
        if found is None:
            raise UnknownState(text, self.suggestions(key))
        return found

    def suggestions(self, key: str) -> tuple[str, ...]:
        """Names a person probably meant: those a word or prefix of which was typed ("rhode",
        "carolina", "new"), else the closest spellings ("Kentuky")."""
        names = [state.name for state in self._by_code.values()]
        if len(key) >= 3:
            partial = [
                name
                for name in names
                if name.lower().startswith(key)
                or any(word.startswith(key) for word in name.lower().split())
            ]
            if partial:
                return tuple(partial[:4])
        return tuple(difflib.get_close_matches(key.title(), names, n=3, cutoff=0.6))

    def code(self, text: str) -> str:
        return self.lookup(text).code

    def borders(self, first: str, second: str) -> bool:
        return self.lookup(second).code in self.lookup(first).borders


def _validate(by_code: dict[str, StateFacts]) -> None:
    if len(by_code) != STATE_COUNT:
        raise AtlasDataError(f"state data has {len(by_code)} states, expected {STATE_COUNT}")
    for state in by_code.values():
        for neighbour in state.borders:
            if neighbour not in by_code:
                raise AtlasDataError(f"{state.code} borders unknown state {neighbour}")
            if state.code not in by_code[neighbour].borders:
                raise AtlasDataError(f"borders not symmetric: {state.code}-{neighbour}")
    for category in Category:
        ranks = sorted(state.rank(category) for state in by_code.values())
        if ranks != list(range(1, STATE_COUNT + 1)):
            raise AtlasDataError(f"{category} ranks are not a permutation of 1..{STATE_COUNT}")


def _facts(raw: dict[str, Any]) -> StateFacts:
    return StateFacts(
        name=raw["name"],
        code=raw["code"],
        capital=raw["capital"],
        statehood_date=date.fromisoformat(raw["statehood_date"]),
        statehood_rank=raw["statehood_rank"],
        population_rank=raw["population_rank"],
        size_rank=raw["size_rank"],
        borders=frozenset(raw["borders"]),
        nicknames=tuple(raw["nicknames"]),
        flower=raw["flower"],
        bird=raw["bird"],
        top_cities=tuple(raw["top_cities"]),
        time_zones=tuple(raw["time_zones"]),
        patos=raw["patos"],
        electoral_votes=raw["electoral_votes"],
        census_2000=raw["census_2000"],
        census_2010=raw["census_2010"],
    )


def atlas_from_records(records: Iterable[dict[str, Any]]) -> Atlas:
    return Atlas(_facts(raw) for raw in records)


@cache
def default_atlas() -> Atlas:
    text = resources.files("rules").joinpath("data/states.json").read_text(encoding="utf-8")
    return atlas_from_records(json.loads(text))


def parse_cards(text: str | Iterable[str], atlas: Atlas | None = None) -> tuple[str, ...]:
    """Turn ``"KS, mo,Kentucky"`` (or a list) into postal codes, refusing repeats."""
    atlas = atlas or default_atlas()
    items = text.split(",") if isinstance(text, str) else list(text)
    if any(not item.strip() for item in items):
        raise InvalidInput(f"{text!r}: expected a comma list of states with no empty item")
    codes = tuple(atlas.code(item) for item in items)
    seen: set[str] = set()
    for code in codes:
        if code in seen:
            raise InvalidInput(f"card {code} is used more than once: each card can be used once")
        seen.add(code)
    return codes
