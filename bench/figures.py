"""A bench figure, a section of figures with how they were measured, and the printed table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    value: str
    target: str
    met: bool | None  # None: informational


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    how: str  # printed under the table: what was measured, and how
    figures: list[Figure]


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (no interpolation): p99 of 100 samples is the largest."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(seconds: float, digits: int = 3) -> str:
    return f"{seconds * 1e3:.{digits}f} ms"


def met_text(met: bool | None) -> str:
    return "-" if met is None else ("yes" if met else "NO")


def print_table(sections: Sequence[Section]) -> None:
    figures = [figure for section in sections for figure in section.figures]
    name_w = max(len("figure"), *(len(f.name) for f in figures))
    value_w = max(len("value"), *(len(f.value) for f in figures))
    target_w = max(len("target"), *(len(f.target) for f in figures))
    print(f"{'figure':<{name_w}}  {'value':>{value_w}}  {'target':>{target_w}}  met")
    for section in sections:
        print(f"-- {section.title} ".ljust(name_w + value_w + target_w + 9, "-"))
        for f in section.figures:
            row = f"{f.name:<{name_w}}  {f.value:>{value_w}}  {f.target:>{target_w}}"
            print(f"{row}  {met_text(f.met)}")


def print_methods(sections: Sequence[Section]) -> None:
    print("\nHow each section was measured:")
    for section in sections:
        print(f"- {section.title}: {section.how}")
