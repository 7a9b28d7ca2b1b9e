"""Guesses and answers as exact decimals: read from text, never through a binary float.

"29029", "-89.2" and ".5" are numbers; "29,029", "1e4", "NaN" and "Infinity" are not. A number
has at most ``MAX_DIGITS`` digits before and ``MAX_DIGITS`` after the decimal point, so the
distance between any two is exact in ``_EXACT`` (which traps any rounding rather than hide it).
"""

from __future__ import annotations

import re
from decimal import Context, Decimal, Inexact, InvalidOperation, Overflow, Rounded

from rules.errors import InvalidInput

MAX_DIGITS = 30
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_NOT_FINITE = {"nan", "snan", "inf", "infinity"}
# Two numbers within the limits differ by at most 2 * MAX_DIGITS + 1 significant digits.
_EXACT = Context(prec=2 * MAX_DIGITS + 2, traps=[Inexact, Rounded, InvalidOperation, Overflow])


def parse_number(text: str, what: str) -> Decimal:
    """``text`` as an exact decimal; ``what`` names it in the error ("guess for A")."""
    cleaned = text.strip()
    if cleaned.lstrip("+-").lower() in _NOT_FINITE:
        raise InvalidInput(f"{what} {text!r}: expected a finite number, not NaN or Infinity")
    if not _NUMBER.fullmatch(cleaned):
        raise InvalidInput(
            f"{what} {text!r} is not a number: expected a decimal like 29029 or -3.75 "
            "(no thousands separators)"
        )
    return check_number(Decimal(cleaned), what)


def check_number(value: Decimal, what: str) -> Decimal:
    """``value`` if it is finite and within the digit limits (a deck's TOML numbers come here)."""
    if not value.is_finite():
        raise InvalidInput(f"{what} {value}: expected a finite number, not NaN or Infinity")
    if value.adjusted() >= MAX_DIGITS or int(value.as_tuple().exponent) < -MAX_DIGITS:
        raise InvalidInput(
            f"{what} {number_text(value)}: expected at most {MAX_DIGITS} digits before and "
            f"{MAX_DIGITS} after the decimal point"
        )
    return value


def number_text(value: Decimal) -> str:
    """Plain decimal notation, as ``parse_number`` reads it back: 1E+3 is written 1000."""
    return format(value, "f")


def distance(guess: Decimal, answer: Decimal) -> Decimal:
    """How far ``guess`` is from ``answer``, higher or lower alike, computed exactly."""
    return _EXACT.abs(_EXACT.subtract(guess, answer))
