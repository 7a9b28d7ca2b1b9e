"""Hypothesis strategies for any registered action, built from its field annotations."""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from hypothesis import strategies as st

from rules.actions import Action, action_class, known_kinds
from rules.atlas import default_atlas

CODES = default_atlas().codes
# Numbers that matter somewhere in the rules (game numbers, bases, counts, rounds), plus misfits.
NUMBERS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 50, -1)
TEXTS = (*CODES[:12], "Utah", "ABC", "BAC", "CBA", "red", "blue", "Ann", "Bo", "", "XX")


def for_hint(hint: Any) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(for_hint(arg) for arg in args))
    if hint is type(None):
        return st.none()
    if origin is tuple:
        return st.lists(for_hint(args[0]), max_size=9).map(tuple)
    if origin is frozenset:
        return st.frozensets(for_hint(args[0]), max_size=3)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.sampled_from(NUMBERS)
    if hint is float:
        return st.floats(min_value=-1, max_value=100, allow_nan=False)
    if hint is str:
        return st.sampled_from(TEXTS)
    raise TypeError(f"no strategy for {hint!r}")


def for_action(cls: type[Action]) -> st.SearchStrategy[Action]:
    assert dataclasses.is_dataclass(cls)
    hints = typing.get_type_hints(cls)
    fields = {field.name: for_hint(hints[field.name]) for field in dataclasses.fields(cls)}
    return st.builds(cls, **fields)


# Other game families register their actions in the same registry once imported (pytest
# imports every test module first); GeoPlunge's fuzzers draw GeoPlunge's own actions only.
OTHER_FAMILIES = ("pentathlon.",)


def any_action(exclude: tuple[str, ...] = ()) -> st.SearchStrategy[Action]:
    kinds = [k for k in known_kinds() if k not in exclude and not k.startswith(OTHER_FAMILIES)]
    return st.one_of(*(for_action(action_class(kind)) for kind in kinds))
