"""The Mathematics Pentathlon (Division III): the monitor's rules core and the judges' checks.

One package per game family: nothing here imports GeoPlunge's modules (``rules.geoplunge``);
only the shared ``rules.errors``, ``rules.actions`` and ``rules.log``. A log's first action,
``pentathlon.start``, names the family (``FAMILY``), so a registry can pick it.

- ``monitor``: the monitor's game state machine (``start``, ``apply``), every game;
- ``contig``, ``fab_a_diffy``, ``juggle``, ``queens_guards``, ``stars_bars``: each game's goals,
  ends and time-limit adjudication;
- ``sentences``, ``reach``, ``strips``, ``juggle_board``: what a judge checks at the table;
- ``record``: the record of a game as plain JSON data; ``log``: replaying a log.
"""

FAMILY = "pentathlon"
