"""What the table's web page shows of a Guesstimation game, beside the OLED's view.

Everyone sees it, spectators included, so it holds nothing secret: while guesses are being
written it says only who has guessed, never what; the guesses appear once every one is in
(the table's reveal), the answer and the moves once the answer is read; each player's
distance to Finish always.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_py.families.guesstimation.context import Table
from firmware_py.table.prompts import EntrySpec, PageInfo, Prompt
from rules.guesstimation.numbers import number_text
from rules.guesstimation.rolloff import RollFor
from rules.guesstimation.session import GuesstimationState, Round

ROLLING = {
    RollFor.FIRST_LEADER: "for the first Round Leader",
    RollFor.DUEL_TIE: "to break the tied duel",
    RollFor.CHIP_TIE: "for the Dueling Chip",
}
UNITS = {"us": "U.S.", "metric": "metric"}


def with_page(
    prompt: Prompt, state: GuesstimationState, table: Table, entry: EntrySpec | None = None
) -> Prompt:
    """The prompt with what the page shows (and takes) on it."""
    return replace(prompt, page=page_info(state, table), entry=entry)


def page_info(state: GuesstimationState, table: Table) -> PageInfo:
    lines = [_chip(state), _to_finish(state), *_rolloff(state), *_round(state, table)]
    if state.champion is not None:
        lines.append(f"{state.champion} has won the game")
    shown = _round_shown(state)
    if shown is None:
        return PageInfo(names=table.options.names, lines=tuple(lines))
    lines += _result(shown)
    heading = ("Player", "Guess", "Move") if shown.outcome else ("Player", "Guess")
    return PageInfo(
        names=table.options.names, lines=tuple(lines), rows=_rows(shown), heading=heading
    )


def _chip(state: GuesstimationState) -> str:
    return f"Dueling Chip: {state.chip or 'on the board'}"


def _to_finish(state: GuesstimationState) -> str:
    """Each player's distance to Finish (R775): the board, as the spaces the pieces still
    have to go, which the scoreboard's positions leave to arithmetic."""
    left = ", ".join(
        f"{player} {state.finish - position}"
        for player, position in zip(state.players, state.positions, strict=True)
    )
    return f"Spaces to Finish ({state.finish}): {left}"


def _rolloff(state: GuesstimationState) -> list[str]:
    rolloff = state.rolloff
    if rolloff is None:
        return []
    lines = []
    for rolls in rolloff.earlier:
        tied = ", ".join(f"{roll.player} {roll.value}" for roll in rolls)
        lines.append(f"Rolled {ROLLING[rolloff.purpose]}: {tied} (a tie: the highest roll again)")
    rolled = ", ".join(f"{roll.player} {roll.value}" for roll in rolloff.rolls)
    waiting = ", ".join(rolloff.waiting_for)
    lines.append(
        f"Rolling {ROLLING[rolloff.purpose]}: {rolled + '; ' if rolled else ''}"
        f"waiting for {waiting}"
    )
    return lines


def _round(state: GuesstimationState, table: Table) -> list[str]:
    current = state.current
    if current is None:
        return []
    final = f", the final question among {', '.join(current.guessers)}" if current.final else ""
    lines = [f"Round {current.number}: Round Leader {current.leader}{final}"]
    question = current.question
    if question is not None:
        chip = " (chip possession)" if question.chip else ""
        text = question.text or "read from the card"  # a deck's question is read with its text
        lines.append(f"Question {question.number}{chip}: {text}")
    elif current.die is not None:
        lines.append(f"Question {current.die} is being read")
    if current.units is not None:
        lines.append(f"Units: {UNITS[current.units.value]}")
    if current.duel is not None:
        duel = current.duel
        lines.append(f"Duel: {duel.dueler} challenges {duel.opponent} for {duel.wager} spaces")
    if state.phase == "guessing":
        guessed = ", ".join(guess.player for guess in current.guesses) or "nobody yet"
        waiting = ", ".join(current.waiting_for_guesses)
        lines.append(f"Guesses in: {guessed}; waiting for {waiting}")
    return lines


def _round_shown(state: GuesstimationState) -> Round | None:
    """The round whose guesses are public: this round's once every guess is in, else the last
    round played (never a round with some guesses in and some not)."""
    current = state.current
    if current is not None and (current.answer is not None or state.phase == "answer"):
        return current
    if current is not None and current.guesses:
        return None
    return state.played[-1] if state.played else None


def _result(shown: Round) -> list[str]:
    if shown.answer is None:
        return ["Every guess is in: the answer is next"]
    answer = f"Round {shown.number}: the answer is {number_text(shown.answer)}"
    outcome = shown.outcome
    if outcome is None:
        return [f"{answer}; the tied duel goes to the die"]
    exact = f" (exact: {', '.join(outcome.exact)})" if outcome.exact else ""
    won = " and ".join(outcome.winners)
    return [f"{answer}; {won} won{exact}"]


def _rows(shown: Round) -> tuple[tuple[str, ...], ...]:
    moves = {move.player: move.spaces for move in shown.outcome.moves} if shown.outcome else None
    rows = []
    for guess in shown.guesses:
        row: tuple[str, ...] = (guess.player, number_text(guess.value))
        if moves is not None:
            spaces = moves.get(guess.player)
            row += ("" if spaces is None else f"{spaces:+d}",)
        rows.append(row)
    return tuple(rows)
