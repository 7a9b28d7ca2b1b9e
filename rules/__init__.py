"""gametable's functional core: plain data in, decisions out.

No I/O (beyond reading this package's own constant data), no clock, no threads, no hidden
randomness. Every accepted action is serialisable and a log of actions replays to the same state.
"""
