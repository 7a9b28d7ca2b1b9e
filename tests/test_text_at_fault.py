"""A name refused for a character says which character (finding 4 of the second attack on
flow 4): "not printable" alone leaves the director guessing at an invisible joiner."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.players import check_name
from rules.text import character, unprintable


def test_a_character_is_named_by_its_code_point_and_unicode_name() -> None:
    assert character("\u200d") == "U+200D ZERO WIDTH JOINER"


def test_a_control_character_without_a_name_is_named_by_its_kind() -> None:
    assert character("\x07") == "U+0007 (a control character)"


def test_the_first_unprintable_character_is_the_one_named() -> None:
    assert unprintable("Ann \U0001f469\u200d\U0001f52c\u202e") == "U+200D ZERO WIDTH JOINER"
    assert unprintable("Ann \U0001f3b2") is None  # an emoji alone is printable


def test_a_player_s_name_refused_names_the_character_at_fault() -> None:
    with pytest.raises(InvalidInput, match=r"U\+200D ZERO WIDTH JOINER is not printable"):
        check_name("Ann\u200dLee")
