"""Every test sees the game families registered, as the program's entry points do."""

from __future__ import annotations

from firmware_py import families

families.install()
