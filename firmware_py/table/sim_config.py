"""The built-in config the simulator plays each family on (``gametable sim`` without ``--config``).

The built-in config is a GeoPlunge table's: two seats, and STATES's shipped deck, which has no
card values. A family that cannot start on it gets what it needs to start (R490): Guesstimation
three seats (its least), STATES connect-only play. With ``--config`` the file is taken as it is.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_py.table.config import (
    Config,
    FamilyName,
    InputConfig,
    SeatConfig,
    StatesConfig,
    default_config,
)

# Seat C on free GPIOs, so the simulator's config is one that `config check` would pass.
SEAT_C = SeatConfig(name="C", stand=InputConfig(pin=16), shout=InputConfig(pin=20), led=21)


def simulator_config(family: FamilyName | None) -> Config:
    """The built-in config, set up for ``family`` (None: the built-in family, GeoPlunge)."""
    config = default_config()
    if family is None or family == config.table.family:
        return config
    config = replace(config, table=replace(config.table, family=family))
    if family == "guesstimation":
        return replace(config, seats=(*config.seats, SEAT_C))
    if family == "states":
        return replace(config, states=StatesConfig(knocking=False))
    return config
