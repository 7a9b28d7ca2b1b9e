"""Guesstimation as a state machine: ``new_game(start)``, then ``apply_action(state, action)``.

A round: the Round Leader rolls for the question number (``question_roll``), reads it
(``question``), the group picks the units if it is measured (``units``), every player guesses
(``guessing``), the answer is read (``answer``) and the round is judged; a tied duel
(``duel_roll``) or a tie for the Dueling Chip (``chip_roll``) is settled by the die. The game
opens with a roll for the first Round Leader (``first_leader``) and ends when one player reaches
the Finish, or wins the final question among those who reach it in the same round (``over``).
The rulings behind each choice are R280-R294 in docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.guesstimation.actions import (
    ChooseUnits,
    DeclareDuel,
    ReadQuestion,
    RecordGuess,
    RevealAnswer,
    RollDie,
    StartGuesstimation,
    UnitSystem,
)
from rules.guesstimation.numbers import parse_number
from rules.guesstimation.rolloff import RollFor, RollOff, add_roll, check_die
from rules.guesstimation.scoring import Move, check_wager, closest_guesses, judge_duel
from rules.players import check_names

MIN_PLAYERS, MAX_PLAYERS = 3, 6  # the box: "3 or more players", six pieces and pencils
FINISH_SPACES = range(2, 101)
CHIP_QUESTION = 4  # "There is at least one chip possession question on every card ... question 4"


@dataclass(frozen=True, slots=True)
class Question:
    number: int  # 1-6, from the Round Leader's die
    text: str
    card: str
    chip: bool  # chip-possession: question 4 or marked by the card, never a final question
    measured: bool  # asked in U.S. and metric terms


@dataclass(frozen=True, slots=True)
class Guess:
    player: str
    value: Decimal


@dataclass(frozen=True, slots=True)
class Duel:
    dueler: str
    opponent: str
    wager: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: who won, who was exact, how the pieces moved and who holds the chip."""

    winners: tuple[str, ...]  # seat order; a duel's winner alone
    exact: tuple[str, ...]  # every player whose guess was the answer
    moves: tuple[Move, ...]  # seat order, as the rules award them (before Start/Finish)
    positions: tuple[int, ...]  # every piece after the round, in seat order
    chip: str | None  # the Dueling Chip's holder after the round (None: on the board)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    leader: str
    guessers: tuple[str, ...]  # speaking order, from the Round Leader's left; finalists only
    final: bool = False  # the final question among players who reached the Finish together
    die: int | None = None
    question: Question | None = None
    units: UnitSystem | None = None
    duel: Duel | None = None
    guesses: tuple[Guess, ...] = ()  # speaking order, whatever order they were entered in
    answer: Decimal | None = None
    outcome: Outcome | None = None

    def guess_of(self, player: str) -> Decimal | None:
        return next((guess.value for guess in self.guesses if guess.player == player), None)

    @property
    def waiting_for_guesses(self) -> tuple[str, ...]:
        guessed = {guess.player for guess in self.guesses}
        return tuple(player for player in self.guessers if player not in guessed)


@dataclass(frozen=True, slots=True)
class GuesstimationState:
    players: tuple[str, ...]  # clockwise seat order
    finish: int  # spaces from Start (0) to Finish
    positions: tuple[int, ...]  # seat order
    leader: str | None = None  # the current Round Leader, once the first one is rolled for
    chip: str | None = None  # the Dueling Chip's holder; None: on its spot on the board
    rolloff: RollOff | None = None
    current: Round | None = None
    played: tuple[Round, ...] = ()
    finalists: tuple[str, ...] = ()  # reached the Finish in the same round: a final question
    champion: str | None = None

    @property
    def phase(self) -> str:
        if self.champion is not None:
            return "over"
        if self.rolloff is not None:
            return _ROLLOFF_PHASES[self.rolloff.purpose]
        current = self.current
        assert current is not None  # a game is always rolling off or playing a round
        if current.die is None:
            return "question_roll"
        if current.question is None:
            return "question"
        if current.question.measured and current.units is None:
            return "units"
        if current.waiting_for_guesses:
            return "guessing"
        return "answer"

    def position(self, player: str) -> int:
        return self.positions[self.players.index(player)]

    @property
    def over(self) -> bool:
        return self.champion is not None


_ROLLOFF_PHASES = {
    RollFor.FIRST_LEADER: "first_leader",
    RollFor.DUEL_TIE: "duel_roll",
    RollFor.CHIP_TIE: "chip_roll",
}


def expecting(state: GuesstimationState) -> str:
    """What the table waits for now, for a person: errors and the replay's summary say it."""
    phase = state.phase
    current = state.current
    if phase == "over":
        return f"nothing: {state.champion} has won"
    if state.rolloff is not None:
        reason = {
            RollFor.FIRST_LEADER: "for the first Round Leader",
            RollFor.DUEL_TIE: "to break the tied duel",
            RollFor.CHIP_TIE: "for the Dueling Chip",
        }[state.rolloff.purpose]
        return f"a die roll from {', '.join(state.rolloff.waiting_for)} {reason}"
    assert current is not None
    if phase == "question_roll":
        return f"the Round Leader {current.leader}'s die roll for the question number"
    if phase == "question":
        return f"question {current.die} read by {current.leader}"
    if phase == "units":
        return "the unit system the group chose (us or metric)"
    if phase == "guessing":
        return f"a guess from {', '.join(current.waiting_for_guesses)}"
    return "the answer"


def new_game(start: StartGuesstimation) -> GuesstimationState:
    """Every piece on Start; everyone rolls the die for the first Round Leader."""
    players = _check_players(start.players)
    if start.finish not in FINISH_SPACES:
        raise InvalidInput(
            f"finish {start.finish}: expected {FINISH_SPACES.start} to "
            f"{FINISH_SPACES.stop - 1} spaces from Start to Finish"
        )
    return GuesstimationState(
        players=players,
        finish=start.finish,
        positions=(0,) * len(players),
        rolloff=RollOff(RollFor.FIRST_LEADER, players),
    )


def _check_players(players: tuple[str, ...]) -> tuple[str, ...]:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(
            f"{len(players)} player(s): expected {MIN_PLAYERS} to {MAX_PLAYERS}, in seat order"
        )
    check_names(players)
    return players


def apply_action(state: GuesstimationState, action: Action) -> GuesstimationState:
    if isinstance(action, StartGuesstimation):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if state.over:
        raise GameOver(f"the game is over ({state.champion} won): it accepts no more actions")
    match action:
        case RollDie():
            return _roll(state, action)
        case ReadQuestion():
            return _read_question(state, action)
        case ChooseUnits():
            return _choose_units(state, action)
        case DeclareDuel():
            return _declare_duel(state, action)
        case RecordGuess():
            return _record_guess(state, action)
        case RevealAnswer():
            return _reveal_answer(state, action)
    raise IllegalAction(f"{action.kind!r} is not a Guesstimation action")


def _require(state: GuesstimationState, action: Action, *phases: str) -> Round:
    if state.phase not in phases:
        raise IllegalAction(f"{action.kind} is not allowed now: expected {expecting(state)}")
    assert state.current is not None  # every phase an action names has a round in progress
    return state.current


def _known(state: GuesstimationState, player: str) -> str:
    if player not in state.players:
        raise InvalidInput(f"unknown player {player!r}: expected one of {', '.join(state.players)}")
    return player


# -- die rolls --------------------------------------------------------------------------------


def _roll(state: GuesstimationState, action: RollDie) -> GuesstimationState:
    player = _known(state, action.player)
    if state.rolloff is not None:
        decided = add_roll(state.rolloff, player, action.value)
        if isinstance(decided, RollOff):
            return replace(state, rolloff=decided)
        return _rolloff_won(replace(state, rolloff=None), state.rolloff.purpose, decided)
    current = _require(state, action, "question_roll")
    if player != current.leader:
        raise IllegalAction(
            f"{player} rolled: expected the Round Leader {current.leader} to roll for the question"
        )
    return replace(state, current=replace(current, die=check_die(action.value)))


def _rolloff_won(state: GuesstimationState, purpose: RollFor, winner: str) -> GuesstimationState:
    if purpose is RollFor.FIRST_LEADER:
        return replace(state, leader=winner, current=_new_round(state, 1, winner))
    current = state.current
    assert current is not None and current.answer is not None
    if purpose is RollFor.DUEL_TIE:
        return _judge_duel(state, current, current.answer, tie_winner=winner)
    assert current.outcome is not None  # a chip roll-off follows a judged round
    outcome = replace(current.outcome, chip=winner)
    return _next_round(replace(state, chip=winner, current=replace(current, outcome=outcome)))


# -- the question -----------------------------------------------------------------------------


def _read_question(state: GuesstimationState, action: ReadQuestion) -> GuesstimationState:
    current = _require(state, action, "question")
    assert current.die is not None
    chip = not current.final and (current.die == CHIP_QUESTION or action.chip)
    question = Question(current.die, action.text, action.card, chip, action.measured)
    return replace(state, current=replace(current, question=question))


def _choose_units(state: GuesstimationState, action: ChooseUnits) -> GuesstimationState:
    current = state.current
    if state.phase == "guessing" and current is not None and current.question is not None:
        if not current.question.measured:
            raise IllegalAction("this question is not measured: it takes no unit system")
        raise IllegalAction(f"the units were chosen ({current.units}): expected a guess")
    current = _require(state, action, "units")
    return replace(state, current=replace(current, units=action.system))


def _declare_duel(state: GuesstimationState, action: DeclareDuel) -> GuesstimationState:
    current = _require(state, action, "units", "guessing")
    assert current.question is not None
    if current.guesses:
        raise IllegalAction("a duel is declared before the first guess is recorded")
    if current.final:
        raise IllegalAction("the final question is never a duel")
    if current.question.chip:
        raise IllegalAction(
            f"question {current.question.number} is a chip-possession question: "
            "the Dueling Chip is used on a standard question"
        )
    if current.duel is not None:
        raise IllegalAction(f"{current.duel.dueler} has already declared a duel this round")
    dueler, opponent = _known(state, action.dueler), _known(state, action.opponent)
    wager = check_wager(action.wager)
    if state.chip != dueler:
        where = f"{state.chip} does" if state.chip else "it is on the board"
        raise IllegalAction(f"{dueler} does not hold the Dueling Chip ({where})")
    if opponent == dueler:
        raise IllegalAction(f"{dueler} cannot challenge themselves: expected another player")
    return replace(state, current=replace(current, duel=Duel(dueler, opponent, wager)))


# -- guesses and the answer -------------------------------------------------------------------


def _record_guess(state: GuesstimationState, action: RecordGuess) -> GuesstimationState:
    player = _known(state, action.player)
    current = _require(state, action, "guessing")
    if player not in current.guessers:
        finalists = ", ".join(current.guessers)
        raise IllegalAction(f"{player} is not in the final: only {finalists} guess")
    if current.guess_of(player) is not None:
        raise IllegalAction(f"{player} has already guessed: a written guess is not changed")
    value = parse_number(action.value, f"guess for {player}")
    guesses = {guess.player: guess.value for guess in current.guesses} | {player: value}
    ordered = tuple(Guess(name, guesses[name]) for name in current.guessers if name in guesses)
    return replace(state, current=replace(current, guesses=ordered))


def _reveal_answer(state: GuesstimationState, action: RevealAnswer) -> GuesstimationState:
    current = _require(state, action, "answer")
    answer = parse_number(action.value, "answer")
    current = replace(current, answer=answer)
    if current.duel is not None:
        return _judge_duel(state, current, answer, tie_winner=None)
    verdict = closest_guesses(answer, _guesses(current))
    moves = () if current.final else verdict.moves  # the final question only names the winner
    return _judged(state, current, verdict.winners, verdict.exact, moves)


def _judge_duel(
    state: GuesstimationState, current: Round, answer: Decimal, tie_winner: str | None
) -> GuesstimationState:
    duel = current.duel
    assert duel is not None
    verdict = judge_duel(
        answer,
        _guesses(current),
        dueler=duel.dueler,
        opponent=duel.opponent,
        wager=duel.wager,
        tie_winner=tie_winner,
    )
    if verdict.winner is None:
        contenders = tuple(p for p in state.players if p in (duel.dueler, duel.opponent))
        return replace(state, current=current, rolloff=RollOff(RollFor.DUEL_TIE, contenders))
    return _judged(state, current, (verdict.winner,), verdict.exact, verdict.moves)


def _guesses(current: Round) -> dict[str, Decimal]:
    return {guess.player: guess.value for guess in current.guesses}


def _judged(
    state: GuesstimationState,
    current: Round,
    winners: Iterable[str],
    exact: Iterable[str],
    moves: Iterable[Move],
) -> GuesstimationState:
    """Move the pieces, pass the chip, then end the round (or the game, or roll for the chip)."""
    seats = state.players
    by_player = {move.player: move.spaces for move in moves}
    positions = tuple(
        _on_board(position + by_player.get(player, 0), state.finish)
        for player, position in zip(seats, state.positions, strict=True)
    )
    winning = _seat_order(seats, winners)
    chip, chip_tie = _chip_after(state, current, winning)
    outcome = Outcome(
        winners=winning,
        exact=_seat_order(seats, exact),
        moves=tuple(Move(player, by_player[player]) for player in seats if player in by_player),
        positions=positions,
        chip=chip,
    )
    state = replace(
        state, positions=positions, chip=chip, current=replace(current, outcome=outcome)
    )
    reached = tuple(player for player in seats if state.position(player) == state.finish)
    if current.final or reached or not chip_tie:
        return _next_round(state)
    return replace(state, rolloff=RollOff(RollFor.CHIP_TIE, chip_tie))


def _on_board(position: int, finish: int) -> int:
    """A piece never goes behind Start, and stops on the Finish space."""
    return min(max(position, 0), finish)


def _seat_order(seats: tuple[str, ...], players: Iterable[str]) -> tuple[str, ...]:
    chosen = set(players)
    return tuple(player for player in seats if player in chosen)


def _chip_after(
    state: GuesstimationState, current: Round, winners: tuple[str, ...]
) -> tuple[str | None, tuple[str, ...]]:
    """The chip's holder after the round, and the tied winners who must roll for it (R286)."""
    assert current.question is not None
    if current.duel is not None:
        return None, ()  # "Once a Duel has taken place, the chip is returned"
    if not current.question.chip:
        return state.chip, ()
    if state.chip in winners:
        return state.chip, ()  # the holder won the round (perhaps tied): it keeps the chip
    if len(winners) == 1:
        return winners[0], ()
    return None, winners


# -- between rounds ---------------------------------------------------------------------------


def _next_round(state: GuesstimationState) -> GuesstimationState:
    """File the judged round; crown the champion, or start the next round (maybe a final)."""
    current = state.current
    assert current is not None and current.outcome is not None
    state = replace(state, played=(*state.played, current), current=None)
    if current.final:
        finalists = current.outcome.winners
    else:
        finalists = tuple(p for p in state.players if state.position(p) == state.finish)
    if len(finalists) == 1:
        return replace(state, champion=finalists[0], finalists=())
    leader = _left_of(state.players, current.leader)
    round_number = current.number + 1
    return replace(
        state,
        leader=leader,
        finalists=finalists,
        current=_new_round(state, round_number, leader, finalists),
    )


def _new_round(
    state: GuesstimationState, number: int, leader: str, finalists: tuple[str, ...] = ()
) -> Round:
    seats = state.players
    start = seats.index(leader) + 1
    speaking = seats[start:] + seats[:start]  # from the leader's left, clockwise
    guessers = tuple(p for p in speaking if p in finalists) if finalists else speaking
    return Round(number=number, leader=leader, guessers=guessers, final=bool(finalists))


def _left_of(seats: tuple[str, ...], player: str) -> str:
    """The next seat clockwise: the next Round Leader."""
    return seats[(seats.index(player) + 1) % len(seats)]
