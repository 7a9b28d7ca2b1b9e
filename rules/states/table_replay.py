"""STATES table-mode logs: JSON Lines whose first action is ``states.table_start``.

The session protocol (``start``, ``apply``) for the table and ``gametable replay``, and
``summary``: the game as plain JSON data (the scores, the hand in play, each finished hand).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.actions import Action
from rules.errors import InvalidLog
from rules.log import replay_actions
from rules.states.actions import FAMILY
from rules.states.knock import ColourTotal
from rules.states.table_actions import StartTable
from rules.states.table_game import (
    TableClaim,
    TableGame,
    TableHand,
    TableHandRecord,
    apply_table_action,
    expecting,
    new_table_game,
)

FIRST_LINE = "states.table_start"


def start(action: Action) -> TableGame:
    if not isinstance(action, StartTable):
        raise InvalidLog(f"a STATES table log starts with {FIRST_LINE}, not {action.kind!r}")
    return new_table_game(action)


def apply(game: TableGame, action: Action) -> TableGame:
    return apply_table_action(game, action)


def replay(actions: Iterable[Action]) -> TableGame:
    return replay_actions(actions, start, apply, FIRST_LINE)


def summary(game: TableGame) -> dict[str, Any]:
    """The game so far as plain JSON data."""
    return {
        "family": FAMILY,
        "mode": "table",
        "players": list(game.players),
        "teams": [list(game.players[0::2]), list(game.players[1::2])] if game.teams else None,
        "scoring": game.scoring.value,
        "target": game.target,
        "knocking": game.knocking,
        "connect": game.connect.value,
        "scores": dict(zip(game.sides, game.scores, strict=True)),
        "phase": game.phase,
        "expecting": expecting(game),
        "champion": game.champion,
        "over": game.over,
        "hand": _hand_json(game.hand, game) if game.hand is not None else None,
        "hands": [_record_json(record, game) for record in game.played],
    }


def _hand_json(hand: TableHand, game: TableGame) -> dict[str, Any]:
    won = hand.won
    return {
        "number": hand.number,
        "first": hand.first,
        "knocker": hand.knocker,
        "knock": _total_json(hand.knock) if hand.knock is not None else None,
        "four_card_knock": hand.four_card if hand.knocker else None,
        "last_round_over": hand.round_over,
        "totals": {player: _total_json(total) for player, total in hand.totals},
        "claims": [_claim_json(claim) for claim in hand.claims],
        "won": None if won is None else {"how": won.how.value, "winners": list(won.winners)},
    }


def _record_json(record: TableHandRecord, game: TableGame) -> dict[str, Any]:
    won = record.won
    judged = won.showdown
    return {
        "number": record.number,
        "first": record.first,
        "how": won.how.value,
        "winners": list(won.winners),
        "knocker": record.knocker,
        "connected": list(won.claim.states) if won.claim else None,
        "totals": {p: _total_json(total) for p, total in judged.best} if judged else None,
        "four_card_knock": judged.four_card if judged else None,
        "points": dict(zip(game.sides, record.points, strict=True)),
        "bonus": dict(zip(game.sides, record.bonus, strict=True)),
        "bonus_states": dict(record.holders),
        "claims": [_claim_json(claim) for claim in record.claims],
    }


def _claim_json(claim: TableClaim) -> dict[str, Any]:
    return {
        "player": claim.player,
        "states": list(claim.states),
        "connects": claim.connects,
        "judged_by": claim.by,
        "reason": claim.reason,
        "values": claim.values,
    }


def _total_json(total: ColourTotal) -> dict[str, Any]:
    """A total typed as a number has no colour and no cards."""
    return {"colour": total.colour, "total": total.total, "cards": list(total.cards)}
