"""The game families the table runs, one registration line each.

The table kernel never imports a family: the program's entry points call ``install()`` and the
kernel finds a family by the name in its settings (or in a journal). A family's module is
imported the first time it is asked for, so ``gametable run`` loads only the configured one
(each family is several MB of a Pi's memory).
"""

from __future__ import annotations

import importlib

from firmware_py.table.family import TableFamily, register_loader

MODULES = {
    "geoplunge": "firmware_py.families.geoplunge.table",
    "pentathlon": "firmware_py.families.pentathlon.table",
    "guesstimation": "firmware_py.families.guesstimation.table",
    "states": "firmware_py.families.states.table",
}
NAMES: tuple[str, ...] = tuple(MODULES)


def _loader(module: str) -> TableFamily:
    family: TableFamily = importlib.import_module(module).FAMILY
    return family


def install() -> None:
    for name, module in MODULES.items():
        register_loader(name, lambda module=module: _loader(module))  # type: ignore[misc]
