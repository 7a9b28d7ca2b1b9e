"""A question deck as plain data (the shell reads the file): cards of six questions each.

``deck_from_data`` checks the mapping a TOML deck file parses to (docs/guesstimation.md, "The
deck") and names the full key path of any fault, e.g. ``card[2].question[4].chip``. Numbers may
be text ("8848.86"), whole numbers or exact decimals; never a binary float. ``question_action``
and ``answer_action`` turn a card into the actions the table sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules.errors import InvalidInput
from rules.guesstimation.actions import ReadQuestion, RevealAnswer, UnitSystem
from rules.guesstimation.numbers import check_number, number_text, parse_number
from rules.guesstimation.rolloff import DIE_FACES
from rules.guesstimation.session import CHIP_QUESTION

QUESTIONS_PER_CARD = len(DIE_FACES)  # the Round Leader's die picks one of the card's six


@dataclass(frozen=True, slots=True)
class Answer:
    value: Decimal
    unit: str = ""  # "feet", "km/s"; empty when the question says it or needs none


@dataclass(frozen=True, slots=True)
class DeckQuestion:
    text: str
    chip: bool  # chip-possession: question 4, or marked on the card
    answer: Answer | None = None  # a question in one unit (or none)
    us: Answer | None = None  # a measured question: its answer in U.S. units ...
    metric: Answer | None = None  # ... and in metric units
    source: str = ""

    @property
    def measured(self) -> bool:
        return self.us is not None

    def answer_in(self, units: UnitSystem | None) -> Answer:
        """The answer to read out, in the unit system the group chose for a measured question."""
        if self.answer is not None:
            return self.answer
        if units is None:
            raise InvalidInput("this question is measured: expected the group's unit system")
        chosen = self.us if units is UnitSystem.US else self.metric
        assert chosen is not None  # a measured question has both
        return chosen


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    questions: tuple[DeckQuestion, ...]  # questions 1 to 6


@dataclass(frozen=True, slots=True)
class Deck:
    title: str
    cards: tuple[Card, ...]

    @property
    def questions(self) -> int:
        return sum(len(card.questions) for card in self.cards)


def question_action(card: Card, number: int) -> ReadQuestion:
    """The ``guesstimation.question`` action for question ``number`` (the die) of ``card``."""
    if number not in DIE_FACES:
        raise InvalidInput(f"question {number}: expected 1 to {QUESTIONS_PER_CARD}")
    question = card.questions[number - 1]
    return ReadQuestion(
        text=question.text, card=card.name, chip=question.chip, measured=question.measured
    )


def answer_action(question: DeckQuestion, units: UnitSystem | None) -> RevealAnswer:
    return RevealAnswer(number_text(question.answer_in(units).value))


def deck_to_data(deck: Deck) -> dict[str, Any]:
    """The deck as plain JSON data, numbers as text: ``deck_from_data`` reads it back as it
    was (a table keeps its deck this way, so a replay reads the same questions)."""

    def answer(question: DeckQuestion) -> tuple[Any, Any]:
        if question.answer is not None:
            return number_text(question.answer.value), question.answer.unit
        assert question.us is not None and question.metric is not None
        return (
            {"us": number_text(question.us.value), "metric": number_text(question.metric.value)},
            {"us": question.us.unit, "metric": question.metric.unit},
        )

    def question_data(question: DeckQuestion) -> dict[str, Any]:
        value, unit = answer(question)
        return {
            "text": question.text,
            "answer": value,
            "unit": unit,
            "source": question.source,
            "chip": question.chip,
        }

    return {
        "title": deck.title,
        "card": [
            {"name": card.name, "question": [question_data(q) for q in card.questions]}
            for card in deck.cards
        ],
    }


def deck_from_data(data: Mapping[str, Any]) -> Deck:
    _only_keys(data, {"title", "card"}, "deck")
    title = _text(data.get("title", ""), "title", required=False)
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise InvalidInput("card: expected at least one [[card]] table")
    return Deck(title, tuple(_card(card, f"card[{i}]") for i, card in enumerate(cards, start=1)))


def _card(data: Any, where: str) -> Card:
    if not isinstance(data, dict):
        raise InvalidInput(f"{where}: expected a table")
    _only_keys(data, {"name", "question"}, where)
    name = _text(data.get("name", where), f"{where}.name", required=False)
    questions = data.get("question")
    if not isinstance(questions, list) or len(questions) != QUESTIONS_PER_CARD:
        count = len(questions) if isinstance(questions, list) else 0
        raise InvalidInput(
            f"{where}.question: {count} question(s): expected {QUESTIONS_PER_CARD}, one for each "
            "face of the die"
        )
    return Card(
        name,
        tuple(
            _question(question, number, f"{where}.question[{number}]")
            for number, question in enumerate(questions, start=1)
        ),
    )


def _question(data: Any, number: int, where: str) -> DeckQuestion:
    if not isinstance(data, dict):
        raise InvalidInput(f"{where}: expected a table")
    _only_keys(data, {"text", "answer", "unit", "source", "chip"}, where)
    text = _text(data.get("text"), f"{where}.text", required=True)
    source = _text(data.get("source", ""), f"{where}.source", required=False)
    chip = data.get("chip", number == CHIP_QUESTION)
    if not isinstance(chip, bool):
        raise InvalidInput(f"{where}.chip: expected true or false, got {chip!r}")
    if number == CHIP_QUESTION and not chip:
        raise InvalidInput(f"{where}.chip: question 4 is always a chip-possession question")
    if "answer" not in data:
        raise InvalidInput(f"{where}.answer: expected the answer")
    answer = data["answer"]
    if not isinstance(answer, dict):
        unit_text = _text(data.get("unit", ""), f"{where}.unit", required=False)
        value = _number(answer, f"{where}.answer")
        return DeckQuestion(text, chip, answer=Answer(value, unit_text), source=source)
    _only_keys(answer, {"us", "metric"}, f"{where}.answer")
    units = data.get("unit", {})
    if not isinstance(units, dict):
        raise InvalidInput(f"{where}.unit: expected a table {{ us = ..., metric = ... }}")
    _only_keys(units, {"us", "metric"}, f"{where}.unit")
    us, metric = (
        Answer(
            _number(answer.get(key), f"{where}.answer.{key}"),
            _text(units.get(key, ""), f"{where}.unit.{key}", required=False),
        )
        for key in ("us", "metric")
    )
    return DeckQuestion(text, chip, us=us, metric=metric, source=source)


def _only_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidInput(
            f"{where}: unknown key(s) {', '.join(unknown)}: expected {', '.join(sorted(allowed))}"
        )


def _text(value: Any, where: str, *, required: bool) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        raise InvalidInput(f"{where}: expected {'non-empty ' if required else ''}text")
    return value


def _number(value: Any, where: str) -> Decimal:
    if isinstance(value, str):
        return parse_number(value, where)
    if isinstance(value, bool) or value is None:
        raise InvalidInput(f"{where}: expected a number, got {value!r}")
    if isinstance(value, int):
        return check_number(Decimal(value), where)
    if isinstance(value, Decimal):
        return check_number(value, where)
    raise InvalidInput(f"{where}: expected an exact number (text or decimal), got {value!r}")
