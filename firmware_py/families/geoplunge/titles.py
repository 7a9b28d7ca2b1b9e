"""The games' names as the OLED's title line and the big line have room for them."""

from __future__ import annotations

SHORT_TITLES = {1: "BORDER-UP", 2: "STATE IQ", 3: "DASHING", 4: "GAME 4", 5: "CHUMMY"}
