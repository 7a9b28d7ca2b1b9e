"""The question deck: the TOML format, the sample deck, and the actions a card makes."""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.guesstimation.deck import SAMPLE_DECK, load_deck
from rules.errors import InvalidInput
from rules.guesstimation.actions import ReadQuestion, RevealAnswer, UnitSystem
from rules.guesstimation.deck import (
    QUESTIONS_PER_CARD,
    Answer,
    answer_action,
    deck_from_data,
    question_action,
)


def _question(number: int) -> dict[str, Any]:
    return {"text": f"Question {number}?", "answer": str(number), "source": "arithmetic"}


def _deck(**changes: Any) -> dict[str, Any]:
    """One valid card; ``changes`` replace keys of its question 1."""
    questions = [_question(number) for number in range(1, 7)]
    questions[0] = {**questions[0], **changes}
    return {"card": [{"name": "Card 1", "question": questions}]}


def test_the_sample_deck_has_three_cards_of_six_questions_each_with_a_source() -> None:
    deck = load_deck(SAMPLE_DECK)
    assert [len(card.questions) for card in deck.cards] == [6, 6, 6]
    assert all(question.source for card in deck.cards for question in card.questions)


def test_the_sample_deck_answers_are_exact_decimals() -> None:
    light = load_deck(SAMPLE_DECK).cards[0].questions[2]
    assert light.answer == Answer(Decimal("299792.458"), "km/s")


def test_question_4_of_every_card_is_chip_possession() -> None:
    assert all(card.questions[3].chip for card in load_deck(SAMPLE_DECK).cards)


def test_a_card_may_mark_another_chip_possession_question() -> None:
    deck = deck_from_data(_deck(chip=True))
    assert [question.chip for question in deck.cards[0].questions] == [
        True,
        False,
        False,
        True,
        False,
        False,
    ]


def test_question_4_cannot_be_marked_standard() -> None:
    data = _deck()
    data["card"][0]["question"][3]["chip"] = False
    with pytest.raises(InvalidInput, match=r"card\[1\]\.question\[4\]\.chip: question 4 is always"):
        deck_from_data(data)


@pytest.mark.parametrize("count", [5, 7])
def test_a_card_has_exactly_six_questions(count: int) -> None:
    data = _deck()
    data["card"][0]["question"] = [_question(n) for n in range(1, count + 1)]
    with pytest.raises(InvalidInput, match=f"{count} question.*expected {QUESTIONS_PER_CARD}"):
        deck_from_data(data)


def test_an_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput, match=r"card\[1\]\.question\[1\]: unknown key\(s\) anwser"):
        deck_from_data(_deck(anwser="5"))


@pytest.mark.parametrize("answer", ["NaN", "29,032", True, 1.5, None])
def test_an_answer_is_an_exact_finite_number(answer: object) -> None:
    with pytest.raises(InvalidInput, match=r"card\[1\]\.question\[1\]\.answer"):
        deck_from_data(_deck(answer=answer))


def test_a_measured_question_answers_in_both_systems() -> None:
    deck = deck_from_data(
        _deck(answer={"us": "5280", "metric": "1609.344"}, unit={"us": "feet", "metric": "m"})
    )
    mile = deck.cards[0].questions[0]
    assert mile.measured
    assert answer_action(mile, UnitSystem.METRIC) == RevealAnswer("1609.344")
    assert answer_action(mile, UnitSystem.US) == RevealAnswer("5280")


def test_a_measured_question_needs_the_units_to_give_its_answer() -> None:
    deck = deck_from_data(_deck(answer={"us": "1", "metric": "2"}))
    with pytest.raises(InvalidInput, match="unit system"):
        answer_action(deck.cards[0].questions[0], None)


def test_a_measured_question_needs_both_answers() -> None:
    with pytest.raises(InvalidInput, match=r"answer\.metric"):
        deck_from_data(_deck(answer={"us": "1"}))


def test_the_die_picks_the_question_a_card_reads() -> None:
    card = load_deck(SAMPLE_DECK).cards[1]
    assert question_action(card, 2) == ReadQuestion(
        text="In miles (kilometers), how long is a marathon?",
        card="Sample 2",
        chip=True,
        measured=True,
    )


def test_a_toml_float_is_read_exactly(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    card = "\n".join(
        f'[[card.question]]\ntext = "Q{n}"\nanswer = {"0.1" if n == 1 else n}' for n in range(1, 7)
    )
    path.write_text(f"[[card]]\n{card}\n", encoding="utf-8")
    assert load_deck(path).cards[0].questions[0].answer == Answer(Decimal("0.1"))


def test_a_file_that_is_not_toml_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text("[[card]\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="not a TOML deck"):
        load_deck(path)


def test_a_deck_data_fault_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('title = "empty"\n', encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"deck\.toml: card: expected at least one"):
        load_deck(path)


def test_checking_a_deck_changes_nothing() -> None:
    data = _deck()
    before = copy.deepcopy(data)
    deck_from_data(data)
    assert data == before
