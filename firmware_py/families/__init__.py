"""The game families the table runs, one registration line each.

The table kernel never imports a family: the program's entry points call ``install()`` and the
kernel finds a family by the name in its settings (or in a journal).
"""

from __future__ import annotations

from firmware_py.families.geoplunge.table import FAMILY as GEOPLUNGE
from firmware_py.families.guesstimation.table import FAMILY as GUESSTIMATION
from firmware_py.families.pentathlon.table import FAMILY as PENTATHLON
from firmware_py.families.states.table import FAMILY as STATES
from firmware_py.table.family import TableFamily, register

FAMILIES: tuple[TableFamily, ...] = (GEOPLUNGE, PENTATHLON, GUESSTIMATION, STATES)


def install() -> None:
    for family in FAMILIES:
        register(family)
