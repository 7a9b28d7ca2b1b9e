"""A game of STATES: hands until one side reaches the target (15, or 75 in the alternate scoring).

``new_game(start)`` checks the players and the deck; ``apply_action(game, action)`` plays a hand
(rules/states/hand.py) and, when it ends, scores it: the winning side's points, the bonus
states it holds, and the next hand's first player from a lowest-scoring side (R311).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rules.actions import Action
from rules.atlas import default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.players import check_names
from rules.states import hand as hands
from rules.states.actions import (
    Claim,
    DealHand,
    Discard,
    Draw,
    Knock,
    PlaceWater,
    Reshuffle,
    StartStates,
)
from rules.states.connect import Connection
from rules.states.deck import BONUS_STATES, Deck, deck_from_entries, require_complete
from rules.states.hand import Hand, HandEnd, WinBy
from rules.states.scoring import POINT_TABLES, PointTable, Scoring

PLAYERS = range(2, 5)  # "STATES is a card game for 2 - 4 people"
TEAM_PLAYERS = 4  # two teams of two, partners across the table


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand: how it was won, and the points each side took."""

    number: int
    first: str
    end: HandEnd
    knocker: str | None
    points: tuple[int, ...]  # per side
    bonus: tuple[int, ...]  # the bonus-state points included in ``points``, per side
    claims: tuple[hands.ClaimRecord, ...]  # every claim of the hand, the winning one last


def side_names(players: tuple[str, ...], teams: bool) -> tuple[str, ...]:
    """Who scores: each player, or each team ("Ann & Cy": seats 1 and 3, "Bo & Di")."""
    if not teams:
        return players
    first, second, third, fourth = players
    return (f"{first} & {third}", f"{second} & {fourth}")


def side_index(players: tuple[str, ...], teams: bool, player: str) -> int:
    seat = players.index(player)
    return seat % 2 if teams else seat


def lowest_starters(
    players: tuple[str, ...], teams: bool, scores: tuple[int, ...], *, first_hand: bool
) -> tuple[str, ...]:
    """Who may play first in a hand: anyone in the first (the youngest), then a player of a
    side with the lowest score (R311, R315)."""
    if first_hand:
        return players
    lowest = min(scores)
    return tuple(p for p in players if scores[side_index(players, teams, p)] == lowest)


@dataclass(frozen=True, slots=True)
class StatesGame:
    players: tuple[str, ...]  # clockwise seat order
    teams: bool
    scoring: Scoring
    knocking: bool
    connect: Connection
    deck: Deck
    scores: tuple[int, ...]  # per side
    hand: Hand | None = None  # the hand in play; None between hands
    played: tuple[HandRecord, ...] = ()
    champion: str | None = None  # the side that won the game

    @property
    def points(self) -> PointTable:
        return POINT_TABLES[self.scoring]

    @property
    def sides(self) -> tuple[str, ...]:
        return side_names(self.players, self.teams)

    def side_of(self, player: str) -> int:
        return side_index(self.players, self.teams, player)

    @property
    def phase(self) -> str:
        if self.champion is not None:
            return "over"
        return "deal" if self.hand is None else self.hand.phase

    @property
    def may_start_next(self) -> tuple[str, ...]:
        """Who may play first in the next hand: anyone at first (the youngest), then a player
        of a side with the lowest score (the youngest of them, says the rulebook)."""
        return lowest_starters(self.players, self.teams, self.scores, first_hand=not self.played)

    @property
    def over(self) -> bool:
        return self.champion is not None


def expecting(game: StatesGame) -> str:
    if game.champion is not None:
        return f"nothing: {game.champion} won the game"
    if game.hand is None:
        return (
            f"the deal of hand {len(game.played) + 1} (states.deal), first player one of "
            f"{', '.join(game.may_start_next)}"
        )
    return hands.expecting(game.hand)


def new_game(start: StartStates) -> StatesGame:
    players = check_players(start.players, start.teams)
    deck = deck_from_entries(start.cards, start.water_cards)
    check_deck(deck, knocking=start.knocking, scoring=start.scoring)
    sides = 2 if start.teams else len(players)
    return StatesGame(
        players=players,
        teams=start.teams,
        scoring=start.scoring,
        knocking=start.knocking,
        connect=start.connect,
        deck=deck,
        scores=(0,) * sides,
    )


def check_deck(
    deck: Deck, *, knocking: bool, scoring: Scoring, knocking_off: str = "start with knocking off"
) -> None:
    """Knocking needs every card's colour and value, the alternate scoring every value (R300):
    the refusal names every card still missing."""
    if knocking:
        require_complete(
            deck, colours=True, values=True, needed_for="knocking", otherwise=knocking_off
        )
    if scoring is Scoring.ALTERNATE:
        require_complete(
            deck,
            colours=False,
            values=True,
            needed_for="the alternate scoring",
            otherwise="play the standard scoring",
        )


def check_players(players: tuple[str, ...], teams: bool) -> tuple[str, ...]:
    if teams and len(players) != TEAM_PLAYERS:
        raise InvalidInput(
            f"{len(players)} player(s) in teams: expected {TEAM_PLAYERS}, partners across the "
            "table (seats 1 and 3, 2 and 4)"
        )
    if len(players) not in PLAYERS:
        raise InvalidInput(
            f"{len(players)} player(s): expected {PLAYERS.start} to {PLAYERS.stop - 1}, in "
            "seat order"
        )
    check_names(players)
    return players


def apply_action(game: StatesGame, action: Action) -> StatesGame:
    if isinstance(action, StartStates):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if game.champion is not None:
        raise GameOver(f"the game is over ({game.champion} won): it accepts no more actions")
    if isinstance(action, DealHand):
        return _deal(game, action)
    hand = game.hand
    if hand is None:
        if not isinstance(action, Draw | PlaceWater | Knock | Claim | Discard | Reshuffle):
            raise IllegalAction(f"{action.kind!r} is not a STATES action")
        raise IllegalAction(f"{action.kind} is not allowed now: expected {expecting(game)}")
    match action:
        case Draw():
            hand = hands.draw(hand, action.player, action.source)
        case PlaceWater():
            hand = hands.place_water(hand, action.player, action.source)
        case Knock():
            hand = hands.knock(hand, action.player, game.deck)
        case Claim():
            hand = hands.claim(hand, action.player, action.states, game.connect, default_atlas())
        case Discard():
            hand = hands.discard(
                hand,
                action.player,
                action.card,
                pile=action.pile,
                block=action.block,
                deck=game.deck,
            )
        case Reshuffle():
            hand = hands.reshuffle(hand, action.order)
        case _:
            raise IllegalAction(f"{action.kind!r} is not a STATES action")
    if hand.end is None:
        return replace(game, hand=hand)
    return _score(game, hand, hand.end)


def _deal(game: StatesGame, action: DealHand) -> StatesGame:
    if game.hand is not None:
        raise IllegalAction(
            f"hand {game.hand.number} is still being played: expected {expecting(game)}"
        )
    if action.first not in game.players:
        raise InvalidInput(
            f"unknown player {action.first!r}: expected one of {', '.join(game.players)}"
        )
    allowed = game.may_start_next
    if action.first not in allowed:
        raise IllegalAction(
            f"{action.first} may not play first: the lowest score starts, expected one of "
            f"{', '.join(allowed)}"
        )
    number = len(game.played) + 1
    hand = hands.deal(
        number, game.players, action.first, action.order, game.deck, knocking=game.knocking
    )
    return replace(game, hand=hand)


def _score(game: StatesGame, hand: Hand, end: HandEnd) -> StatesGame:
    """File the hand with each side's points; crown a champion past the target (R316)."""
    table = game.points
    points = [0] * len(game.sides)
    bonus = [0] * len(game.sides)
    for side in sorted({game.side_of(player) for player in end.winners}):
        members = [p for p in game.players if game.side_of(p) == side]
        bonus[side] = table.bonus_points(_bonus_states(hand, members))
        points[side] = _win_points(game, table, end, side) + bonus[side]
    scores = tuple(score + gained for score, gained in zip(game.scores, points, strict=True))
    record = HandRecord(
        number=hand.number,
        first=hand.first,
        end=end,
        knocker=hand.knocker,
        points=tuple(points),
        bonus=tuple(bonus),
        claims=hand.claims,
    )
    game = replace(game, scores=scores, hand=None, played=(*game.played, record))
    best = max(scores)
    leaders = [side for side, score in zip(game.sides, scores, strict=True) if score == best]
    if best >= table.target and len(leaders) == 1:
        return replace(game, champion=leaders[0])
    return game


def _win_points(game: StatesGame, table: PointTable, end: HandEnd, side: int) -> int:
    if end.how is WinBy.CONNECT:
        assert end.claim is not None
        return table.connect_points(end.claim.states, game.deck)
    judged = end.showdown
    assert judged is not None
    winner = next(p for p in end.winners if game.side_of(p) == side)
    return table.knock_points(
        judged.best_of(winner).total,
        four_card_knock=winner == judged.knocker and judged.four_card,
    )


def _bonus_states(hand: Hand, members: Iterable[str]) -> int:
    return sum(card in BONUS_STATES for player in members for card in hand.in_front_of(player))
