"""drivers/ are adapters only: they never reach into the shell or the rules core."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DRIVERS = Path(__file__).parents[2] / "drivers"
FORBIDDEN = ("firmware_py", "rules")


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(DRIVERS.glob("*.py")), ids=lambda path: path.name)
def test_drivers_import_neither_firmware_py_nor_rules(path: Path) -> None:
    assert imported_packages(path).isdisjoint(FORBIDDEN)
