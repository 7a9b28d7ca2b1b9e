"""The GeoPlunge table's options: the format, the round, the clock, one game on its own.

Options are plain JSON in the table's settings (and so in its journal); ``parse_options``
checks them and names the option at fault (``FamilyOptionsError``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.family import FamilyOptionsError, Options
from rules.geoplunge.match import TimeUpRule
from rules.geoplunge.match3 import ROUNDS as COMBO3_ROUNDS

KERNEL_FIELDS = ("seats", "tie_window", "settle", "debounce", "count_cadence")
COMBO4_LAST_ROUND = 99  # the config's limit: a Combo 4 tournament may have any number of rounds


class Format(StrEnum):
    COMBO4 = "combo4"  # Level 4 matches: odd rounds All, even rounds Call
    COMBO3 = "combo3"  # Level 3 matches: rounds 1-4 morning, 5-8 afternoon
    CHAMPIONSHIP = "championship"  # the Combo 3 final: games won, no clock, no round

    @property
    def level(self) -> int:
        return 4 if self is Format.COMBO4 else 3

    @property
    def last_round(self) -> int | None:
        """The highest round of the format; None: it has no rounds."""
        return {Format.COMBO4: COMBO4_LAST_ROUND, Format.COMBO3: COMBO3_ROUNDS}.get(self)


@dataclass(frozen=True, slots=True)
class GeoPlungeOptions:
    format: Format = Format.COMBO4
    round: int | None = None  # the first match's round; None: round 1 (the championship: none)
    minutes: int | None = None  # the match clock; None: the round's (Combo 3: 20 or 12)
    on_time_up: TimeUpRule = TimeUpRule.ABANDON
    game: int | None = None  # practice: one game on its own, at the format's level, no clock
    chummy_seconds: float = 15.0
    ptr_early_end: bool = True  # Level 3 Play the Ranks ends at 6 tricks (R68); False: all 8

    @property
    def level(self) -> int:
        return self.format.level

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "round": self.round,
            "minutes": self.minutes,
            "on_time_up": self.on_time_up.value,
            "game": self.game,
            "chummy_seconds": self.chummy_seconds,
            "ptr_early_end": self.ptr_early_end,
        }


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(options: Options, name: str, low: int, high: int, what: str = "") -> int | None:
    value = options.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FamilyOptionsError(
            name, f"expected a whole number from {low} to {high}{what}, got {_shown(value)}"
        )
    return value


def _format(options: Options) -> Format:
    try:
        return Format(options.get("format", Format.COMBO4.value))
    except (ValueError, TypeError):
        expected = ", ".join(f.value for f in Format)
        got = _shown(options["format"])
        raise FamilyOptionsError("format", f"expected one of {expected}, got {got}") from None


def _not_in_championship(options: Options, name: str, why: str) -> None:
    if options.get(name) is not None:
        raise FamilyOptionsError(name, f"expected none (the championship match has {why})")


def parse_options(options: Options) -> GeoPlungeOptions:
    """The family's options from plain JSON; FamilyOptionsError names the option at fault."""
    names = GeoPlungeOptions().to_json()
    for name in options:
        if name not in names:
            raise FamilyOptionsError(name, f"unknown (expected {', '.join(names)})")
    form = _format(options)
    try:
        on_time_up = TimeUpRule(options.get("on_time_up", TimeUpRule.ABANDON.value))
    except (ValueError, TypeError):
        choices = ", ".join(rule.value for rule in TimeUpRule)
        got = _shown(options["on_time_up"])
        raise FamilyOptionsError("on_time_up", f"expected one of {choices}, got {got}") from None
    chummy = options.get("chummy_seconds", 15.0)
    if isinstance(chummy, bool) or not isinstance(chummy, int | float) or not 1 <= chummy <= 120:
        raise FamilyOptionsError(
            "chummy_seconds", f"expected a number from 1 to 120, got {_shown(chummy)}"
        )
    early_end = options.get("ptr_early_end", True)
    if not isinstance(early_end, bool):
        got = _shown(early_end)
        raise FamilyOptionsError("ptr_early_end", f"expected true or false, got {got}")
    last = form.last_round
    if last is None:
        _not_in_championship(options, "round", "no round")
        _not_in_championship(options, "minutes", "no clock")
    what = " (a Combo 3 round)" if form is Format.COMBO3 else ""
    return GeoPlungeOptions(
        format=form,
        round=None if last is None else _integer(options, "round", 1, last, what),
        minutes=_integer(options, "minutes", 1, 120),
        on_time_up=on_time_up,
        game=_integer(options, "game", 1, 5),
        chummy_seconds=float(chummy),
        ptr_early_end=early_end,
    )


def table_settings(**fields: Any) -> TableSettings:
    """Kernel settings for a GeoPlunge table: kernel fields by name, the rest are options."""
    kernel = {name: fields.pop(name) for name in list(fields) if name in KERNEL_FIELDS}
    return TableSettings(**kernel, family="geoplunge", options=parse_options(fields).to_json())
