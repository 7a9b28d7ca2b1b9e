"""STATES logs: JSON Lines whose first action is ``states.start``.

``start`` and ``apply`` are the family's session protocol (``rules/families.py``), ``replay_log``
rebuilds a game from a log, naming the line of the first fault, and ``summary`` is the game as
plain JSON data: the scores, the hand in play (every card, as the log knows them) and each
finished hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.actions import Action
from rules.errors import InvalidLog
from rules.log import parse_log, replay_actions
from rules.states.actions import FAMILY, StartStates
from rules.states.game import HandRecord, StatesGame, apply_action, expecting, new_game
from rules.states.hand import ClaimRecord, Hand
from rules.states.knock import ColourTotal

FIRST_LINE = "states.start"


def start(action: Action) -> StatesGame:
    if not isinstance(action, StartStates):
        raise InvalidLog(f"a STATES log starts with {FIRST_LINE}, not {action.kind!r}")
    return new_game(action)


def apply(game: StatesGame, action: Action) -> StatesGame:
    return apply_action(game, action)


def replay(actions: Iterable[Action]) -> StatesGame:
    return replay_actions(actions, start, apply, FIRST_LINE)


def replay_log(lines: Iterable[str]) -> StatesGame:
    """Replay a log, naming the action of the first one the rules refuse."""
    return replay_actions(parse_log(lines), start, apply, FIRST_LINE, locate=True)


def summary(game: StatesGame) -> dict[str, Any]:
    """The game so far as plain JSON data."""
    deck = game.deck
    return {
        "family": FAMILY,
        "players": list(game.players),
        "teams": [list(game.players[0::2]), list(game.players[1::2])] if game.teams else None,
        "scoring": game.scoring.value,
        "target": game.points.target,
        "knocking": game.knocking,
        "connect": game.connect.value,
        "deck": {
            "water_cards": deck.water_cards,
            "colours": list(deck.colours),
            "without_colour": list(deck.without_colour),
            "without_value": list(deck.without_value),
        },
        "scores": dict(zip(game.sides, game.scores, strict=True)),
        "phase": game.phase,
        "expecting": expecting(game),
        "champion": game.champion,
        "over": game.over,
        "hand": _hand_json(game.hand) if game.hand is not None else None,
        "hands": [_record_json(record, game) for record in game.played],
    }


def _hand_json(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "first": hand.first,
        "turn": hand.turn,
        "deck": len(hand.deck),
        "piles": [list(pile) for pile in hand.piles],  # bottom first: the last card is on top
        "blocked": [hand.blocked(pile) for pile in (1, 2)],
        "held": {p: list(cards) for p, cards in zip(hand.seats, hand.held, strict=True)},
        "in_front": {p: list(cards) for p, cards in zip(hand.seats, hand.in_front, strict=True)},
        "knocker": hand.knocker,
        "last_turns": list(hand.last_turns),
        "claims": [_claim_json(claim) for claim in hand.claims],
    }


def _record_json(record: HandRecord, game: StatesGame) -> dict[str, Any]:
    end = record.end
    judged = end.showdown
    return {
        "number": record.number,
        "first": record.first,
        "how": end.how.value,
        "winners": list(end.winners),
        "knocker": record.knocker,
        "connected": list(end.claim.states) if end.claim else None,
        "totals": {p: _total_json(total) for p, total in judged.best} if judged else None,
        "four_card_knock": judged.four_card if judged else None,
        "points": dict(zip(game.sides, record.points, strict=True)),
        "bonus": dict(zip(game.sides, record.bonus, strict=True)),
        "claims": [_claim_json(claim) for claim in record.claims],
    }


def _claim_json(claim: ClaimRecord) -> dict[str, Any]:
    return {
        "player": claim.player,
        "states": list(claim.states),
        "connects": claim.connects,
        "reason": claim.reason,
    }


def _total_json(total: ColourTotal) -> dict[str, Any]:
    return {"colour": total.colour, "total": total.total, "cards": list(total.cards)}
