"""Teams' short names: what a table's OLED shows when two full names do not fit one row.

A short name is given at registration (a school's code, the ``short`` column of the teams CSV)
or derived here from the team's name (R830). Every short name is unique within the tournament,
compared without case, so the two teams at a table are always told apart (R831).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from rules.errors import InvalidInput

# Two short names and " v " fill the OLED's 21-character row: 9 + 3 + 9.
MAX_SHORT = 9
_WORD = re.compile(r"[A-Za-z0-9]+")
_SMALL_WORD = 3  # "of", "and", "the", "de": a lower-case word this short gives no initial


def short_key(short: str) -> str:
    return short.casefold()


def check_short(text: str, where: str) -> str:
    """A given short name: 1 to MAX_SHORT printable ASCII characters (what the OLED's font
    shows), spaces inside only. The caller's empty means "derive it"."""
    short = text.strip()
    expected = f"expected 1 to {MAX_SHORT} letters, digits or signs in plain ASCII"
    if not all(" " <= char <= "~" for char in short):
        raise InvalidInput(f"{where}: short name {short!r}: {expected} (the OLED shows no other)")
    if len(short) > MAX_SHORT:
        raise InvalidInput(f"{where}: short name {short!r} has {len(short)} characters: {expected}")
    return " ".join(short.split())


def derive_short(name: str, position: int) -> str:
    """A team's short name from its full name (R830), before it is made unique: the name
    itself when it fits; else its words run together when they fit; else its first word cut
    to leave room for the initial of each further word (a number kept whole, a short
    lower-case word such as "of" left out). A name with no ASCII letter or digit is
    ``Team`` and its place in the entry list."""
    folded = _ascii(name)
    if 0 < len(folded) <= MAX_SHORT:
        return folded
    words: list[str] = _WORD.findall(folded.replace("'", ""))
    if not words:
        return f"Team{position}"[:MAX_SHORT]
    if len("".join(words)) <= MAX_SHORT:
        return "".join(words)
    head, rest = words[0], words[1:]
    tail = "".join(
        word if word.isdigit() else word[0]
        for word in rest
        if not (word.islower() and len(word) <= _SMALL_WORD)
    )
    if len(tail) >= MAX_SHORT:
        return (head[0] + tail)[:MAX_SHORT]
    return head[: MAX_SHORT - len(tail)] + tail


def short_names(names: Sequence[str], given: Sequence[str]) -> tuple[str, ...]:
    """Every team's short name, in the order of ``names``: its given one (``given[i]``, ""
    for none) or one derived (R830), each unique within the tournament (R831). Derived names
    that would be alike, or alike a given one, are each numbered from 1 in entry order
    (``LincolnH1``, ``LincolnH2``), cut to leave room for the number."""
    if len(names) != len(given):
        raise ValueError("a given short name (or none) for every team")
    taken: dict[str, str] = {}
    for name, short in zip(names, given, strict=True):
        if not short:
            continue
        key = short_key(short)
        if key in taken:
            raise InvalidInput(
                f"short name {short!r} is given to {taken[key]!r} and {name!r}: "
                "expected every short name once"
            )
        taken[key] = name
    derived = [
        derive_short(name, position) if not short else ""
        for position, (name, short) in enumerate(zip(names, given, strict=True), start=1)
    ]
    alike = Counter(short_key(short) for short in derived if short)
    contested = {key for key, count in alike.items() if count > 1 or key in taken}
    for name, short in zip(names, derived, strict=True):
        if short and short_key(short) not in contested:
            taken[short_key(short)] = name
    shorts: list[str] = []
    for name, mine, short in zip(names, given, derived, strict=True):
        if mine:
            shorts.append(mine)
        elif short_key(short) not in contested:
            shorts.append(short)
        else:
            numbered = _numbered(short, taken)
            taken[short_key(numbered)] = name
            shorts.append(numbered)
    return tuple(shorts)


def _numbered(short: str, taken: dict[str, str]) -> str:
    number = 1
    while True:
        suffix = str(number)
        candidate = short[: MAX_SHORT - len(suffix)].rstrip() + suffix
        if short_key(candidate) not in taken:
            return candidate
        number += 1


def _ascii(name: str) -> str:
    """The name in the OLED's plain ASCII: accents dropped (École -> Ecole), any other
    character left out, spaces made one."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(char for char in decomposed if " " <= char <= "~")
    return " ".join(plain.split())
