"""Serialisable actions: every move a game or match accepts is a frozen dataclass with a kind.

``encode`` turns an action into a JSON-ready dict ``{"action": kind, ...fields}``; ``decode``
turns such a dict back, checking every field against its annotation, so a replay log is plain
JSON Lines and a malformed line is one clear ``InvalidLog`` error.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, ClassVar, TypeVar

from rules.errors import InvalidLog


class Action:
    """Marker base of every action; ``kind`` is its name in logs."""

    kind: ClassVar[str]


ActionT = TypeVar("ActionT", bound=type[Action])
_REGISTRY: dict[str, type[Action]] = {}


def register(kind: str) -> Callable[[ActionT], ActionT]:
    def add(cls: ActionT) -> ActionT:
        if kind in _REGISTRY:
            raise ValueError(f"action kind {kind!r} registered twice")
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"action {kind!r} must be a dataclass")
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls

    return add


def known_kinds() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def action_class(kind: str) -> type[Action]:
    return _REGISTRY[kind]


def _encode_value(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(_encode_value(item) for item in value)
    if isinstance(value, tuple | list):
        return [_encode_value(item) for item in value]
    return value


def encode(action: Action) -> dict[str, Any]:
    assert dataclasses.is_dataclass(action)
    fields = {
        field.name: _encode_value(getattr(action, field.name))
        for field in dataclasses.fields(action)
    }
    return {"action": action.kind, **fields}


def _decode_value(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [arg for arg in args if arg is not type(None)]
        return _decode_value(inner, value, where)
    if origin in (tuple, frozenset):
        if not isinstance(value, list):
            raise InvalidLog(f"{where}: expected a list, got {value!r}")
        item_hint = args[0]
        items = [_decode_value(item_hint, item, f"{where}[{i}]") for i, item in enumerate(value)]
        if origin is frozenset and len(set(items)) != len(items):
            # a set given as a list: a repeat is a mistake, never silently dropped
            repeated = next(value[i] for i, item in enumerate(items) if items.count(item) > 1)
            raise InvalidLog(f"{where}: {repeated!r} is given twice: expected each at most once")
        return tuple(items) if origin is tuple else frozenset(items)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            expected = ", ".join(str(member.value) for member in hint)
            raise InvalidLog(f"{where}: expected one of {expected}, got {value!r}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidLog(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidLog(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidLog(f"{where}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise InvalidLog(f"{where}: expected text, got {value!r}")
        return value
    raise TypeError(f"{where}: unsupported annotation {hint!r}")  # a bug in an action class


def decode(data: Any) -> Action:
    if not isinstance(data, dict):
        raise InvalidLog(f"expected a JSON object with an 'action' key, got {data!r}")
    if "action" not in data:
        raise InvalidLog("expected an 'action' key naming the action")
    kind = data.get("action")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidLog(f"unknown action {kind!r}: expected one of {', '.join(known_kinds())}")
    assert dataclasses.is_dataclass(cls)
    hints = typing.get_type_hints(cls)
    fields = {field.name: field for field in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"action"})
    if unknown:
        raise InvalidLog(f"{kind}: unknown field(s) {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name in data:
            values[name] = _decode_value(hints[name], data[name], f"{kind}.{name}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise InvalidLog(f"{kind}: missing field {name!r}")
    action = cls(**values)
    return typing.cast(Action, action)
