"""``gametable guesstimation ...``: the judge's commands for Guesstimation (docs/guesstimation.md).

``add_parser(commands)`` adds the command tree to gametable's sub-commands; ``run(args)``
carries one out: exit 0 a verdict, 1 no verdict yet (a tied duel waiting for the die), 2 bad
input with one line on stderr. Every command takes ``--json``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from firmware_py.cli_args import file_path, number_error, print_error, whole_number
from firmware_py.families.guesstimation.deck import load_deck
from firmware_py.user_files import MAX_LOG, UserFileError, read_limited_text
from rules.errors import InvalidInput, RuleError
from rules.guesstimation.numbers import number_text, parse_number
from rules.guesstimation.replay import replay_log, summary
from rules.guesstimation.rolloff import check_die
from rules.guesstimation.scoring import Move, closest_guesses, judge_duel
from rules.guesstimation.session import MAX_PLAYERS
from rules.players import check_name

VERDICT, NO_VERDICT, BAD_INPUT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Answer:
    code: int
    text: str
    data: dict[str, Any]


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``guesstimation`` and its sub-commands to gametable's sub-command parsers."""
    game = commands.add_parser("guesstimation", help="judge a Guesstimation round, replay a log")
    sub = game.add_subparsers(
        dest="guesstimation_command",
        metavar="{closest,duel,replay,deck}",  # named in the error when it is missing
        required=True,
        parser_class=type(game),
    )

    closest = sub.add_parser("closest", help="who wins a standard round, and how far they move")
    closest.add_argument("--answer", required=True, help="the answer on the card, e.g. 29029.5")
    closest.add_argument("--guesses", required=True, help="every guess, e.g. A=4,B=6,C=9")
    _add_json(closest)

    duel = sub.add_parser("duel", help="who wins a duel, and every move it makes")
    duel.add_argument("--answer", required=True, help="the answer on the card")
    duel.add_argument("--dueler", required=True, help="the chip holder's guess, e.g. A=29000")
    duel.add_argument("--opponent", required=True, help="the challenged guess, e.g. C=30000")
    duel.add_argument("--wager", type=whole_number, help="1, 2 or 3 spaces (default 2)")
    duel.add_argument("--others", help="the bystanders' guesses, e.g. B=29029,D=28000")
    duel.add_argument("--rolls", help="a tied duel: both duelists' die rolls, e.g. A=5,C=2")
    _add_json(duel)

    replay = sub.add_parser("replay", help="the board after a JSON Lines Guesstimation log")
    replay.add_argument("log", type=file_path)
    _add_json(replay)

    deck = sub.add_parser("deck", help="check a deck file and count its cards")
    deck.add_argument("path", type=file_path)
    _add_json(deck)


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="answer with one JSON object")


def run(args: argparse.Namespace) -> int:
    """Carry out ``gametable guesstimation ...``."""
    try:
        answer = _COMMANDS[args.guesstimation_command](args)
    except RuleError as error:
        print_error(error)
        return BAD_INPUT
    print(json.dumps(answer.data) if args.json else answer.text)
    return answer.code


# -- closest ----------------------------------------------------------------------------------


def closest(args: argparse.Namespace) -> Answer:
    answer = parse_number(args.answer, "--answer")
    guesses = _guesses(_pairs(args.guesses, "--guesses"))
    if not 2 <= len(guesses) <= MAX_PLAYERS:
        raise InvalidInput(f"--guesses: {len(guesses)} guess(es): expected 2 to {MAX_PLAYERS}")
    verdict = closest_guesses(answer, guesses)
    entered = [player for player in guesses if player in verdict.winners]  # as the judge typed
    if verdict.exact:
        how = f"exact ({number_text(answer)})"
    else:
        how = f"{number_text(verdict.distance)} from {number_text(answer)}"
    text = f"{_who(entered)}, {how}: {_moves_text(verdict.moves, entered)}"
    data = {
        "answer": number_text(answer),
        "winners": entered,
        "distance": number_text(verdict.distance),
        "exact": [player for player in entered if player in verdict.exact],
        "moves": {move.player: move.spaces for move in _in_order(verdict.moves, entered)},
    }
    return Answer(VERDICT, text, data)


def _who(players: list[str]) -> str:
    if len(players) == 1:
        return f"{players[0]} wins"
    return f"{', '.join(players[:-1])} and {players[-1]} tie"


# -- duel -------------------------------------------------------------------------------------


def duel(args: argparse.Namespace) -> Answer:
    answer = parse_number(args.answer, "--answer")
    dueler = _one_pair(args.dueler, "--dueler")
    opponent = _one_pair(args.opponent, "--opponent")
    others = _pairs(args.others, "--others") if args.others else {}
    texts = _merge([("--dueler", dueler), ("--opponent", opponent), ("--others", others)])
    if len(texts) > MAX_PLAYERS:
        raise InvalidInput(f"{len(texts)} players: expected at most {MAX_PLAYERS}")
    guesses = _guesses(texts)
    (dueler_name,), (opponent_name,) = dueler, opponent
    rolls = _rolls(args.rolls, (dueler_name, opponent_name)) if args.rolls else None
    verdict = judge_duel(
        answer, guesses, dueler=dueler_name, opponent=opponent_name, wager=args.wager
    )
    if rolls and not verdict.tied:
        raise InvalidInput(
            f"--rolls: the duel is not tied ({verdict.winner} is closer): no die roll decides it"
        )
    if rolls and _roll_winner(rolls):
        verdict = judge_duel(
            answer,
            guesses,
            dueler=dueler_name,
            opponent=opponent_name,
            wager=args.wager,
            tie_winner=_roll_winner(rolls),
        )
    order = list(guesses)
    distances = dict(zip((dueler_name, opponent_name), verdict.distances, strict=True))
    bystanders = [m for m in verdict.moves if m.player not in (dueler_name, opponent_name)]
    data = {
        "answer": number_text(answer),
        "dueler": dueler_name,
        "opponent": opponent_name,
        "wager": verdict.wager,
        "distances": {player: number_text(gap) for player, gap in distances.items()},
        "tied": verdict.tied,
        "rolls": rolls,
        "winner": verdict.winner,
        "loser": verdict.loser,
        "exact": [player for player in order if player in verdict.exact],
        "moves": {move.player: move.spaces for move in _in_order(verdict.moves, order)},
    }
    extra = f"; bystanders exact: {_moves_text(tuple(bystanders), order)}" if bystanders else ""
    if verdict.winner is None:
        gap = number_text(verdict.distances[0])
        again = f"the rolls tied at {rolls[dueler_name]}, roll again" if rolls else "roll the die"
        text = (
            f"{dueler_name} and {opponent_name} tie, {gap} from {number_text(answer)}: "
            f"{again} (--rolls {dueler_name}=N,{opponent_name}=N); the higher roll wins "
            f"the wager of {verdict.wager}{extra}"
        )
        return Answer(NO_VERDICT, text, data)
    how = "on the die roll" if verdict.tied else _duel_distances(distances, answer)
    duelists = [verdict.winner, verdict.loser or ""]
    moved = _moves_text(tuple(m for m in verdict.moves if m not in bystanders), duelists)
    loser_note = " (never behind Start)"
    text = f"{verdict.winner} wins the duel {how}: {moved}{loser_note}{extra}"
    return Answer(VERDICT, text, data)


def _duel_distances(distances: Mapping[str, Decimal], answer: Decimal) -> str:
    gaps = ", ".join(f"{player} {number_text(gap)}" for player, gap in distances.items())
    return f"({gaps} from {number_text(answer)})"


def _rolls(text: str, duelists: tuple[str, str]) -> dict[str, int]:
    pairs = _pairs(text, "--rolls")
    if set(pairs) != set(duelists):
        raise InvalidInput(
            f"--rolls {text!r}: expected one roll for each of {' and '.join(duelists)}"
        )
    rolls: dict[str, int] = {}
    for player in duelists:
        value = pairs[player].strip()
        if value.startswith("-") or number_error(value) is not None:
            raise InvalidInput(f"--rolls: {player}={value!r}: expected a die roll 1 to 6")
        rolls[player] = check_die(int(value))
    return rolls


def _roll_winner(rolls: dict[str, int]) -> str | None:
    highest = max(rolls.values())
    top = [player for player, value in rolls.items() if value == highest]
    return top[0] if len(top) == 1 else None


# -- replay and deck --------------------------------------------------------------------------


def replay(args: argparse.Namespace) -> Answer:
    data = summary(replay_log(_read_lines(args.log)))
    return Answer(VERDICT, board_text(data), data)


def board_text(data: Mapping[str, Any]) -> str:
    """The board from ``summary``, for a person: pieces, chip, the round and what comes next."""
    chip = data["chip"]
    pieces = " | ".join(
        f"{player} {spaces}" + (" (chip)" if player == chip else "")
        for player, spaces in data["positions"].items()
    )
    lines = [f"Guesstimation, Finish at {data['finish']}: {pieces}"]
    played = data["rounds"]
    if played:
        last = played[-1]
        moves = ", ".join(
            f"{player} {spaces:+d}" for player, spaces in last["outcome"]["moves"].items()
        )
        lines.append(
            f"round {last['round']} ({'final, ' if last['final'] else ''}answer "
            f"{last['answer']}): {' and '.join(last['outcome']['winners'])} won"
            + (f"; {moves}" if moves else "")
        )
    if data["champion"]:
        lines.append(f"champion: {data['champion']}")
    else:
        current = data["current"]
        if current:
            lines.append(_round_text(current, data["finalists"]))
        lines.append(f"next: {data['expecting']}")
    return "\n".join(lines)


def _round_text(current: Mapping[str, Any], finalists: list[str]) -> str:
    """The round in progress: its leader, then whatever the table has settled so far."""
    parts = [f"round {current['round']}: leader {current['leader']}"]
    if current["final"]:
        parts.append(f"final among {' and '.join(finalists)}")
    if current["question"] is not None and current["text"] is not None:
        kind = "chip-possession" if current["chip_possession"] else "standard"
        parts.append(f"question {current['question']} ({kind})")
    if current["units"]:
        parts.append(f"{current['units']} units")
    duel = current["duel"]
    if duel:
        parts.append(f"duel {duel['dueler']} v {duel['opponent']} for {duel['wager']}")
    return ", ".join(parts)


def deck(args: argparse.Namespace) -> Answer:
    loaded = load_deck(args.path)
    data = {
        "title": loaded.title,
        "cards": len(loaded.cards),
        "questions": loaded.questions,
        "chip_questions": sum(q.chip for card in loaded.cards for q in card.questions),
        "measured": sum(q.measured for card in loaded.cards for q in card.questions),
    }
    text = (
        f"{args.path}: {data['cards']} card(s), {data['questions']} questions "
        f"({data['chip_questions']} chip-possession, {data['measured']} in U.S. and metric units)"
    )
    return Answer(VERDICT, text, data)


def _read_lines(path: Path) -> list[str]:
    try:
        return read_limited_text(path, MAX_LOG, "a game's log").splitlines()
    except UserFileError as error:
        raise InvalidInput(str(error)) from None


# -- NAME=VALUE lists -------------------------------------------------------------------------


def _pairs(text: str, option: str) -> dict[str, str]:
    """``A=4,B=6`` as {player: value text}, in the order given; each player once."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        name, equals, value = item.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise InvalidInput(f"{option}: {item.strip()!r}: expected NAME=NUMBER, e.g. A=29029")
        player = check_name(name.strip())
        if _named_in(player, pairs):
            raise InvalidInput(f"{option}: player {player} is named twice")
        pairs[player] = value
    return pairs


def _named_in(player: str, pairs: Mapping[str, str]) -> bool:
    """Names are told apart as the session tells them: 'a' and 'A' are one player."""
    return player.casefold() in {name.casefold() for name in pairs}


def _one_pair(text: str, option: str) -> dict[str, str]:
    pairs = _pairs(text, option)
    if len(pairs) != 1:
        raise InvalidInput(f"{option} {text!r}: expected one NAME=NUMBER")
    return pairs


def _merge(groups: list[tuple[str, dict[str, str]]]) -> dict[str, str]:
    merged: dict[str, str] = {}
    named_by: dict[str, str] = {}
    for option, pairs in groups:
        for player, value in pairs.items():
            if _named_in(player, merged):
                first = named_by[player.casefold()]
                raise InvalidInput(f"{option}: player {player} is already named by {first}")
            merged[player] = value
            named_by[player.casefold()] = option
    return merged


def _guesses(texts: Mapping[str, str]) -> dict[str, Decimal]:
    return {player: parse_number(value, f"guess for {player}") for player, value in texts.items()}


def _in_order(moves: tuple[Move, ...], order: list[str]) -> list[Move]:
    return sorted(moves, key=lambda move: order.index(move.player))


def _moves_text(moves: tuple[Move, ...], order: list[str]) -> str:
    return ", ".join(f"{move.player} {move.spaces:+d}" for move in _in_order(moves, order))


_COMMANDS: dict[str, Callable[[argparse.Namespace], Answer]] = {
    "closest": closest,
    "duel": duel,
    "replay": replay,
    "deck": deck,
}
