"""Properties of STATES over random games played by a legal, random but sensible player
(tests/states_policy.py), sometimes interrupted by any STATES action at all.

- every legal action is accepted, and a game always ends, at its target;
- replaying a game's log rebuilds the same game;
- scores only grow; every card is always in exactly one place; hands hold 4 cards between turns;
- a refused action raises a typed rule error only.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, replace
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import families
from rules.actions import Action, action_class, decode, encode, known_kinds
from rules.errors import RuleError
from rules.log import dump_log
from rules.states.actions import (
    Claim,
    DealHand,
    Discard,
    Draw,
    Knock,
    PlaceWater,
    StartStates,
)
from rules.states.connect import Connection
from rules.states.game import StatesGame, apply_action, new_game
from rules.states.hand import HAND_SIZE, Hand
from rules.states.replay import replay
from rules.states.scoring import Scoring
from tests.soak import sized
from tests.states_helpers import EXAMPLE_DECK
from tests.states_policy import next_action
from tests.strategies import for_action

GAMES = settings(
    max_examples=sized(ci=10, soak=40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
FUZZ = settings(GAMES, max_examples=sized(ci=10, soak=25))
MAX_ACTIONS = 10_000  # the longest of 400 sample games took about 1 100
LONG_HAND = 600  # a passive player's actions: enough for the deck to run out and be reshuffled
STATES_KINDS = tuple(k for k in known_kinds() if k.startswith("states.") and k != "states.start")


@st.composite
def starts(draw: st.DrawFn) -> StartStates:
    teams = draw(st.booleans())
    players = ("A", "B", "C", "D") if teams else ("A", "B", "C", "D")[: draw(st.integers(2, 4))]
    return StartStates(
        players,
        teams=teams,
        scoring=draw(st.sampled_from(Scoring)),
        knocking=draw(st.booleans()),
        connect=draw(st.sampled_from(Connection)),
        cards=EXAMPLE_DECK.entries(),
        water_cards=draw(st.integers(0, 6)),
    )


@dataclass(frozen=True, slots=True)
class Played:
    log: list[Action]  # the start action, then every accepted action
    games: list[StatesGame]  # the game after each accepted action


def play_out(
    start: StartStates,
    rng: random.Random,
    *,
    passive_for: int = 0,
    fuzz: st.DataObject | None = None,
) -> Played:
    """Play until the game ends: the first ``passive_for`` actions never win a hand; with
    ``fuzz``, one action in ten is any STATES action (kept only if accepted)."""
    game = new_game(start)
    played = Played([start], [game])
    while not game.over and len(played.log) < MAX_ACTIONS:
        if fuzz is not None and rng.random() < 0.1:
            action = _any_action(game, fuzz, rng)
            try:
                game = apply_action(game, action)
            except RuleError:
                continue
        else:
            action = next_action(game, rng, passive=len(played.log) < passive_for)
            game = apply_action(game, action)  # a legal action: refusing it fails the test
        played.log.append(action)
        played.games.append(game)
    return played


def _any_action(game: StatesGame, fuzz: st.DataObject, rng: random.Random) -> Action:
    """Any STATES action, its fields drawn at random but now and then naming a player of the
    game (or not) and a card it holds (or not), so some are accepted."""
    kind = STATES_KINDS[rng.randrange(len(STATES_KINDS))]
    action = fuzz.draw(for_action(action_class(kind)))
    names = (*game.players, "Zed")
    held = [*game.hand.held_by(game.hand.turn), "TX"] if game.hand is not None else ["TX"]
    if isinstance(action, Draw | PlaceWater | Knock | Claim | Discard):
        action = replace(action, player=rng.choice(names))
    if isinstance(action, DealHand):
        action = replace(action, first=rng.choice(names))
    if isinstance(action, Discard):
        action = replace(action, card=rng.choice(held))
    if isinstance(action, Claim) and len(held) >= 4:
        action = replace(action, states=tuple(rng.sample(held, 4)))
    return action


def _rng(seed: int) -> random.Random:
    return random.Random(seed)


SEEDS = st.integers(0, 2**32 - 1)


@GAMES
@given(start=starts(), seed=SEEDS)
def test_a_random_legal_game_is_played_to_its_end(start: StartStates, seed: int) -> None:
    assert play_out(start, _rng(seed)).games[-1].over


@GAMES
@given(start=starts(), seed=SEEDS)
def test_a_game_ends_when_one_side_first_leads_at_or_past_its_target(
    start: StartStates, seed: int
) -> None:
    played = play_out(start, _rng(seed))
    for game in played.games:
        best = max(game.scores)
        decided = best >= game.points.target and game.scores.count(best) == 1
        assert game.over == decided
        if decided:
            assert game.champion == game.sides[game.scores.index(best)]


@GAMES
@given(start=starts(), seed=SEEDS)
def test_scores_only_grow(start: StartStates, seed: int) -> None:
    games = play_out(start, _rng(seed)).games
    for before, after in pairwise(games):
        assert all(b <= a for b, a in zip(before.scores, after.scores, strict=True))


@GAMES
@given(start=starts(), seed=SEEDS)
def test_replaying_a_games_log_rebuilds_the_same_game(start: StartStates, seed: int) -> None:
    played = play_out(start, _rng(seed), passive_for=LONG_HAND)
    log = [decode(json.loads(json.dumps(encode(action)))) for action in played.log]
    assert replay(log) == played.games[-1]


@GAMES
@given(start=starts(), seed=SEEDS)
def test_the_registry_replays_a_states_log_as_a_states_game(start: StartStates, seed: int) -> None:
    played = play_out(start, _rng(seed))
    family, game = families.replay_log(dump_log(played.log).splitlines())
    assert family.name == "states"
    assert game == played.games[-1]


def _places(hand: Hand) -> Counter[str]:
    cards = Counter(hand.deck)
    for group in (*hand.piles, *hand.held, *hand.in_front):
        cards.update(group)
    return cards


@GAMES
@given(start=starts(), seed=SEEDS)
def test_every_card_is_always_in_exactly_one_place(start: StartStates, seed: int) -> None:
    """Deck, piles, hands and the cards in front of the players hold the deck, through long
    hands whose deck runs out and is reshuffled."""
    played = play_out(start, _rng(seed), passive_for=LONG_HAND)
    full = Counter(played.games[0].deck.cards)
    for game in played.games:
        if game.hand is not None:
            assert _places(game.hand) == full


@GAMES
@given(start=starts(), seed=SEEDS)
def test_players_hold_4_cards_except_the_player_who_has_drawn(
    start: StartStates, seed: int
) -> None:
    """... and one fewer while a bonus state drawn as the deck's last card awaits its
    replacement from the reshuffled deck."""
    for game in play_out(start, _rng(seed), passive_for=LONG_HAND).games:
        hand = game.hand
        if hand is None:
            continue
        for player in hand.seats:
            drawn = player == hand.turn and hand.drawn
            owed = player == hand.owed
            assert len(hand.held_by(player)) == HAND_SIZE + drawn - owed


@FUZZ
@given(start=starts(), seed=SEEDS, data=st.data())
def test_any_action_at_any_time_raises_only_rule_errors_and_the_log_replays(
    start: StartStates, seed: int, data: st.DataObject
) -> None:
    played = play_out(start, _rng(seed), passive_for=200, fuzz=data)
    assert replay(played.log) == played.games[-1]
