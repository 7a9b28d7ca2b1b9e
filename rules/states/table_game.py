"""STATES in table mode: real cards dealt by hand, the table keeps the game (R320).

The table never sees a hand, so this mode keeps what it is told and judges what it can: the
hands and who starts each (the lowest score, R311), each "STATES!" claim (the four states shown
are checked with ``connect.check_connection``; the dealer may overrule with a reason, or judge
with YES/NO when nothing was typed), a knock (its cards checked with ``knock.knock_colour``, or
its total as entered), the end of the knock's last round, every other player's best colour
total (``knock.judge_totals`` decides), the bonus states' holders, the scores and the champion.
Pure: the same actions replay to the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.actions import Action
from rules.atlas import default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.states.connect import Connection, check_connection, read_claim
from rules.states.deck import BONUS_STATES, WATER, Deck, deck_from_entries
from rules.states.game import (
    check_deck,
    check_players,
    lowest_starters,
    side_index,
    side_names,
)
from rules.states.hand import HAND_SIZE, WinBy, read_card
from rules.states.knock import (
    KNOCK_CARDS,
    ColourTotal,
    Showdown,
    best_colour,
    judge_totals,
    knock_colour,
)
from rules.states.scoring import POINT_TABLES, PointTable, Scoring
from rules.states.table_actions import (
    BeginHand,
    BestTotal,
    BonusHolders,
    ClaimAtTable,
    KnockAtTable,
    LastRoundOver,
    StartTable,
)

TARGETS = range(1, 1000)  # a target score the table takes
CARD_TOTALS = range(1, 4 * 99 + 1)  # up to four cards of value 1 to 99
CLAIM_VALUES = range(4, CARD_TOTALS.stop)  # four cards' values
MAX_REASON = 60  # an overrule's reason: one short line


@dataclass(frozen=True, slots=True)
class TableClaim:
    player: str
    states: tuple[str, ...]  # the four shown; () when the dealer judged without them
    connects: bool
    by: str  # "rules", "overruled" (the dealer against the rules' check) or "dealer"
    reason: str  # the rules' line, or the dealer's reason
    values: int | None = None  # the four cards' values, when the alternate scoring adds them


@dataclass(frozen=True, slots=True)
class Won:
    """How a hand was won, before the bonus states are counted."""

    how: WinBy
    winners: tuple[str, ...]  # seat order
    points: tuple[int, ...]  # per side, the bonus states not included
    claim: TableClaim | None = None
    showdown: Showdown | None = None


@dataclass(frozen=True, slots=True)
class TableHand:
    number: int
    first: str
    knocker: str | None = None
    knock: ColourTotal | None = None  # the knocker's best colour, as the knock gave it
    four_card: bool = False
    round_over: bool = False  # the knock's last round is over, nobody connected
    totals: tuple[tuple[str, ColourTotal], ...] = ()  # the other players' best, as entered
    claims: tuple[TableClaim, ...] = ()
    won: Won | None = None  # waiting for the bonus states' holders


@dataclass(frozen=True, slots=True)
class TableHandRecord:
    number: int
    first: str
    won: Won
    knocker: str | None
    points: tuple[int, ...]  # per side, the bonus states included
    bonus: tuple[int, ...]  # the bonus states' share of ``points``, per side
    holders: tuple[tuple[str, str], ...]  # (bonus state, its holder)
    claims: tuple[TableClaim, ...]


@dataclass(frozen=True, slots=True)
class TableGame:
    players: tuple[str, ...]  # clockwise seat order
    teams: bool
    scoring: Scoring
    knocking: bool
    connect: Connection
    deck: Deck
    target: int
    scores: tuple[int, ...]  # per side
    hand: TableHand | None = None
    played: tuple[TableHandRecord, ...] = ()
    champion: str | None = None

    @property
    def points(self) -> PointTable:
        return POINT_TABLES[self.scoring]

    @property
    def sides(self) -> tuple[str, ...]:
        return side_names(self.players, self.teams)

    def side_of(self, player: str) -> int:
        return side_index(self.players, self.teams, player)

    def partners(self, player: str) -> tuple[str, ...]:
        """The players of ``player``'s side, ``player`` included, in seat order."""
        side = self.side_of(player)
        return tuple(p for p in self.players if self.side_of(p) == side)

    @property
    def may_start_next(self) -> tuple[str, ...]:
        return lowest_starters(self.players, self.teams, self.scores, first_hand=not self.played)

    @property
    def phase(self) -> str:
        """deal, play, last_round (after a knock), totals (the knock is judged), bonus (the
        hand is won: who holds AK and HI?) or over."""
        hand = self.hand
        if self.champion is not None:
            return "over"
        if hand is None:
            return "deal"
        if hand.won is not None:
            return "bonus"
        if hand.knocker is None:
            return "play"
        return "totals" if hand.round_over else "last_round"

    @property
    def over(self) -> bool:
        return self.champion is not None

    @property
    def waiting_for_totals(self) -> tuple[str, ...]:
        """After a knock's last round: the players whose best colour total is not in yet."""
        hand = self.hand
        if hand is None or hand.knocker is None or not hand.round_over:
            return ()
        entered = {player for player, _ in hand.totals}
        return tuple(p for p in self.players if p != hand.knocker and p not in entered)


def expecting(game: TableGame) -> str:
    """What the game waits for, for a person."""
    phase = game.phase
    hand = game.hand
    if phase == "over":
        return f"nothing: {game.champion} won the game"
    if phase == "deal":
        return (
            f"hand {len(game.played) + 1} (states.table_hand), first player one of "
            f"{', '.join(game.may_start_next)}"
        )
    assert hand is not None
    if phase == "bonus":
        return "who holds AK and HI (states.table_bonus)"
    if phase == "totals":
        return f"{game.waiting_for_totals[0]}'s best colour total (states.table_total)"
    if phase == "last_round":
        return (
            f"a claim (states.table_claim) or the end of the last round after {hand.knocker}'s "
            "knock (states.table_last_round)"
        )
    knock = " or a knock (states.table_knock)" if game.knocking else ""
    return f"a claim (states.table_claim){knock}"


def new_table_game(start: StartTable) -> TableGame:
    players = check_players(start.players, start.teams)
    deck = deck_from_entries(start.cards, start.water_cards)
    # A knock can be entered without the deck (the dealer's totals), so only the alternate
    # scoring, which values every claim from the deck, needs it complete to start (R329).
    check_deck(deck, knocking=False, scoring=start.scoring)
    target = POINT_TABLES[start.scoring].target if start.target is None else start.target
    if target not in TARGETS:
        raise InvalidInput(
            f"target {target}: expected a score from {TARGETS.start} to {TARGETS.stop - 1}"
        )
    return TableGame(
        players=players,
        teams=start.teams,
        scoring=start.scoring,
        knocking=start.knocking,
        connect=start.connect,
        deck=deck,
        target=target,
        scores=(0,) * len(side_names(players, start.teams)),
    )


def apply_table_action(game: TableGame, action: Action) -> TableGame:
    if isinstance(action, StartTable):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if game.champion is not None:
        raise GameOver(f"the game is over ({game.champion} won): it accepts no more actions")
    match action:
        case BeginHand():
            return _begin(game, action)
        case ClaimAtTable():
            return _claim(game, action)
        case KnockAtTable():
            return _knock(game, action)
        case LastRoundOver():
            _require(game, action.kind, "last_round")
            assert game.hand is not None
            return replace(game, hand=replace(game.hand, round_over=True))
        case BestTotal():
            return _best_total(game, action)
        case BonusHolders():
            return _bonus(game, action)
    raise IllegalAction(f"{action.kind!r} is not an action of STATES in table mode")


# --- The hand --------------------------------------------------------------------------------


def _begin(game: TableGame, action: BeginHand) -> TableGame:
    _require(game, action.kind, "deal")
    _known(game, action.first)
    allowed = game.may_start_next
    if action.first not in allowed:
        raise IllegalAction(
            f"{action.first} may not play first: the lowest score starts, expected one of "
            f"{', '.join(allowed)}"
        )
    return replace(game, hand=TableHand(number=len(game.played) + 1, first=action.first))


def _claim(game: TableGame, action: ClaimAtTable) -> TableGame:
    _require(game, action.kind, "play", "last_round")
    _known(game, action.player)
    hand = game.hand
    assert hand is not None
    if action.player == hand.knocker:
        raise IllegalAction(
            f"{action.player} knocked and has no more turns this hand: expected a claim by "
            "another player"
        )
    claim = _judged_claim(game, action) if action.states else _dealers_claim(game, action)
    hand = replace(hand, claims=(*hand.claims, claim))
    if not claim.connects:
        return replace(game, hand=hand)  # a wrong claim: play continues (R304)
    values = claim.values if game.points.adds_card_values else None
    points = game.points.connect + (values or 0)
    won = Won(WinBy.CONNECT, (action.player,), _for_side(game, action.player, points), claim)
    return replace(game, hand=replace(hand, won=won))


def _judged_claim(game: TableGame, action: ClaimAtTable) -> TableClaim:
    """The four states shown, checked by the rules core; the dealer may overrule it."""
    if action.connects is not None or action.values is not None:
        raise InvalidInput(
            "a claim with its four states is judged by the rules core: expected no connects "
            "or values with them (the dealer overrules with a reason)"
        )
    codes = read_claim(action.states)
    check = check_connection(codes, game.connect, default_atlas())
    values = _values(codes, game.deck) if game.points.adds_card_values else None
    if action.overruled is None:
        return TableClaim(action.player, codes, check.connects, "rules", check.reason, values)
    reason = _reason(action.overruled)
    return TableClaim(action.player, codes, not check.connects, "overruled", reason, values)


def _dealers_claim(game: TableGame, action: ClaimAtTable) -> TableClaim:
    """The dealer's YES/NO, the four cards' values with a YES in the alternate scoring."""
    if action.overruled is not None:
        raise InvalidInput(
            "nothing to overrule: the dealer judged the claim, expected no overruled reason "
            "without the four states"
        )
    if action.connects is None:
        raise InvalidInput(
            "a claim needs the four states shown or the dealer's verdict: expected states "
            "or connects"
        )
    needs_values = action.connects and game.points.adds_card_values
    if needs_values and (action.values is None or action.values not in CLAIM_VALUES):
        raise InvalidInput(
            f"values {action.values}: the alternate scoring adds the four cards' values, "
            f"expected their total, {CLAIM_VALUES.start} to {CLAIM_VALUES.stop - 1}"
        )
    if not needs_values and action.values is not None:
        raise InvalidInput(
            "values: expected none (only a connection in the alternate scoring adds the cards' "
            "values)"
        )
    verdict = "connect" if action.connects else "do not connect"
    return TableClaim(
        action.player, (), action.connects, "dealer", f"the dealer: {verdict}", action.values
    )


def _knock(game: TableGame, action: KnockAtTable) -> TableGame:
    _require(game, action.kind, "play")
    _known(game, action.player)
    hand = game.hand
    assert hand is not None
    if not game.knocking:
        raise IllegalAction("knocking is off in this game: expected a claim")
    if action.cards and action.total is not None:
        raise InvalidInput("a knock is its cards or its total: expected one of them, not both")
    if action.cards:
        if action.four_card:
            raise InvalidInput("four_card: expected none with the cards (they say it)")
        cards = _hand_cards(action.cards, least=KNOCK_CARDS)
        _require_faces(cards, game.deck, "the knock")
        knocking = knock_colour(cards, game.deck)
        if knocking is None:
            raise IllegalAction(
                f"{action.player} cannot knock with {', '.join(cards)}: expected 3 or 4 states "
                "of one colour"
            )
        best, four_card = best_colour(cards, game.deck), len(knocking.cards) == HAND_SIZE
    elif action.total is not None:
        if action.total not in range(KNOCK_CARDS, CARD_TOTALS.stop):
            raise InvalidInput(
                f"knock total {action.total}: expected the knocking cards' total, "
                f"{KNOCK_CARDS} to {CARD_TOTALS.stop - 1}"
            )
        best, four_card = ColourTotal(None, action.total, ()), action.four_card
    else:
        raise InvalidInput("a knock needs the knocker's cards or their total: expected one")
    knocked = replace(hand, knocker=action.player, knock=best, four_card=four_card)
    return replace(game, hand=knocked)


def _best_total(game: TableGame, action: BestTotal) -> TableGame:
    _require(game, action.kind, "totals")
    _known(game, action.player)
    hand = game.hand
    assert hand is not None and hand.knocker is not None and hand.knock is not None
    if action.player not in game.waiting_for_totals:
        why = "knocked" if action.player == hand.knocker else "has one in already"
        raise IllegalAction(
            f"{action.player} {why}: expected the best total of "
            f"{', '.join(game.waiting_for_totals)}"
        )
    if action.cards and action.total is not None:
        raise InvalidInput("a best total is the cards or the number: expected one, not both")
    if action.cards:
        cards = _hand_cards(action.cards, least=1)
        _require_faces(cards, game.deck, f"{action.player}'s best total")
        best = best_colour(cards, game.deck)
    elif action.total is not None:
        if action.total not in range(0, CARD_TOTALS.stop):
            raise InvalidInput(
                f"total {action.total}: expected the highest total in one colour, 0 to "
                f"{CARD_TOTALS.stop - 1}"
            )
        best = ColourTotal(None, action.total, ())
    else:
        raise InvalidInput("a best total needs the player's cards or the number: expected one")
    hand = replace(hand, totals=(*hand.totals, (action.player, best)))
    game = replace(game, hand=hand)
    if game.waiting_for_totals:
        return game
    return replace(game, hand=replace(hand, won=_judge_knock(game, hand)))


def _judge_knock(game: TableGame, hand: TableHand) -> Won:
    assert hand.knocker is not None and hand.knock is not None
    entered = dict(hand.totals)
    best = tuple(
        (player, hand.knock if player == hand.knocker else entered[player])
        for player in game.players
    )
    judged = judge_totals(best, hand.knocker, four_card=hand.four_card)
    points = [0] * len(game.sides)
    for winner in judged.winners:
        side = game.side_of(winner)
        if points[side]:
            continue  # partners tied above the knocker: the team scores once (R315)
        four = winner == judged.knocker and judged.four_card
        points[side] = game.points.knock_points(judged.best_of(winner).total, four_card_knock=four)
    return Won(WinBy.KNOCK, judged.winners, tuple(points), showdown=judged)


def _bonus(game: TableGame, action: BonusHolders) -> TableGame:
    _require(game, action.kind, "bonus")
    hand = game.hand
    assert hand is not None and hand.won is not None
    holders = tuple(
        (state, holder) for state, holder in zip(BONUS_STATES, (action.ak, action.hi), strict=True)
        if holder is not None
    )  # fmt: skip
    for _, holder in holders:
        _known(game, holder)
    won = hand.won
    winning_sides = {game.side_of(player) for player in won.winners}
    bonus = [0] * len(game.sides)
    for _, holder in holders:
        side = game.side_of(holder)
        if side in winning_sides:
            bonus[side] += game.points.bonus_points(1)
    points = tuple(base + extra for base, extra in zip(won.points, bonus, strict=True))
    record = TableHandRecord(
        number=hand.number,
        first=hand.first,
        won=won,
        knocker=hand.knocker,
        points=points,
        bonus=tuple(bonus),
        holders=holders,
        claims=hand.claims,
    )
    scores = tuple(score + gained for score, gained in zip(game.scores, points, strict=True))
    game = replace(game, scores=scores, hand=None, played=(*game.played, record))
    best = max(scores)
    leaders = [side for side, score in zip(game.sides, scores, strict=True) if score == best]
    if best >= game.target and len(leaders) == 1:  # sides level at the top play on (R316)
        return replace(game, champion=leaders[0])
    return game


# --- Helpers ---------------------------------------------------------------------------------


def _for_side(game: TableGame, player: str, points: int) -> tuple[int, ...]:
    side = game.side_of(player)
    return tuple(points if index == side else 0 for index in range(len(game.sides)))


def _values(codes: Sequence[str], deck: Deck) -> int:
    values = [deck.value(code) for code in codes]
    assert all(value is not None for value in values)  # the alternate scoring checked (R300)
    return sum(value for value in values if value is not None)


def _hand_cards(texts: Sequence[str], *, least: int) -> tuple[str, ...]:
    """Cards a player typed: states or water cards, each state once, at most a hand's four."""
    if not least <= len(texts) <= HAND_SIZE:
        raise InvalidInput(
            f"{len(texts)} card(s): expected {least} to {HAND_SIZE} cards from the hand"
        )
    cards = tuple(read_card(text) for text in texts)
    for card in cards:
        if card in BONUS_STATES:
            raise InvalidInput(
                f"{card} is a bonus state, face up in front of its player: expected the cards "
                "in the hand"
            )
        if card != WATER and cards.count(card) > 1:
            raise InvalidInput(f"{card} is given twice: expected each card once")
    return cards


def unknown_faces(cards: Sequence[str], deck: Deck) -> tuple[str, ...]:
    """The states among ``cards`` whose colour or value the deck file does not give."""
    return tuple(
        card
        for card in cards
        if card != WATER and (deck.colour(card) is None or deck.value(card) is None)
    )


def _require_faces(cards: Sequence[str], deck: Deck, judged: str) -> None:
    """A typed hand is judged from the deck: refuse it, naming every card the deck file lacks,
    rather than guess (R300); the dealer's total on the console needs no deck (R329)."""
    missing = unknown_faces(cards, deck)
    if missing:
        raise IllegalAction(
            f"{judged} cannot be judged from typed cards: the deck file has no colour or value "
            f"for {', '.join(missing)}; expected the dealer to enter the total on the console "
            "(or a deck file with these cards)"
        )


def _reason(text: str) -> str:
    reason = " ".join(text.split())
    if not reason or len(reason) > MAX_REASON or not reason.isprintable():
        raise InvalidInput(
            f"overruled {text!r}: expected the dealer's reason, 1 to {MAX_REASON} characters"
        )
    return reason


def _known(game: TableGame, player: str) -> None:
    if player not in game.players:
        raise InvalidInput(f"unknown player {player!r}: expected one of {', '.join(game.players)}")


def _require(game: TableGame, kind: str, *phases: str) -> None:
    if game.phase not in phases:
        raise IllegalAction(f"{kind} is not allowed now: expected {expecting(game)}")
