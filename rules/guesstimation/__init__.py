"""Guesstimation: the closest numerical guess moves ahead; a Dueling Chip for one-on-one duels.

One game family, pure and self-contained (docs/guesstimation.md): ``numbers`` reads guesses and
answers as exact decimals, ``scoring`` judges a round or a duel, ``rolloff`` settles die-roll
ties, ``session`` is the game as a state machine over the ``actions``, ``replay`` rebuilds it
from a log and ``deck`` checks a question deck given as plain data.
"""
