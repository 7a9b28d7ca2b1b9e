"""What each kind of step lets the dealer's buttons do: an answer for the buttons that mean
something, nothing for the others; a step never holds fewer options than its kind needs."""

from __future__ import annotations

import pytest

from firmware_py.families.geoplunge.flows.common import plunge_prompt
from firmware_py.table.controller import CONSOLE
from firmware_py.table.prompts import Kind, Outcome, Prompt, choice, confirm, yes_no

YES, NO, OTHER = Outcome("yes"), Outcome("no"), Outcome("other")
ANSWERING = ("yes", "no", "next", "go")  # COUNT and UNDO are the controller's own


def test_yes_no_takes_yes_and_no_and_nothing_else() -> None:
    prompt = yes_no("k", "?", YES, NO)
    answers = {button: prompt.answer(button, 0) for button in ANSWERING}
    assert answers == {"yes": YES, "no": NO, "next": None, "go": None}


def test_confirm_takes_only_yes() -> None:
    prompt = confirm("k", "?", YES)
    answers = {button: prompt.answer(button, 0) for button in ANSWERING}
    assert answers == {"yes": YES, "no": None, "next": None, "go": None}


def test_choice_yes_takes_the_option_shown() -> None:
    prompt = choice("k", "?", [YES, NO, OTHER])
    assert [prompt.answer("yes", cursor) for cursor in range(3)] == [YES, NO, OTHER]


def test_a_choice_cursor_past_the_options_wraps_instead_of_failing() -> None:
    assert choice("k", "?", [YES, NO]).answer("yes", 5) == NO


def test_a_notice_answers_only_the_buttons_it_names() -> None:
    start = Prompt(key="k", kind=Kind.NOTICE, text="?", go=YES)
    between = Prompt(key="k", kind=Kind.NOTICE, text="?", next=NO)
    over = Prompt(key="k", kind=Kind.NOTICE, text="?")
    assert {b: start.answer(b, 0) for b in ANSWERING} == {
        "yes": None, "no": None, "next": None, "go": YES
    }  # fmt: skip
    assert {b: between.answer(b, 0) for b in ANSWERING} == {
        "yes": None, "no": None, "next": NO, "go": None
    }  # fmt: skip
    assert all(over.answer(button, 0) is None for button in CONSOLE)


@pytest.mark.parametrize(
    "prompt",
    [plunge_prompt("k"), Prompt(key="k", kind=Kind.SHOUT, text="?")],
    ids=["count", "shout"],
)
def test_count_and_shout_steps_take_no_answer_from_a_button(prompt: Prompt) -> None:
    assert all(prompt.answer(button, 0) is None for button in CONSOLE)


def test_a_count_step_must_say_what_it_counts() -> None:
    with pytest.raises(ValueError, match="a count step, and only one, has a count"):
        Prompt(key="k", kind=Kind.COUNT, text="?")


@pytest.mark.parametrize(
    ("kind", "options", "wanted"),
    [
        (Kind.CONFIRM, (), r"needs exactly 1 option\(s\), got 0"),
        (Kind.YES_NO, (YES,), r"needs exactly 2 option\(s\), got 1"),
        (Kind.CHOICE, (), r"needs at least 1 option\(s\), got 0"),
        (Kind.NOTICE, (YES,), r"needs exactly 0 option\(s\), got 1"),
    ],
)
def test_a_step_with_the_wrong_number_of_options_cannot_be_made(
    kind: Kind, options: tuple[Outcome, ...], wanted: str
) -> None:
    with pytest.raises(ValueError, match=wanted):
        Prompt(key="k", kind=kind, text="?", options=options)
