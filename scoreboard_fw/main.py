"""What MicroPython runs at power-up on the reference scoreboard (copied to the Pico as
``:main.py``; docs/hardware.md, "The reference board")."""

from scoreboard_fw.panel import run

run()
