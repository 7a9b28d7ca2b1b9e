"""The director's page's stylesheet: every block it opens is closed, so a rule meant for the
screen is never swallowed by the ``@media print`` block before it (the staff's login form and
a phone's result versions were print-only while one brace was missing)."""

from __future__ import annotations

import re

from firmware_py.director.hub.page.app import STATIC


def _blocks_left_open(css: str) -> list[int]:
    """The lines of the blocks opened and never closed, outermost first."""
    opened: list[int] = []
    for number, line in enumerate(re.sub(r"/\*.*?\*/", "", css, flags=re.S).splitlines(), 1):
        for character in line:
            if character == "{":
                opened.append(number)
            elif character == "}":
                assert opened, f"page.css line {number}: a block closed that was never opened"
                opened.pop()
    return opened


def test_every_block_of_the_pages_stylesheet_is_closed() -> None:
    assert _blocks_left_open((STATIC / "page.css").read_text(encoding="utf-8")) == []


def test_the_staff_rules_apply_on_the_screen_not_only_in_print() -> None:
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "page.css").read_text(encoding="utf-8"), flags=re.S)
    before_login = css[: css.index("#login-form {")]
    assert before_login.count("{") == before_login.count("}")
