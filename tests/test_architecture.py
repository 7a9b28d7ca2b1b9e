"""Imports point one way (README, "Layout"): the build fails on an import against the grain.

- ``rules/`` (the pure core) imports neither the shell nor the drivers; ``drivers/`` imports
  neither the shell nor the rules.
- A game family (a package in ``rules/`` other than the tournament) imports only itself and the
  shared rules modules (``rules.errors``, ``rules.actions``, ``rules.atlas``, ...): never another
  family, never the tournament.
- The table kernel (``firmware_py/table``) imports no family, neither the family's rules nor its
  table flows, and nothing of the director or the judge.
- A family's table flows (``firmware_py/families/<family>``) import the kernel, the drivers, their
  own family's rules and the shared rules modules, never another family.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_A_FAMILY = {"tournament"}


def _packages(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}


RULES_FAMILIES = _packages(ROOT / "rules") - NOT_A_FAMILY
TABLE_FAMILIES = _packages(ROOT / "firmware_py" / "families")


def _module_name(relative: Path) -> str:
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(relative: Path, source: str) -> Iterator[tuple[int, str]]:
    """Every module a file imports (absolute names; relative imports resolved)."""
    tree = ast.parse(source, filename=str(relative))
    module = _module_name(relative)
    package = module if relative.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            yield node.lineno, base
            for alias in node.names:  # "from rules import geoplunge" imports a package too
                yield node.lineno, f"{base}.{alias.name}"


def _family_of(module: str, root: str, families: set[str]) -> str | None:
    parts = module.split(".")
    prefix = root.split(".")
    if (
        parts[: len(prefix)] == prefix
        and len(parts) > len(prefix)
        and parts[len(prefix)] in families
    ):
        return parts[len(prefix)]
    return None


def check_file(
    relative: Path,
    source: str,
    rules_families: set[str] = RULES_FAMILIES,
    table_families: set[str] = TABLE_FAMILIES,
) -> list[str]:
    """The imports of one file (path relative to the repository) that go against the grain."""
    found = []
    here = _module_name(relative)
    for line, target in imports_of(relative, source):
        where = f"{relative}:{line} imports {target}"
        if here.startswith(("rules", "drivers")) and target.startswith("firmware_py"):
            found.append(f"{where}: the core and the drivers never import the shell")
        if here.startswith("drivers") and target.startswith("rules"):
            found.append(f"{where}: a driver knows no rules")
        mine = _family_of(here, "rules", rules_families)
        if mine is not None:
            theirs = _family_of(target, "rules", rules_families)
            if theirs not in (None, mine):
                found.append(f"{where}: family {mine} imports family {theirs}")
            if target.startswith("rules.tournament"):
                found.append(f"{where}: a family never imports the tournament")
        if here.startswith("firmware_py.table"):
            if _family_of(target, "rules", rules_families) is not None:
                found.append(f"{where}: the table kernel imports a family's rules")
            if target.startswith(
                ("firmware_py.families", "firmware_py.director", "firmware_py.judge")
            ):
                found.append(
                    f"{where}: the table kernel imports a family, the director or the judge"
                )
        mine = _family_of(here, "firmware_py.families", table_families)
        if mine is not None:
            theirs = _family_of(target, "firmware_py.families", table_families)
            rules_family = _family_of(target, "rules", rules_families)
            if theirs not in (None, mine) or rules_family not in (None, mine):
                found.append(f"{where}: table family {mine} imports another family")
    return found


def violations() -> list[str]:
    found = []
    for folder in ("rules", "drivers", "firmware_py"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += check_file(path.relative_to(ROOT), path.read_text(encoding="utf-8"))
    return found


def test_imports_point_one_way() -> None:
    assert violations() == []


def test_there_are_families_to_check() -> None:
    """Guards the test above against a rename that would leave it checking nothing."""
    assert "geoplunge" in RULES_FAMILIES
    assert "geoplunge" in TABLE_FAMILIES


@pytest.mark.parametrize(
    ("here", "source", "expected"),
    [
        ("rules/other/bad.py", "from rules.geoplunge.match import MatchState\n", "imports family"),
        ("rules/geoplunge/bad.py", "from ..other import rules_of_other\n", "imports family"),
        ("rules/geoplunge/bad.py", "import firmware_py.cli\n", "never import the shell"),
        ("rules/geoplunge/bad.py", "from rules.tournament import pairing\n", "tournament"),
        ("firmware_py/table/bad.py", "from rules.geoplunge import replay\n", "kernel"),
        ("firmware_py/table/bad.py", "from firmware_py.families import geoplunge\n", "kernel"),
        ("firmware_py/table/bad.py", "from ..families.geoplunge import flows\n", "kernel"),
        ("firmware_py/table/bad.py", "from firmware_py.judge import demo\n", "kernel"),
        ("firmware_py/families/geoplunge/bad.py", "from rules.other import x\n", "another"),
        ("firmware_py/families/other/bad.py", "from ..geoplunge import flows\n", "another"),
        ("drivers/bad.py", "from rules.errors import RuleError\n", "driver"),
    ],
)
def test_an_import_against_the_grain_is_caught(here: str, source: str, expected: str) -> None:
    found = check_file(
        Path(here),
        source,
        rules_families={"geoplunge", "other"},
        table_families={"geoplunge", "other"},
    )
    assert found, f"{here}: {source.strip()} was not caught"
    assert expected in found[0]


def test_shared_rules_modules_and_own_family_imports_are_allowed() -> None:
    source = "from rules.errors import RuleError\nfrom rules.geoplunge.match import MatchState\n"
    assert check_file(Path("rules/geoplunge/games/x.py"), source) == []
    kernel = "from drivers.leds import SeatLight\nfrom rules.actions import Action\n"
    assert check_file(Path("firmware_py/table/x.py"), kernel) == []
