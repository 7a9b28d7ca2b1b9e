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
- No import circle in ``rules/``, ``drivers/`` or ``firmware_py/`` (issue 27): no module imports,
  by any path, a module that imports it back. An import inside a function or under
  ``TYPE_CHECKING`` only hides a circle (the two halves still need each other), so it counts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Set
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


def _from_base(relative: Path, node: ast.ImportFrom) -> str:
    """The absolute module ``from ... import`` takes its names from."""
    base = node.module or ""
    if not node.level:
        return base
    module = _module_name(relative)
    package = module if relative.name == "__init__.py" else module.rpartition(".")[0]
    anchor = package.split(".")
    anchor = anchor[: len(anchor) - node.level + 1]
    return ".".join([*anchor, base]) if base else ".".join(anchor)


def imports_of(relative: Path, source: str) -> Iterator[tuple[int, str]]:
    """Every module a file imports (absolute names; relative imports resolved)."""
    tree = ast.parse(source, filename=str(relative))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(relative, node)
            yield node.lineno, base
            for alias in node.names:  # "from rules import geoplunge" imports a package too
                yield node.lineno, f"{base}.{alias.name}"


def _deepest_known(name: str, known: Set[str]) -> str | None:
    """The module ``import name`` loads last: the deepest of name's dotted prefixes known."""
    parts = name.split(".")
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts) if parts else None


def modules_imported(relative: Path, source: str, known: Set[str]) -> set[str]:
    """The known modules a file imports: for ``from package import module`` the module (its
    package's ``__init__`` runs first, as it does for any module in the package)."""
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(source, filename=str(relative))):
        if isinstance(node, ast.Import):
            found.update(_deepest_known(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(relative, node)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else _deepest_known(base, known))
    return {module for module in found if module is not None} - {_module_name(relative)}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another in a circle (a strongly connected
    component of more than one module), sorted; Tarjan's algorithm, without recursion."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(graph):
        if root in order:
            continue
        work = [(root, iter(sorted(graph[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None and target in graph:
                if target not in order:
                    order[target] = low[target] = len(order)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], order[target])
                continue
            if target is not None:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == order[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return sorted(cycles)


def _circle_in_words(group: list[str], graph: dict[str, set[str]]) -> str:
    members = set(group)
    edges = [f"{a} -> {b}" for a in group for b in sorted(graph[a] & members)]
    return f"import circle among {', '.join(group)}: {'; '.join(edges)}"


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


def import_graph() -> dict[str, set[str]]:
    paths = {
        _module_name(path.relative_to(ROOT)): path
        for folder in ("rules", "drivers", "firmware_py")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    known = set(paths)
    return {
        module: modules_imported(path.relative_to(ROOT), path.read_text(encoding="utf-8"), known)
        for module, path in paths.items()
    }


def test_no_module_imports_itself_back_by_any_path() -> None:
    graph = import_graph()
    assert [_circle_in_words(group, graph) for group in import_cycles(graph)] == []


def test_an_import_circle_is_found_however_long() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"], ["e", "e2"]]


def test_modules_that_import_one_way_make_no_circle() -> None:
    assert import_cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from firmware_py.pkg import mod\n", {"firmware_py.pkg.mod"}),
        ("from firmware_py.pkg import helper\n", {"firmware_py.pkg"}),
        ("from . import mod\n", {"firmware_py.pkg.mod"}),
        ("import firmware_py.pkg.mod\n", {"firmware_py.pkg.mod"}),
        ("def later() -> None:\n    from .mod import x\n", {"firmware_py.pkg.mod"}),
        ("if TYPE_CHECKING:\n    from .mod import X\n", {"firmware_py.pkg.mod"}),
        ("import json\n", set()),
    ],
)
def test_an_import_names_the_module_it_loads(source: str, expected: set[str]) -> None:
    known = {"firmware_py", "firmware_py.pkg", "firmware_py.pkg.mod", "firmware_py.pkg.here"}
    assert modules_imported(Path("firmware_py/pkg/here.py"), source, known) == expected


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
