"""What the table's web page shows of a STATES game, beside the OLED's view.

Everyone sees it, so it holds nothing a player keeps hidden: a knock's cards and the best
totals appear only once the knock is judged. Claims are public (the claimant shows the four
states on the map), so each claim of the hand is listed with its verdict.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_py.families.states.context import Table
from firmware_py.table.prompts import EntrySpec, PageInfo, Prompt
from rules.states.hand import WinBy
from rules.states.table_game import TableClaim, TableGame, TableHandRecord

STATES_EXAMPLE = "UT,CO,KS,OK"
CARDS_EXAMPLE = "DE,OR,NM,water"


def with_page(
    prompt: Prompt, game: TableGame, table: Table, entry: EntrySpec | None = None
) -> Prompt:
    return replace(prompt, page=page_info(game, table), entry=entry)


def page_info(game: TableGame, table: Table) -> PageInfo:
    lines = [f"Target: {game.target} ({game.scoring.value} scoring)"]
    hand = game.hand
    if hand is not None:
        lines.append(f"Hand {hand.number}: {hand.first} played first")
        if hand.knocker is not None:
            state = "judged" if hand.won else "last round over" if hand.round_over else "last round"
            lines.append(f"{hand.knocker} knocked ({state})")
        lines += [_claim_line(claim) for claim in hand.claims]
        judged = hand.won.showdown if hand.won is not None else None
        if judged is not None:  # the knock's totals, public once every one is in
            totals = ", ".join(f"{player} {total.total}" for player, total in judged.best)
            lines.append(f"The knock: {totals}: {' and '.join(judged.winners)} won")
    missing = deck_gaps(game)
    if missing and game.phase in ("play", "last_round", "totals"):
        lines.append(
            f"The deck file lacks {len(missing)} cards' colours or values: a knock's totals "
            "are entered on the console (R329)."
        )
    if game.played:
        lines.append(_result_line(game.played[-1], game))
    if game.champion is not None:
        lines.append(f"{game.champion} won the game")
    rows = tuple((side, str(score)) for side, score in zip(game.sides, game.scores, strict=True))
    return PageInfo(
        names=table.options.names, lines=tuple(lines), rows=rows, heading=("Side", "Score")
    )


def with_deck_gaps(prompt: Prompt, game: TableGame) -> Prompt:
    """A step that takes typed hands lists every card the deck file lacks: a hand typed with
    one of them is refused (R329)."""
    missing = deck_gaps(game)
    if not missing:
        return prompt
    listed = f"Cards the deck file lacks (a hand typed with one is refused): {', '.join(missing)}"
    return replace(prompt, page=replace(prompt.page, lines=(*prompt.page.lines, listed)))


def deck_gaps(game: TableGame) -> tuple[str, ...]:
    """The cards a typed knock or hand cannot be judged with: the deck file lacks their colour
    or value (none when knocking is off: nothing is judged by colour then)."""
    if not game.knocking:
        return ()
    deck = game.deck
    return tuple(sorted({*deck.without_colour, *deck.without_value}))


def _claim_line(claim: TableClaim) -> str:
    shown = ", ".join(claim.states) if claim.states else "the dealer judged"
    verdict = "connect" if claim.connects else "do not connect"
    why = f" (overruled: {claim.reason})" if claim.by == "overruled" else ""
    return f"STATES! by {claim.player}: {shown}: {verdict}{why}"


def _result_line(record: TableHandRecord, game: TableGame) -> str:
    won = record.won
    winners = " and ".join(won.winners)
    gained = ", ".join(
        f"{side} +{points}"
        for side, points in zip(game.sides, record.points, strict=True)
        if points
    )
    if won.how is WinBy.CONNECT:
        return f"Hand {record.number}: {winners} connected: {gained}"
    judged = won.showdown
    assert judged is not None
    totals = ", ".join(f"{player} {total.total}" for player, total in judged.best)
    return f"Hand {record.number}: {winners} won {record.knocker}'s knock ({totals}): {gained}"
