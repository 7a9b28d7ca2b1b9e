"""The tournament record's schema: its tables as SQLite statements, its versions, and what
each upgrade adds (``TournamentDB`` runs them: ``create_record``, ``upgrade_for_*``). Every table
is append-only: triggers refuse an update or a delete.

Schema 2 adds ``table_events``: each match result a table reported through the hub, by table
and journal id, with what the hub made of it (docs/hub.md), so each is applied once. A schema-1
record is read as it is; the hub gives it the table when it starts on it. Schema 3 adds a
Mathematics Pentathlon event's tables (``record/pentathlon.py``): a record of schema 1 or 2 gets
them when a Pentathlon event is started in it.

``team_short_names`` holds each team's short name (R830-R832): made with the teams; a record
made before it is given the table, and the names derived then, when the hub starts on it. The
schema version stays, as for the hub's ledger: a reader that does not know the table misses
only the short names (it shows the full ones).
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.director.record import attendance as record_attendance
from firmware_py.director.record import closing as record_closing
from firmware_py.director.record import rooms as record_rooms

# 2: table_events (the hub's); 3: the Pentathlon event's tables; 4: rounds' pairings undone;
# 5: what each playoff game decided (R968)
SCHEMA_VERSION = 5
HUB_SCHEMA_VERSION = 2
PENTATHLON_SCHEMA_VERSION = 3
UNDO_SCHEMA_VERSION = 4
DECISIONS_SCHEMA_VERSION = 5
READABLE_SCHEMAS = (1, 2, 3, 4, 5)
TABLE_SOURCE, DIRECTOR_SOURCE = "table", "director"
# What the hub made of a table's reported result (docs/hub.md).
OUTCOMES = ("recorded", "amended", "unchanged", "conflict", "superseded", "refused", "not recorded")

_TABLES = (
    "tournament",
    "teams",
    "rounds",
    "pairings",
    "byes",
    "results",
    "playoff_games",
    "playoff_voids",
    "champions",
    "protests",
)


def append_only(tables: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        f"""CREATE TRIGGER {table}_{verb}_refused BEFORE {verb.upper()} ON {table}
        BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for table in tables
        for verb in ("update", "delete")
    )


_OUTCOME_CHECK = ", ".join(f"'{outcome}'" for outcome in OUTCOMES)
HUB_SCHEMA = (
    f"""CREATE TABLE table_events (
        id INTEGER PRIMARY KEY,
        table_number INTEGER NOT NULL CHECK (table_number >= 1),
        journal TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        decided_at TEXT NOT NULL,
        received_at TEXT NOT NULL,
        round INTEGER,
        a_points INTEGER,
        b_points INTEGER,
        outcome TEXT NOT NULL CHECK (outcome IN ({_OUTCOME_CHECK})),
        note TEXT NOT NULL,
        UNIQUE (table_number, journal, seq))""",
    *append_only(["table_events"]),
)
_PENTATHLON_TABLES = ("pentathlon", "pentathletes", "pentathlon_seats", "pentathlon_results")
PENTATHLON_SCHEMA = (
    """CREATE TABLE pentathlon (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        config TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL)""",
    """CREATE TABLE pentathletes (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        division TEXT NOT NULL,
        school TEXT NOT NULL)""",
    """CREATE TABLE pentathlon_seats (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL CHECK (round >= 1),
        table_number INTEGER NOT NULL CHECK (table_number >= 1),
        game TEXT NOT NULL,
        player_a INTEGER NOT NULL REFERENCES pentathletes(id),
        player_b INTEGER NOT NULL REFERENCES pentathletes(id),
        seated_by TEXT NOT NULL,
        seated_at TEXT NOT NULL,
        UNIQUE (round, table_number),
        CHECK (player_a != player_b))""",
    """CREATE TABLE pentathlon_results (
        id INTEGER PRIMARY KEY,
        seat INTEGER NOT NULL REFERENCES pentathlon_seats(id),
        winner TEXT CHECK (winner IN ('A', 'B')),
        how TEXT NOT NULL,
        a_score INTEGER,
        b_score INTEGER,
        challenges TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('table', 'director')),
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        supersedes INTEGER UNIQUE REFERENCES pentathlon_results(id),
        reason TEXT,
        CHECK ((supersedes IS NULL) = (reason IS NULL)))""",
    "CREATE UNIQUE INDEX one_first_pentathlon_result ON pentathlon_results(seat) "
    "WHERE supersedes IS NULL",
    *append_only(_PENTATHLON_TABLES),
)
# What the hub looks up for each result a table reports (R725): a match's or a seat's results,
# and the latest seat at a table for a game. Without them each lookup reads the whole table.
RESULT_INDEXES = {"results_of_pairing": "results(pairing)"}
# A round's pairing undone (R820): its rows stay in ``rounds``, ``pairings`` and ``byes``, marked
# withdrawn; ``rounds.number`` is a row's key (its slot), which is the round's number unless
# the round was paired again after an undo: then ``round_slots`` says which round a new slot is.
_UNDO_TABLES = ("round_withdrawals", "round_slots")
UNDO_SCHEMA = (
    """CREATE TABLE round_withdrawals (
        slot INTEGER PRIMARY KEY REFERENCES rounds(number),
        withdrawn_at TEXT NOT NULL,
        withdrawn_by TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0))""",
    """CREATE TABLE round_slots (
        slot INTEGER PRIMARY KEY REFERENCES rounds(number),
        round INTEGER NOT NULL CHECK (round >= 1))""",
    *append_only(_UNDO_TABLES),
)
# What each playoff game decided as it was played (R968): the game's winner advances, or its
# loser is out. A row per game recorded since schema 5; a game of an older record has none and
# is replayed by its two teams only, as it was before.
DECISIONS_SCHEMA = (
    """CREATE TABLE playoff_decisions (
        game INTEGER PRIMARY KEY REFERENCES playoff_games(id),
        decides TEXT NOT NULL CHECK (decides IN ('the winner advances', 'the loser is out')))""",
    *append_only(["playoff_decisions"]),
)
PENTATHLON_INDEXES = {
    "pentathlon_results_of_seat": "pentathlon_results(seat)",
    "pentathlon_seats_at_table": "pentathlon_seats(table_number, game, round)",
}


def create_indexes(indexes: dict[str, str]) -> tuple[str, ...]:
    return tuple(f"CREATE INDEX IF NOT EXISTS {name} ON {on}" for name, on in indexes.items())


# Each team's short name, for the tables' OLEDs (R830-R832): given at registration or derived,
# unique without case; when and by whom it was kept (with the teams, or when the hub started).
SHORT_NAMES_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS team_short_names (
        team INTEGER PRIMARY KEY REFERENCES teams(id),
        short TEXT NOT NULL,
        short_key TEXT NOT NULL UNIQUE,
        given INTEGER NOT NULL CHECK (given IN (0, 1)),
        kept_at TEXT NOT NULL,
        kept_by TEXT NOT NULL)""",
    *(
        statement.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS")
        for statement in append_only(["team_short_names"])
    ),
)

SCHEMA = (
    """CREATE TABLE tournament (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        config TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL)""",
    """CREATE TABLE teams (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        school TEXT NOT NULL,
        players TEXT NOT NULL)""",
    """CREATE TABLE rounds (
        number INTEGER PRIMARY KEY CHECK (number >= 1),
        kind TEXT NOT NULL,
        minutes INTEGER NOT NULL,
        paired_at TEXT NOT NULL,
        paired_by TEXT NOT NULL)""",
    """CREATE TABLE pairings (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL REFERENCES rounds(number),
        table_number INTEGER NOT NULL CHECK (table_number >= 1),
        team_a INTEGER NOT NULL REFERENCES teams(id),
        team_b INTEGER NOT NULL REFERENCES teams(id),
        UNIQUE (round, table_number),
        CHECK (team_a != team_b))""",
    """CREATE TABLE byes (
        round INTEGER PRIMARY KEY REFERENCES rounds(number),
        team INTEGER NOT NULL REFERENCES teams(id))""",
    """CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        pairing INTEGER NOT NULL REFERENCES pairings(id),
        a_points INTEGER NOT NULL CHECK (a_points >= 0),
        b_points INTEGER NOT NULL CHECK (b_points >= 0),
        source TEXT NOT NULL CHECK (source IN ('table', 'director')),
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        supersedes INTEGER UNIQUE REFERENCES results(id),
        reason TEXT,
        CHECK ((supersedes IS NULL) = (reason IS NULL)))""",
    "CREATE UNIQUE INDEX one_first_result ON results(pairing) WHERE supersedes IS NULL",
    """CREATE TABLE playoff_games (
        id INTEGER PRIMARY KEY,
        team_a INTEGER NOT NULL REFERENCES teams(id),
        team_b INTEGER NOT NULL REFERENCES teams(id),
        winner INTEGER NOT NULL REFERENCES teams(id),
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        CHECK (winner IN (team_a, team_b)))""",
    """CREATE TABLE playoff_voids (
        id INTEGER PRIMARY KEY,
        through_game INTEGER NOT NULL REFERENCES playoff_games(id),
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        reason TEXT NOT NULL)""",
    """CREATE TABLE champions (
        id INTEGER PRIMARY KEY,
        team INTEGER NOT NULL REFERENCES teams(id),
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        supersedes INTEGER UNIQUE REFERENCES champions(id),
        reason TEXT,
        CHECK ((supersedes IS NULL) = (reason IS NULL)))""",
    "CREATE UNIQUE INDEX one_first_champion ON champions((1)) WHERE supersedes IS NULL",
    """CREATE TABLE protests (
        id INTEGER PRIMARY KEY,
        round INTEGER REFERENCES rounds(number),
        table_number INTEGER,
        lodged_by TEXT NOT NULL,
        lodged_at TEXT NOT NULL,
        text TEXT NOT NULL)""",
    *append_only(_TABLES),
    *create_indexes(RESULT_INDEXES),
    *HUB_SCHEMA,
    *PENTATHLON_SCHEMA,
    *create_indexes(PENTATHLON_INDEXES),
    *SHORT_NAMES_SCHEMA,
    *UNDO_SCHEMA,
    *DECISIONS_SCHEMA,
    *record_closing.SCHEMA,
    *record_attendance.SCHEMA,
    *record_rooms.SCHEMA,
)
