"""``gametable states ...``: the judge's commands for STATES (docs/states.md).

``connect`` judges a "STATES!" claim (exit 0 connects, 1 does not), ``knock`` judges a knock
nobody answered (exit 0), ``deck`` checks a deck file (exit 0 complete, 1 incomplete for
knocking). Exit 2: bad input, one line on stderr. Every command takes ``--json``. Logs replay
with ``gametable replay LOG``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.cli_args import file_path, print_error
from firmware_py.user_files import MAX_DECK, UserFileError, read_limited_text
from rules.errors import InvalidInput, RuleError
from rules.players import check_name
from rules.states.connect import CLAIM_SIZE, Connection, check_connection
from rules.states.deck import BONUS_STATES, WATER, Deck, deck_from_toml, shipped_deck
from rules.states.hand import HAND_SIZE, read_card
from rules.states.knock import ColourTotal, knock_colour, showdown
from rules.states.scoring import POINT_TABLES, Scoring

VERDICT, NO, BAD_INPUT = 0, 1, 2
SHIPPED = "the shipped deck (rules/states/data/deck.toml)"


@dataclass(frozen=True, slots=True)
class Answer:
    code: int
    text: str
    data: dict[str, Any]


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``states`` and its sub-commands; ``args.run_command`` carries one out."""
    states = commands.add_parser("states", help="STATES: judge a claim or a knock")
    states.set_defaults(run_command=run)
    sub = states.add_subparsers(
        dest="states_command",
        metavar="{connect,knock,deck}",  # named in the error when it is missing
        required=True,
        parser_class=type(states),
    )

    connect = sub.add_parser("connect", help="do these 4 states border each other?")
    connect.add_argument("states", help="the 4 states shown, e.g. UT,CO,KS,OK")
    connect.add_argument(
        "--chain", action="store_true", help="they must form a chain (default: any group, R302)"
    )
    _add_json(connect)

    knock = sub.add_parser("knock", help="who wins a knock nobody answered by connecting")
    knock.add_argument(
        "--hand",
        action="append",
        required=True,
        metavar="NAME=CARDS",
        help="a player's hand, e.g. A=DE,OR,NM,water; once per player",
    )
    knock.add_argument("--knocker", help="who knocked (default: the first --hand)")
    knock.add_argument("--deck", type=file_path, help="the deck file (default: the shipped deck)")
    knock.add_argument("--alternate", action="store_true", help="the alternate scoring")
    _add_json(knock)

    deck = sub.add_parser("deck", help="check a deck file: which colours and values are missing")
    deck.add_argument(
        "path", nargs="?", type=file_path, help="the deck file (default: the shipped one)"
    )
    _add_json(deck)


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="answer with one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        answer = _COMMANDS[args.states_command](args)
    except RuleError as error:
        print_error(error)
        return BAD_INPUT
    print(json.dumps(answer.data) if args.json else answer.text)
    return answer.code


# -- connect ------------------------------------------------------------------------------------


def connect(args: argparse.Namespace) -> Answer:
    shown = args.states.split(",")
    if any(not item.strip() for item in shown):
        raise InvalidInput(
            f"{args.states!r}: expected {CLAIM_SIZE} states separated by commas, e.g. UT,CO,KS,OK"
        )
    rule = Connection.CHAIN if args.chain else Connection.GROUP
    check = check_connection(shown, rule)
    data = {
        "states": list(check.states),
        "rule": rule.value,
        "connects": check.connects,
        "chain": list(check.chain) if check.chain else None,
        "borders": [list(pair) for pair in check.borders],
        "pieces": [list(piece) for piece in check.pieces],
        "reason": check.reason,
    }
    return Answer(VERDICT if check.connects else NO, check.reason, data)


# -- knock --------------------------------------------------------------------------------------


def knock(args: argparse.Namespace) -> Answer:
    deck = _deck(args.deck)
    hands = _hands(args.hand)
    where = str(args.deck) if args.deck else SHIPPED
    _require_faces(hands, deck, where)
    waters = sum(cards.count(WATER) for _, cards in hands)
    if waters > deck.water_cards:  # the deck's count, as each state card is in one hand (R773)
        raise InvalidInput(
            f"--hand: {waters} water cards in the hands: expected at most the "
            f"{deck.water_cards} in {where}"
        )
    knocker = check_name(args.knocker) if args.knocker else hands[0][0]
    if knocker not in dict(hands):
        names = ", ".join(name for name, _ in hands)
        raise InvalidInput(f"--knocker {knocker}: expected one of the hands' players ({names})")
    if knock_colour(dict(hands)[knocker], deck) is None:
        raise InvalidInput(f"{knocker} cannot knock: expected 3 or 4 states of one colour")
    judged = showdown(hands, knocker, deck)
    table = POINT_TABLES[Scoring.ALTERNATE if args.alternate else Scoring.STANDARD]
    points = {
        winner: table.knock_points(
            judged.best_of(winner).total,
            four_card_knock=winner == knocker and judged.four_card,
        )
        for winner in judged.winners
    }
    first = judged.best_of(judged.winners[0])
    gained = points[judged.winners[0]]
    if len(judged.winners) == 1:
        who = f"{judged.winners[0]} wins with {first.colour} {first.total}: {gained} points"
    else:
        tied = " and ".join(judged.winners)
        who = f"{tied} tie for the highest total, {first.total}, and win {gained} points each"
    four = " with 4 cards of one colour" if judged.four_card else ""
    lines = [f"{knocker} knocked{four}: {who} (before any bonus state)"]
    lines += [f"  {player}: {_total_text(total)}" for player, total in judged.best]
    data = {
        "knocker": knocker,
        "four_card_knock": judged.four_card,
        "scoring": (Scoring.ALTERNATE if args.alternate else Scoring.STANDARD).value,
        "winners": list(judged.winners),
        "points": points,
        "totals": {
            player: {"colour": total.colour, "total": total.total, "cards": list(total.cards)}
            for player, total in judged.best
        },
    }
    return Answer(VERDICT, "\n".join(lines), data)


def _total_text(total: ColourTotal) -> str:
    if total.colour is None:
        return "no state, 0"
    return f"{total.colour} {total.total} ({', '.join(total.cards)})"


def _hands(texts: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    hands: list[tuple[str, tuple[str, ...]]] = []
    seen: dict[str, str] = {}
    for text in texts:
        name, equals, cards_text = text.partition("=")
        if not equals or not cards_text.strip():
            raise InvalidInput(f"--hand {text!r}: expected NAME=CARDS, e.g. A=DE,OR,NM,water")
        player = check_name(name.strip())
        if player.casefold() in (other.casefold() for other, _ in hands):
            raise InvalidInput(f"--hand: player {player} is given two hands")
        cards = tuple(read_card(card) for card in cards_text.split(","))
        if len(cards) > HAND_SIZE:
            raise InvalidInput(f"--hand {player}: {len(cards)} cards: expected at most {HAND_SIZE}")
        for card in cards:
            if card in BONUS_STATES:
                raise InvalidInput(
                    f"--hand {player}: {card} is a bonus state: it lies face up in front of its "
                    "holder, expected the cards in the hand"
                )
            if card != WATER and card in seen:
                raise InvalidInput(f"--hand {player}: {card} is in {seen[card]}'s hand too")
            seen[card] = player
        hands.append((player, cards))
    return hands


def _require_faces(hands: Sequence[tuple[str, tuple[str, ...]]], deck: Deck, where: str) -> None:
    for _, cards in hands:
        for card in cards:
            if card != WATER and (deck.colour(card) is None or deck.value(card) is None):
                raise InvalidInput(
                    f"{card} has no colour or value in {where}: expected --deck FILE with "
                    "every card's colour and value"
                )


# -- deck ---------------------------------------------------------------------------------------


def deck(args: argparse.Namespace) -> Answer:
    loaded = _deck(args.path)
    where = str(args.path) if args.path else SHIPPED
    missing = sorted({*loaded.without_colour, *loaded.without_value})
    data = {
        "path": str(args.path) if args.path else None,
        "water_cards": loaded.water_cards,
        "colours": list(loaded.colours),
        "without_colour": list(loaded.without_colour),
        "without_value": list(loaded.without_value),
        "complete": not missing,
    }
    known = len(loaded.faces) - len(missing)
    text = (
        f"{where}: {known} of {len(loaded.faces)} state cards have a colour and a value, "
        f"{loaded.water_cards} water cards"
    )
    if missing:
        text += f"; missing for knocking and the alternate scoring: {', '.join(missing)}"
    return Answer(NO if missing else VERDICT, text, data)


def _deck(path: Path | None) -> Deck:
    if path is None:
        return shipped_deck()
    try:
        text = read_limited_text(path, MAX_DECK, "a deck's TOML")
    except UserFileError as error:
        raise InvalidInput(str(error)) from None
    try:
        return deck_from_toml(text)
    except RuleError as error:
        raise InvalidInput(f"{path}: {error}") from None


_COMMANDS: dict[str, Callable[[argparse.Namespace], Answer]] = {
    "connect": connect,
    "knock": knock,
    "deck": deck,
}
