"""The table's die and the deck's order, drawn from the table's seed (R470).

A roll is a function of the seed and the situation it is rolled in (the session, the round,
what it decides, the roll-off's attempt, the player), never of when or how often a button was
pressed: a replay rolls the same, and taking a roll back with UNDO and rolling again gives the
same number (UNDO is no second chance at the die).
"""

from __future__ import annotations

import hashlib

DIE_FACES = 6


def die_roll(seed: int, *situation: object) -> int:
    """The die's face, 1 to 6, for one situation of the game."""
    # 64 bits of SHA-256 modulo 6: a bias of under 1e-18
    return _draw(seed, *situation) % DIE_FACES + 1


def card_order(seed: int, session: int, cards: int) -> list[int]:
    """The deck shuffled for one game: the card indexes in the order they are read."""
    return sorted(range(cards), key=lambda card: _draw(seed, "deck", session, card))


def _draw(seed: int, *situation: object) -> int:
    """64 bits for one situation: SHA-256 gives the same on every Python and every machine."""
    key = "|".join(str(part) for part in (seed, *situation)).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
