"""The journal's rows: how an entry is written, and how a stored row is checked on the way back.

Each row carries a CRC32 of its canonical JSON (sequence number, kind, controller time, wall
time, body), checked on every read: a flipped byte anywhere in an entry is refused, never shown
(a CRC finds damage, not tampering; replaying the inputs is what guards the decisions). A row
must also have the shape its kind promises, so nothing downstream meets a value it cannot use.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("session", "input", "event")
SESSION_KEYS = {"settings": dict, "boot_id": str, "mono": float, "wall": float}


class BadRow(ValueError):
    """A stored row is not a journal entry; ``str()`` says which and why."""


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    kind: str  # session | input | event
    t: float  # the controller's clock (monotonic seconds)
    wall: str  # when, for people (UTC ISO 8601)
    body: dict[str, Any]


def encode_body(body: Mapping[str, Any]) -> str:
    # no NaN or Infinity: never write what decode_row would refuse
    return json.dumps(body, separators=(",", ":"), allow_nan=False)


def checksum(seq: int, kind: str, t: float, wall: str, body: str) -> int:
    canonical = json.dumps([seq, kind, t, wall, body], ensure_ascii=False, separators=(",", ":"))
    return zlib.crc32(canonical.encode())


def decode_row(row: tuple[object, ...], expected_seq: int) -> Entry:
    """A row as selected by ``ROW_COLUMNS``; the text columns arrive as bytes, so a row that is
    not UTF-8 is refused here rather than by a decoding error somewhere else."""
    seq, kind, t, wall, body, crc = row
    if seq != expected_seq:
        raise BadRow(f"entry {expected_seq} is missing (found {seq!r})")
    where = f"entry {seq}"
    kind_text, wall_text, body_text = (column_text(value, where) for value in (kind, wall, body))
    if not _is_number(t) or type(crc) is not int:
        raise BadRow(f"{where} has a malformed time or checksum")
    assert isinstance(t, float | int)
    if checksum(seq, kind_text, t, wall_text, body_text) != crc:
        raise BadRow(f"{where} does not match its checksum")
    try:
        decoded = json.loads(body_text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadRow(f"{where} is not valid JSON") from None
    if kind_text not in KINDS or not isinstance(decoded, dict):
        raise BadRow(f"{where} is not a session, input or event")
    problem = _SHAPES[kind_text](decoded)
    if problem:
        raise BadRow(f"{where}: {problem}")
    return Entry(seq, kind_text, float(t), wall_text, decoded)


ROW_COLUMNS = "seq, CAST(kind AS BLOB), t, CAST(wall AS BLOB), CAST(body AS BLOB), crc"
# The same columns of the entries table named ``e`` in a join (the outbox's).
ENTRY_COLUMNS = (
    "e.seq, CAST(e.kind AS BLOB), e.t, CAST(e.wall AS BLOB), CAST(e.body AS BLOB), e.crc"
)


def outbox_checksum(seq: int, session: str) -> int:
    """An outbox row's CRC32: its entry has its own; this covers the session beside it."""
    return zlib.crc32(json.dumps([seq, session], separators=(",", ":")).encode())


def carried_checksum(fields: tuple[str, int, int, str, str, str]) -> int:
    """A carried decision's CRC32 (R713): all of it (journal, seq, prev, wall, session,
    event), as it arrived from the journal before."""
    canonical = json.dumps(list(fields), separators=(",", ":"))
    return zlib.crc32(canonical.encode())


def column_text(value: object, where: str) -> str:
    """A text column read as bytes (``CAST(... AS BLOB)``), refused unless it is UTF-8."""
    if not isinstance(value, bytes):
        raise BadRow(f"{where} has a value of the wrong type")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRow(f"{where} is not UTF-8 text") from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def _is_number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]


def _is_names_to(check: Callable[[object], bool], value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and check(item) for key, item in value.items()
    )


def _is_bool(value: object) -> bool:
    return type(value) is bool


# What a Pentathlon seat from the hub says beyond its round and players (R795).
SEAT_DETAILS: dict[str, Callable[[object], bool]] = {
    "table": lambda v: type(v) is int and v >= 1,
    "game": lambda v: isinstance(v, str),
    "division": lambda v: isinstance(v, str),
    "event": lambda v: isinstance(v, str),
    "follows": lambda v: isinstance(v, str),  # the day's event the table followed (R1175)
}


def _is_seat_details(value: object) -> bool:
    return (
        isinstance(value, dict)
        and bool(value)
        and all(key in SEAT_DETAILS and SEAT_DETAILS[key](item) for key, item in value.items())
    )


def _session_problem(body: dict[str, Any]) -> str | None:
    for key, value in body.items():
        expected = SESSION_KEYS.get(key)
        if expected is None:
            return f"unknown session field {key!r}"
        fits = _is_number(value) if expected is float else isinstance(value, expected)
        if not fits:
            return f"session field {key!r} is not a {expected.__name__}"
    return None


# The recorder's inputs, one key each: what the controller saw, with its timestamps.
_INPUTS: dict[str, Callable[[Any], bool]] = {
    "edge": lambda v: (
        isinstance(v, list)
        and len(v) == 4
        and isinstance(v[0], str)
        and _is_number(v[1])
        and _is_bool(v[2])
        and _is_number(v[3])
    ),
    "advance": _is_number,
    "prime": lambda v: _is_names_to(_is_bool, v),
    "resume": lambda v: (
        isinstance(v, dict)
        and v.keys() == {"now", "stopped_at", "elapsed_known"}
        and _is_number(v["now"])
        and _is_number(v["stopped_at"])
        and _is_bool(v["elapsed_known"])
    ),
    "read": lambda v: (
        isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and _is_bool(v[1])
    ),
    "mark": lambda v: type(v) is int and v >= 0,  # a script's step
    # the hub's pairing for this table (R190): when it was handed over, and the round and its
    # teams at A and B, or none
    "pairing": lambda v: (
        isinstance(v, dict)
        and v.keys() == {"now", "match"}
        and _is_number(v["now"])
        and (
            v["match"] is None
            or (
                isinstance(v["match"], list)
                and len(v["match"]) in (3, 4)
                and type(v["match"][0]) is int
                and v["match"][0] >= 1
                and all(isinstance(name, str) for name in v["match"][1:3])
                and (len(v["match"]) == 3 or _is_seat_details(v["match"][3]))
            )
        )
    ),
    # an entry from the table's web page: seat, what, the text typed, when it was handed over
    "entry": lambda v: (
        isinstance(v, list)
        and len(v) == 4
        and all(isinstance(part, str) for part in v[:3])
        and _is_number(v[3])
    ),
}


def _input_problem(body: dict[str, Any]) -> str | None:
    if len(body) != 1:
        return "an input records exactly one thing"
    ((name, value),) = body.items()
    fits = _INPUTS.get(name)
    if fits is None:
        return f"unknown input {name!r}"
    return None if fits(value) else f"malformed {name!r} input"


def _event_problem(body: dict[str, Any]) -> str | None:
    return None if isinstance(body.get("event"), str) else "an event without a name"


_SHAPES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "session": _session_problem,
    "input": _input_problem,
    "event": _event_problem,
}
