"""The built-in config the simulator plays each family on (``gametable sim`` without ``--config``).

The built-in config is a GeoPlunge table's: two seats. A family that cannot start on it gets what
it needs to start (R490): Guesstimation three seats (its least). STATES starts on it as it is,
with the shipped deck (R329). With ``--config`` the file is taken as it is.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_py.table.config import (
    Config,
    FamilyName,
    InputConfig,
    SeatConfig,
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
    return config
