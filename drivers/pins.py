"""Choosing the gpiozero pin factory: by name, loudly, and never a fallback.

The name comes from ``GPIOZERO_PIN_FACTORY`` when it is set, else from the config
(``gpio.pin_factory``): the environment wins over the file, as it does over gpiozero's own
default (R750), so ``GPIOZERO_PIN_FACTORY=mock gametable selftest`` tries an installed table's
wiring on the mock factory. The factory is loaded through gpiozero's entry-point group
``gpiozero_pin_factories`` the way gpiozero loads it. Unlike gpiozero's own default we never
try the next factory when one fails: a table that silently ends up on the wrong factory reads
no buttons at all. ``mock`` is the one exception to the entry point: it gets
:func:`drivers.mockpins.mock_factory`, gpiozero's MockFactory with pins that take explicit
edge times.

Each device also takes its factory explicitly (``pin_factory=``), so gpiozero's class-wide
default, with its fallback chain, is never consulted.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points

from gpiozero.exc import PinUnknownPi  # type: ignore[import-untyped]
from gpiozero.pins import Factory  # type: ignore[import-untyped]

from drivers.mockpins import mock_factory

__all__ = [
    "ENV_VAR",
    "FACTORY_NAMES",
    "SETTLE_MS",
    "FactoryChoice",
    "PinFactoryError",
    "choose_factory",
    "factory_name",
    "make_pin_factory",
]

FACTORY_NAMES = ("lgpio", "rpigpio", "mock")

# How long the shout arbiter waits past the tie window for an edge whose callback is late, by
# factory. lgpio stamps each edge with the kernel's own time and its alert thread hands it over
# within a few ms; RPi.GPIO's callback thread runs later under load (and its ticks are the
# callback's time, so waiting longer past that does not reorder anything); MockFactory calls
# back in the driving thread. ``make bench`` measures the callback delay the loop sees.
SETTLE_MS = {"lgpio": 6.0, "rpigpio": 30.0, "mock": 6.0}

ENTRY_POINT_GROUP = "gpiozero_pin_factories"
ENV_VAR = "GPIOZERO_PIN_FACTORY"
CONFIG_KEY = "gpio.pin_factory"

_NO_FACTORY = (
    "no pin factory: set gpio.pin_factory in the config or GPIOZERO_PIN_FACTORY "
    "(lgpio on a Pi, rpigpio, or mock)"
)


class PinFactoryError(Exception):
    """The pin factory cannot be had; ``str()`` is one line for a person."""


@dataclass(frozen=True, slots=True)
class FactoryChoice:
    """The factory's name as given (None: none given) and where it came from."""

    name: str | None
    source: str  # ENV_VAR, CONFIG_KEY, or "nothing"
    overrides: str | None = None  # the config's name, when the environment's replaced it

    def describe(self) -> str:
        """One line for a person: ``pin factory mock (from GPIOZERO_PIN_FACTORY; ...)``."""
        if self.name is None:
            return "no pin factory named"
        why = f"from {self.source}"
        if self.overrides is not None:
            why += f"; {CONFIG_KEY} {self.overrides!r} is overridden"
        return f"pin factory {self.name} ({why})"


def choose_factory(
    configured: str | None, *, environ: Mapping[str, str] = os.environ
) -> FactoryChoice:
    """``environ["GPIOZERO_PIN_FACTORY"]`` when set (not blank), else the config's name."""
    named = environ.get(ENV_VAR)
    if named is not None and named.strip():
        differs = configured is not None and configured.strip().lower() != named.strip().lower()
        overridden = configured if differs else None
        return FactoryChoice(named, ENV_VAR, overridden)
    if configured is not None:
        return FactoryChoice(configured, CONFIG_KEY)
    return FactoryChoice(None, "nothing")


def factory_name(name: str | None, *, environ: Mapping[str, str] = os.environ) -> str | None:
    """The factory's name as ``make_pin_factory`` would choose it (None: none named)."""
    chosen = choose_factory(name, environ=environ).name
    return chosen.strip().lower() if chosen and chosen.strip() else None


def make_pin_factory(name: str | None, *, environ: Mapping[str, str] = os.environ) -> Factory:
    """The factory ``environ["GPIOZERO_PIN_FACTORY"]`` names, else ``name`` (the config's).

    Raises PinFactoryError when neither names one, the name is not one of FACTORY_NAMES, or
    the factory cannot be imported or initialised on this machine.
    """
    choice = choose_factory(name, environ=environ)
    chosen = choice.name
    if chosen is None or not chosen.strip():
        raise PinFactoryError(_NO_FACTORY)
    # gpiozero matches the name verbatim, then lower-cased; its names are all lower case.
    key = chosen.strip().lower()
    if key not in FACTORY_NAMES:
        raise PinFactoryError(
            f"unknown pin factory {chosen!r} (from {choice.source}): "
            f"expected one of {', '.join(FACTORY_NAMES)}"
        )
    if key == "mock":
        return mock_factory()

    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == key]
    if not found:
        raise PinFactoryError(
            f"pin factory {key!r} is not registered in {ENTRY_POINT_GROUP}: reinstall gpiozero"
        )
    factory = None
    try:
        factory = found[0].load()()
        # RPiGPIOFactory only looks up the board when the first pin is made; ask now so that
        # "not a Pi" fails at start-up, not at the first button.
        factory.board_info  # noqa: B018
    # A factory can fail in its own library's terms (lgpio.error, RuntimeError, OSError...),
    # so everything is caught, reported with its cause, and never replaced by another factory.
    except Exception as exc:
        if factory is not None:
            factory.close()
        raise PinFactoryError(
            f"pin factory {key!r} is not available ({_one_line(exc)}): {_fix(exc)}"
        ) from exc
    return factory


def _fix(exc: Exception) -> str:
    if isinstance(exc, ImportError):
        return "install gametable[pi] on the Pi"
    if isinstance(exc, PinUnknownPi):
        return "this machine is not a Raspberry Pi: use pin factory 'mock' to simulate"
    return "run on a Raspberry Pi as a user in the 'gpio' group"


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
