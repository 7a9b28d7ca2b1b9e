"""Contig 60 number sentences: parse what a player announced and check it against the roll.

A sentence is one or more steps joined by "and"; every step but the last says what it makes:

    3 + 5 × 4              makes 23: × and ÷ come before + and − (the order of operations)
    3 + 5 = 8 and 8 × 4 = 32      the chained form: a later step uses an earlier result

Operators: ``+``, ``-``/``−``, ``x``/``×``/``*``, ``/``/``÷`` and the words plus, minus, times,
divided by; ``=``, equals and is; parentheses group (ruling R201). Each die is used exactly once
and each result said before "and" is used exactly once after it (R200). Arithmetic is exact
(``Fraction``); a division must come out whole unless fractions are allowed (R202).

A sentence that cannot be read is ``InvalidInput``; one that reads but is wrong is a verdict
with ``correct`` False and the problems named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from rules.errors import InvalidInput

# A sentence said at the table is short (three dice, a few steps); longer is refused before it
# is parsed, which keeps every walk over its tree far inside Python's recursion limit (R702).
MAX_TOKENS = 100  # numbers, operators, brackets and words
MAX_DEPTH = 12  # brackets inside one another
MAX_DIGITS = 12  # a number said: dice and results are far smaller


class Op(StrEnum):
    ADD = "+"
    SUB = "-"
    MUL = "×"
    DIV = "÷"

    @property
    def precedence(self) -> int:
        return 2 if self in (Op.MUL, Op.DIV) else 1


@dataclass(frozen=True, slots=True)
class Number:
    value: int  # a die, or an earlier step's result (which may be negative)


@dataclass(frozen=True, slots=True)
class Operation:
    op: Op
    left: Node
    right: Node


Node = Number | Operation


# -- reading a sentence -----------------------------------------------------------------------

_SYMBOLS = {
    "+": Op.ADD,
    "-": Op.SUB,
    "−": Op.SUB,
    "–": Op.SUB,
    "×": Op.MUL,
    "*": Op.MUL,
    "/": Op.DIV,
    "÷": Op.DIV,
}
_WORDS = {"plus": Op.ADD, "minus": Op.SUB, "times": Op.MUL, "x": Op.MUL}
_EQUALS = ("=", "equals", "is")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # number, op, open, close, equals, and, end
    text: str
    column: int  # 1-based, for error messages
    number: int = 0
    op: Op = Op.ADD


_DIGITS = frozenset("0123456789")  # not str.isdigit: "²" is a digit to it, and not to int()


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif char in _DIGITS:
            start = i
            while i < len(text) and text[i] in _DIGITS:
                i += 1
            if i - start > MAX_DIGITS:
                raise InvalidInput(
                    f"sentence: a number of {i - start} digits at character {start + 1}: "
                    f"expected at most {MAX_DIGITS}"
                )
            tokens.append(_Token("number", text[start:i], start + 1, number=int(text[start:i])))
        elif char in _SYMBOLS:
            tokens.append(_Token("op", char, i + 1, op=_SYMBOLS[char]))
            i += 1
        elif char in "()":
            tokens.append(_Token("open" if char == "(" else "close", char, i + 1))
            i += 1
        elif char == "=":
            tokens.append(_Token("equals", char, i + 1))
            i += 1
        elif char.isalpha():
            start = i
            while i < len(text) and text[i].isalpha():
                i += 1
            tokens.append(_word(text, start, i))
            if tokens[-1].text == "divided":
                i = _expect_by(text, i, start)
        else:
            raise InvalidInput(f"sentence: unexpected {char!r} at character {i + 1}: {_EXPECTED}")
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


_EXPECTED = "expected numbers, + - × ÷ (or x * /), parentheses, '=' and 'and'"


def _word(text: str, start: int, end: int) -> _Token:
    word = text[start:end].lower()
    if word in _WORDS:
        return _Token("op", word, start + 1, op=_WORDS[word])
    if word in _EQUALS:
        return _Token("equals", word, start + 1)
    if word == "and":
        return _Token("and", word, start + 1)
    if word == "divided":
        return _Token("op", word, start + 1, op=Op.DIV)
    raise InvalidInput(
        f"sentence: unexpected {text[start:end]!r} at character {start + 1}: {_EXPECTED}"
    )


def _expect_by(text: str, i: int, start: int) -> int:
    """After "divided", skip " by"; return the index after it."""
    rest = text[i:]
    stripped = rest.lstrip()
    if stripped[:2].lower() != "by" or stripped[2:3].isalpha():
        raise InvalidInput(f"sentence: 'divided' at character {start + 1}: expected 'divided by'")
    return i + (len(rest) - len(stripped)) + 2


@dataclass(frozen=True, slots=True)
class Step:
    """One step as announced: its expression and the result said after '=', if any."""

    expression: Node
    stated: int | None
    grouped: bool  # parentheses were used (no left-to-right hint then)


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0
        self.grouped = False

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def fail(self, expected: str) -> InvalidInput:
        token = self.token
        where = "at the end" if token.kind == "end" else f"at character {token.column}"
        found = "" if token.kind == "end" else f", found {token.text!r}"
        return InvalidInput(f"sentence: expected {expected} {where}{found}")

    def sentence(self) -> tuple[Step, ...]:
        steps = [self.step()]
        while self.token.kind == "and":
            self.take()
            steps.append(self.step())
        if self.token.kind != "end":
            raise self.fail("'and' between steps, or the end of the sentence")
        return tuple(steps)

    def step(self) -> Step:
        self.grouped = False
        expression = self.expression()
        stated = None
        if self.token.kind == "equals":
            self.take()
            stated = self.signed_number("the result after '='")
        return Step(expression, stated, self.grouped)

    def expression(self) -> Node:
        node = self.term()
        while self.token.kind == "op" and self.token.op.precedence == 1:
            op = self.take().op
            node = Operation(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while self.token.kind == "op" and self.token.op.precedence == 2:
            op = self.take().op
            node = Operation(op, node, self.factor())
        return node

    def factor(self) -> Node:
        if self.token.kind == "open":
            self.take()
            self.grouped = True
            node = self.expression()
            if self.token.kind != "close":
                raise self.fail("')'")
            self.take()
            return node
        return Number(self.signed_number("a number or '('"))

    def signed_number(self, expected: str) -> int:
        negative = self.token.kind == "op" and self.token.op is Op.SUB
        if negative:
            self.take()  # a negative earlier result, said again: "-2 + 4"
        if self.token.kind != "number":
            raise self.fail(expected)
        value = self.take().number
        return -value if negative else value


def parse_sentence(text: str) -> tuple[Step, ...]:
    if not text.strip():
        raise InvalidInput("sentence: empty: expected e.g. '3 + 5 × 4' or '3 + 5 = 8 and 8 × 4'")
    tokens = _tokens(text)
    _check_depth(tokens)
    if len(tokens) - 1 > MAX_TOKENS:  # the last token marks the end
        raise InvalidInput(
            f"sentence: {len(tokens) - 1} numbers, operators and brackets: expected at most "
            f"{MAX_TOKENS}"
        )
    return _Parser(tokens).sentence()


def _check_depth(tokens: list[_Token]) -> None:
    depth = 0
    for token in tokens:
        depth += {"open": 1, "close": -1}.get(token.kind, 0)
        if depth > MAX_DEPTH:
            raise InvalidInput(
                f"sentence: nested too deeply at character {token.column}: expected at most "
                f"{MAX_DEPTH} brackets inside one another"
            )


# -- arithmetic and rendering ---------------------------------------------------------------


class ArithmeticFault(Exception):
    """A step that has no value under the rules: division by zero, or a fraction (R202)."""


def evaluate(node: Node, *, fractions: bool = False) -> Fraction:
    if isinstance(node, Number):
        return Fraction(node.value)
    left = evaluate(node.left, fractions=fractions)
    right = evaluate(node.right, fractions=fractions)
    return _operate(node, left, right, fractions)


def _operate(node: Operation, left: Fraction, right: Fraction, fractions: bool) -> Fraction:
    """``node``'s value from its operands' values."""
    if node.op is not Op.DIV:
        return _apply(node.op, left, right)
    if right == 0:
        raise ArithmeticFault(f"{render(node)} divides by 0")
    quotient = left / right
    if quotient.denominator != 1 and not fractions:
        raise ArithmeticFault(f"{render(node)} is {show(quotient)}, not a whole number")
    return quotient


def show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def needs_parentheses(parent: Op, child: Node, right: bool) -> bool:
    if isinstance(child, Number):
        return False
    if child.op.precedence != parent.precedence:
        return child.op.precedence < parent.precedence
    return right and parent in (Op.SUB, Op.DIV)


def render(node: Node) -> str:
    """The expression with the fewest parentheses the order of operations needs."""
    if isinstance(node, Number):
        return str(node.value)
    left, right = render(node.left), render(node.right)
    if needs_parentheses(node.op, node.left, right=False):
        left = f"({left})"
    if needs_parentheses(node.op, node.right, right=True):
        right = f"({right})"
    return f"{left} {node.op.value} {right}"


def announce(node: Node, *, fractions: bool = False) -> str:
    """A sentence for ``node`` a player can say: flat when the order of operations allows it,
    else the chained form ("3 + 5 = 8 and 8 × 4 = 32"), with parentheses only as a last
    resort (a fractional result cannot be said as a whole number)."""
    steps: list[str] = []

    def said(child: Node, value: Fraction) -> Number:
        if value.denominator != 1:
            raise ArithmeticFault("a fractional step")
        steps.append(f"{render(child)} = {show(value)}")
        return Number(value.numerator)

    def flatten(current: Node) -> tuple[Node, Fraction]:
        """``current`` with each side that needs grouping said as an earlier step."""
        if isinstance(current, Number):
            return current, Fraction(current.value)
        (left, left_value), (right, right_value) = flatten(current.left), flatten(current.right)
        value = _operate(current, left_value, right_value, fractions)
        if needs_parentheses(current.op, left, right=False):
            left = said(left, left_value)
        if needs_parentheses(current.op, right, right=True):
            right = said(right, right_value)
        return Operation(current.op, left, right), value

    try:
        final, value = flatten(node)
    except ArithmeticFault:
        return f"{render(node)} = {show(evaluate(node, fractions=fractions))}"
    steps.append(f"{render(final)} = {show(value)}")
    return " and ".join(steps)


def _in_order(node: Node) -> list[Number | Op]:
    if isinstance(node, Number):
        return [node]
    return [*_in_order(node.left), node.op, *_in_order(node.right)]


def _left_to_right(node: Node) -> Fraction | None:
    """The value the step's words would have read left to right, ignoring precedence."""
    items = _in_order(node)
    first = items[0]
    assert isinstance(first, Number)
    value = Fraction(first.value)
    for op, operand in zip(items[1::2], items[2::2], strict=True):
        assert isinstance(op, Op) and isinstance(operand, Number)
        right = Fraction(operand.value)
        if op is Op.DIV and right == 0:
            return None
        value = _apply(op, value, right)
    return value


def _apply(op: Op, left: Fraction, right: Fraction) -> Fraction:
    if op is Op.ADD:
        return left + right
    if op is Op.SUB:
        return left - right
    if op is Op.MUL:
        return left * right
    return left / right


def _literals(node: Node) -> list[int]:
    return [item.value for item in _in_order(node) if isinstance(item, Number)]


# -- checking a sentence against a roll --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepResult:
    text: str  # the step as read, e.g. "3 + 5 × 4"
    value: Fraction | None  # None: no value (division by 0, or a fraction where none is allowed)
    stated: int | None


@dataclass(frozen=True, slots=True)
class SentenceVerdict:
    correct: bool
    value: Fraction | None  # what the sentence makes: its last step's value
    steps: tuple[StepResult, ...]
    problems: tuple[str, ...]
    dice: tuple[int, ...]
    target: int | None

    @property
    def sentence(self) -> str:
        parts = [
            step.text if step.stated is None else f"{step.text} = {step.stated}"
            for step in self.steps
        ]
        return " and ".join(parts)


def check_sentence(
    text: str, dice: Sequence[int], *, fractions: bool = False, target: int | None = None
) -> SentenceVerdict:
    """Is ``text`` a correct number sentence for the roll ``dice`` (and does it make
    ``target``)? Raises ``InvalidInput`` only when the sentence cannot be read."""
    steps = parse_sentence(text)
    results: list[StepResult] = []
    problems: list[str] = []
    for number, step in enumerate(steps, start=1):
        results.append(_check_step(step, number, len(steps), fractions, problems))
    problems += _use_of_numbers(steps, results, tuple(dice))
    value = results[-1].value
    if target is not None and value is not None and value != target:
        hint = _precedence_hint(steps[-1], target)
        problems.append(f"it makes {show(value)}, not {target}{hint}")
    return SentenceVerdict(
        not problems, value, tuple(results), tuple(problems), tuple(dice), target
    )


def _check_step(
    step: Step, number: int, count: int, fractions: bool, problems: list[str]
) -> StepResult:
    text = render(step.expression)
    label = f"step {number} ({text})" if count > 1 else text
    if isinstance(step.expression, Number):
        problems.append(f"{label} has no operation: each step combines numbers")
    try:
        value: Fraction | None = evaluate(step.expression, fractions=fractions)
    except ArithmeticFault as fault:
        problems.append(str(fault))
        value = None
    if number < count and step.stated is None:
        problems.append(f"{label} is followed by 'and' without saying what it makes ('= …')")
    if value is not None and step.stated is not None and value != step.stated:
        hint = _precedence_hint(step, step.stated)
        problems.append(f"{text} is {show(value)}, not {step.stated}{hint}")
    return StepResult(text, value, step.stated)


def _precedence_hint(step: Step, meant: int) -> str:
    """A hint when reading the step left to right, ignoring precedence, would give ``meant``."""
    if step.grouped:
        return ""
    if _left_to_right(step.expression) == meant:
        return " (× and ÷ come before + and -: to use a sum first, say it as a step)"
    return ""


def _use_of_numbers(
    steps: tuple[Step, ...], results: list[StepResult], dice: tuple[int, ...]
) -> list[str]:
    """Each die used once; each result said before 'and' used once in a later step."""
    literals = [_literals(step.expression) for step in steps]
    said = [step.stated for step in steps[:-1]]
    if _assignable(literals, said, Counter(dice)):
        return []
    pool = Counter(dice) + Counter(value for value in said if value is not None)
    used = Counter(value for step in literals for value in step)
    dice_text = ", ".join(map(str, dice))
    problems = []
    for value, count in sorted(used.items()):
        if value not in pool:
            problems.append(f"{value} is not a die ({dice_text}) or an earlier result")
        elif count > pool[value]:
            problems.append(f"{value} is used {count} times, but there is only {pool[value]}")
    for value, count in sorted(pool.items()):
        if count > used[value]:
            what = "die" if value in dice else "result"
            problems.append(f"the {what} {value} is not used: each die and result is used once")
    return problems or ["a result is used before the step that makes it"]


def _assignable(literals: list[list[int]], said: list[int | None], dice: Counter[int]) -> bool:
    """Can every number be matched to an unused die or an unused earlier result?"""
    open_results: list[tuple[int, int]] = []  # (step index, value) not yet used

    def match(step: int, position: int) -> bool:
        if step == len(literals):
            return not open_results and sum(dice.values()) == 0
        if position == len(literals[step]):
            value = said[step] if step < len(said) else None
            if value is None:
                return match(step + 1, 0)
            open_results.append((step, value))
            found = match(step + 1, 0)
            open_results.remove((step, value))
            return found
        value = literals[step][position]
        if dice[value] > 0:
            dice[value] -= 1
            found = match(step, position + 1)
            dice[value] += 1
            if found:
                return True
        for index, (origin, result) in enumerate(open_results):
            if result == value and origin < step:
                del open_results[index]
                found = match(step, position + 1)
                open_results.insert(index, (origin, result))
                if found:
                    return True
        return False

    return match(0, 0)
