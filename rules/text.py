"""What is wrong with a text a person typed, in words they can act on: the character at fault
by its code point and Unicode name ("U+200D ZERO WIDTH JOINER"), not only "not printable"."""

from __future__ import annotations

import unicodedata


def character(char: str) -> str:
    """``char`` as the Unicode standard names it: ``U+200D ZERO WIDTH JOINER``; a control
    character, which has no name, by its code point and kind: ``U+0007 (a control character)``."""
    name = unicodedata.name(char, "")
    if name:
        return f"U+{ord(char):04X} {name}"
    return f"U+{ord(char):04X} (a {_KINDS.get(unicodedata.category(char), 'unnamed')} character)"


_KINDS = {
    "Cc": "control",
    "Cf": "format",
    "Cs": "surrogate",
    "Co": "private-use",
    "Cn": "unassigned",
}


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that is not printable, named (``character``), or None."""
    for char in text:
        if not char.isprintable():
            return character(char)
    return None
