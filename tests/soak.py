"""The suite's long campaigns in two sizes: ``make test`` runs each at the size CI can afford
on two cores, ``make soak`` (GAMETABLE_SOAK=1) runs the same checks at length. Nothing is
only in one of them: the soak form is the same test with more examples, kills or trials."""

from __future__ import annotations

import os

SOAK = os.environ.get("GAMETABLE_SOAK") == "1"


def sized(ci: int, soak: int) -> int:
    """``ci`` under ``make test``, ``soak`` under ``make soak``."""
    return soak if SOAK else ci
