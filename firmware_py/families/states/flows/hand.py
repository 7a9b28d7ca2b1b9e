"""The hand at the table: who plays first, the play (a shout window open the whole hand, the
knock on the seat's second input), the dealer's menu for a seat without working buttons, the
knock's last round, the bonus states' holders, the game's end.

The table follows no turns (R322): the players play their cards as at any table, and the
table hears a "STATES!" as a shout (the kernel's arbiter: first by edge time, as GeoPlunge) and
a knock as the seat's knock input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.states.context import Table, act
from firmware_py.families.states.page import with_page
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import Kind, Outcome, Prompt, choice
from rules.actions import encode
from rules.states.table_actions import BeginHand, BonusHolders, LastRoundOver
from rules.states.table_game import TableGame

NOBODY = "nobody"


def first_player_prompt(game: TableGame, table: Table) -> Prompt:
    """The first hand: anyone (the youngest, R311); later, a player of a lowest side."""
    number = len(game.played) + 1
    who = "the youngest" if not game.played else "lowest score"
    options = [act(table.label(player), BeginHand(player)) for player in game.may_start_next]
    prompt = choice(table.key(number, "first"), f"Hand {number} first:\n{who}", options)
    return with_page(prompt, game, table)


def play_prompt(game: TableGame, scratch: Mapping[str, Any], table: Table) -> Prompt:
    """The hand in play, or the last round after a knock: any seat may shout "STATES!";
    before a knock, any seat may knock."""
    hand = game.hand
    assert hand is not None
    options = table.options
    knocker = hand.knocker
    ignored = int(scratch.get("ignored", 0))
    key = table.key(hand.number, "last" if knocker else "play", len(hand.claims), ignored)
    may_knock = game.knocking and knocker is None

    def pressed(seat: str, what: str) -> Outcome | None:
        if what == "stand" and may_knock:
            return Outcome("knock", None, {"knocker": seat})
        return None

    def shouted(decision: ShoutDecision) -> Outcome:
        seats = [seat for seat in sorted(decision.shouters) if options.name_of(seat) != knocker]
        if not seats:  # the knocker has no turn left to claim on: the window opens again
            return Outcome("ignored", None, {"ignored": ignored + 1})
        if len(seats) == 1:
            return Outcome(decision.result, None, {"claimant": seats[0]})
        return Outcome(decision.result, None, {"claimants": seats})  # a tie: the dealer picks

    if knocker is None:
        text = f"Hand {hand.number}\n{'STATES! or knock' if may_knock else 'STATES!'}"
        hint, go = "NEXT: dealer's menu", None
    else:
        text = f"{knocker}\nknocked: last round"
        hint, go = "GO:over NEXT:menu", act("round over", LastRoundOver())
    prompt = Prompt(
        key=key,
        kind=Kind.SHOUT,
        text=text,
        hint=hint,
        window=key,
        on_shout=shouted,
        on_press=pressed,
        go=go,
        next=Outcome("menu", None, {"menu": True}),
    )
    return with_page(prompt, game, table)


def menu_prompt(game: TableGame, table: Table) -> Prompt:
    """For a seat without working buttons: the dealer names the claimant or the knocker."""
    hand = game.hand
    assert hand is not None
    options = table.options
    outcomes = [
        Outcome(f"{seat}: STATES!", None, {"claimant": seat})
        for seat in options.seats
        if options.name_of(seat) != hand.knocker
    ]
    if game.knocking and hand.knocker is None:
        outcomes += [Outcome(f"{seat}: knocks", None, {"knocker": seat}) for seat in options.seats]
    outcomes.append(Outcome("back", None, {"menu": False}))
    prompt = choice(
        table.key(hand.number, "menu", len(hand.claims)), "Dealer: who claims\nor knocks?", outcomes
    )
    return with_page(prompt, game, table)


def bonus_prompt(game: TableGame, scratch: Mapping[str, Any], table: Table) -> Prompt:
    """The hand is won: who has AK, then HI, face up in front of them (only a winning side's
    bonus states score, so only its players are offered: R326)."""
    hand = game.hand
    assert hand is not None and hand.won is not None
    winners = hand.won.winners
    holders = [p for p in game.players if any(game.side_of(p) == game.side_of(w) for w in winners)]
    asked = "hi" if "ak" in scratch else "ak"

    def holder(name: str | None) -> Outcome:
        if asked == "ak":
            return Outcome(name or NOBODY, None, {"ak": name})
        return act(name or NOBODY, BonusHolders(ak=scratch["ak"], hi=name))

    options = [holder(None), *(holder(p) for p in holders)]
    won = " and ".join(winners)
    prompt = choice(
        table.key(hand.number, "bonus", asked),
        f"{won[:21]}\n{asked.upper()} in front of?",
        [Outcome(table.label(o.label), o.action, o.scratch) for o in options],
    )
    return with_page(prompt, game, table)


def game_over_prompt(game: TableGame, table: Table) -> Prompt:
    """The champion; GO starts a new game with the same players in the same journal."""
    champion = game.champion
    assert champion is not None
    if game.teams:
        seats = "+".join(
            table.options.seats[game.players.index(p)]
            for p in game.players
            if game.sides[game.side_of(p)] == champion
        )
        champion = f"Team {seats}"
    prompt = Prompt(
        key=table.key("over"),
        kind=Kind.NOTICE,
        text=f"{champion}\nwins the game!",
        hint="GO: new game",
        go=Outcome("new game", new_session=encode(table.options.start())),
    )
    return with_page(prompt, game, table)
