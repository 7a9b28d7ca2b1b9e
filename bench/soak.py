"""``make soak``: the durability figures at length (2 000 kills, long bounce storms)."""

from __future__ import annotations

from bench.durability import durability
from bench.figures import print_methods, print_table
from firmware_py import families


def main() -> int:
    families.install()
    section = durability(kills=2000, storm_presses=200)
    print_table([section])
    print_methods([section])
    return 0 if all(figure.met is not False for figure in section.figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
