"""A Mathematics Pentathlon event in the tournament record: the Pentathletes (each in a
division), who plays whom at which table in each round (the seating, with the round's game),
one game result per seat, and the standings per game and overall, per division.

Plain data in, decisions out. The highlight sheets say who wins, ties or loses a game, not
what a result is worth in a tournament: the points are the event's configuration (R264,
default win 2, tie 1, loss 0), and the standings' order is a ruling too (R265).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.formats import MAX_ROUNDS
from rules.tournament.teams import clean_text, name_key

DIVISIONS = ("I", "II", "III", "IV", "V")  # the Mathematics Pentathlon's five divisions
CSV_HEADER = ("name", "division", "school")
MAX_PLAYERS = 2048
MAX_NAME = 80
MAX_POINTS = 100
MAX_SCORE = 100_000  # any game's final score (a running score, empty spaces, games won)
MAX_CHALLENGES = 99
MAX_TABLE = 999  # the numbers a hub table can have (firmware_py.table.hub_wire.MAX_TABLE)
SIDES = ("A", "B")
TIES = (How.TIME_LIMIT, How.AGREEMENT, How.AWARD, How.DIRECTOR)  # how a game can end level


@dataclass(frozen=True, slots=True)
class Pentathlete:
    name: str
    division: str  # one of DIVISIONS
    school: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "division": self.division, "school": self.school}


def parse_division(text: str) -> str:
    """A division by its numeral: ``III``, ``iii`` or ``3``. The number is one ASCII digit,
    1 to 5 (R990): ``str.isdigit`` also takes superscripts, fullwidth and other scripts'
    digits, which ``int`` then refuses or reads as another division."""
    wanted = text.strip().upper()
    numbers = {str(number): numeral for number, numeral in enumerate(DIVISIONS, start=1)}
    if wanted in numbers:
        return numbers[wanted]
    if wanted in DIVISIONS:
        return wanted
    raise InvalidInput(f"division {text!r}: expected one of {', '.join(DIVISIONS)} (or 1 to 5)")


def parse_players_csv(text: str, source: str) -> tuple[Pentathlete, ...]:
    """Pentathletes from ``name,division,school`` (a header line first; school may be empty)."""
    rows = list(csv.reader(io.StringIO(text)))
    header = tuple(cell.strip().lower() for cell in rows[0]) if rows else ()
    if header != CSV_HEADER:
        raise InvalidInput(f"{source}: expected the header line {','.join(CSV_HEADER)}")
    players = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CSV_HEADER):
            raise InvalidInput(
                f"{source} line {number}: expected 3 fields (name,division,school), got {len(row)}"
            )
        where = f"{source} line {number}"
        name = clean_text(row[0], where)
        if not name or len(name) > MAX_NAME:
            raise InvalidInput(f"{where}: expected a name of 1 to {MAX_NAME} characters")
        try:
            division = parse_division(row[1])
        except InvalidInput as error:
            raise InvalidInput(f"{where}: {error}") from None
        players.append(Pentathlete(name, division, clean_text(row[2], where)))
    return check_players(players)


def check_event_name(text: str) -> str:
    """The event's name, as the score cards print it (R795): plain text of at most MAX_NAME
    characters, "" for none."""
    name = clean_text(text, "--name")
    if len(name) > MAX_NAME:
        raise InvalidInput(f"--name: {len(name)} characters: expected at most {MAX_NAME}")
    return name


def check_players(players: Sequence[Pentathlete]) -> tuple[Pentathlete, ...]:
    if len(players) > MAX_PLAYERS:
        raise InvalidInput(f"{len(players)} Pentathletes: expected at most {MAX_PLAYERS}")
    seen: dict[str, str] = {}
    for player in players:
        key = name_key(player.name)
        if key in seen:
            raise InvalidInput(
                f"duplicate Pentathlete {player.name!r} (also {seen[key]!r}): "
                "expected every name once"
            )
        seen[key] = player.name
    return tuple(players)


@dataclass(frozen=True, slots=True)
class PentathlonPoints:
    """What a game's result is worth in the standings (R264)."""

    win: int = 2
    tie: int = 1
    loss: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.loss <= self.tie <= self.win <= MAX_POINTS or self.win == self.loss:
            raise InvalidInput(
                f"points {self.text}: expected win, tie, loss with "
                f"{MAX_POINTS} >= win >= tie >= loss >= 0 and a win worth more than a loss"
            )

    @property
    def text(self) -> str:
        return f"{self.win},{self.tie},{self.loss}"

    def of(self, outcome: str) -> int:
        return {"win": self.win, "tie": self.tie, "loss": self.loss}[outcome]

    @classmethod
    def parse(cls, text: str) -> PentathlonPoints:
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 3 or not all(part.lstrip("-").isdigit() for part in parts):
            raise InvalidInput(f"--points {text!r}: expected three numbers, win,tie,loss: 2,1,0")
        return cls(*(int(part) for part in parts))

    def to_json(self) -> dict[str, int]:
        return {"win": self.win, "tie": self.tie, "loss": self.loss}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PentathlonPoints:
        return cls(int(data["win"]), int(data["tie"]), int(data["loss"]))


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays whom at a table in a round, and the game (R266)."""

    round: int
    table: int
    game: Game
    a: str
    b: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "game": self.game.value,
            "A": self.a,
            "B": self.b,
        }


@dataclass(frozen=True, slots=True)
class Challenges:
    """A player's challenges in a game, by the ruling in force."""

    c: int = 0
    i: int = 0
    ia: int = 0

    def __post_init__(self) -> None:
        for name, count in (("C", self.c), ("I", self.i), ("IA", self.ia)):
            if not 0 <= count <= MAX_CHALLENGES:
                raise InvalidInput(f"{name} {count}: expected 0 to {MAX_CHALLENGES} challenges")

    @classmethod
    def parse(cls, text: str, side: str) -> Challenges:
        """``C/I/IA`` counts, e.g. ``0/1/2``."""
        counts = [part.strip() for part in text.split("/")]
        # ASCII digits only: "²" is a digit to isdigit() and none to int() (R941)
        if len(counts) != 3 or not all(c.isascii() and c.isdecimal() for c in counts):
            raise InvalidInput(
                f"player {side}'s challenges {text!r}: expected C/I/IA counts, e.g. 0/1/0"
            )
        for name, count in zip(("C", "I", "IA"), counts, strict=True):
            if len(count.lstrip("0")) > len(str(MAX_CHALLENGES)):  # never int() of 5,000 digits
                raise InvalidInput(f"{name} {count}: expected 0 to {MAX_CHALLENGES} challenges")
        return cls(*(int(count) for count in counts))

    def to_json(self) -> dict[str, int]:
        return {"C": self.c, "I": self.i, "IA": self.ia}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Challenges:
        return cls(int(data["C"]), int(data["I"]), int(data["IA"]))


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game's result at a seat: the winner (``A``, ``B``, None for a tie), how it was
    decided, each player's final score in the game's terms (None where the game keeps none),
    each player's challenges, and whether the Tournament Director gave each player 0 points
    for a Code of Conduct infraction (R789, R794): that player's game scores no points."""

    seat: Seat
    winner: str | None
    how: How
    scores: tuple[int | None, int | None] = (None, None)
    challenges: tuple[Challenges, Challenges] = field(default=(Challenges(), Challenges()))
    zero_points: tuple[bool, bool] = (False, False)

    def __post_init__(self) -> None:
        if self.winner not in (None, *SIDES):
            raise InvalidInput(f"winner {self.winner!r}: expected A, B or none for a tie")
        if self.winner is None and self.how not in TIES and not self._tied_at_the_goal():
            raise InvalidInput(
                f"a tie by {self.how.value}: a game ends level only by "
                + ", ".join(how.value for how in TIES)
                + ", or by goal at Juggle (both covered the board in one round)"
            )
        if self.winner is not None and self.how is How.AGREEMENT:
            raise InvalidInput("agreement ends a game as a tie: expected no winner")
        for side, score in zip(SIDES, self.scores, strict=True):
            if score is not None and not -MAX_SCORE <= score <= MAX_SCORE:
                raise InvalidInput(
                    f"player {side}'s score {score}: expected -{MAX_SCORE} to {MAX_SCORE}"
                )
        if len(self.zero_points) != len(SIDES) or not all(
            type(zero) is bool for zero in self.zero_points
        ):
            raise InvalidInput(f"zero points {self.zero_points!r}: expected true or false for A, B")

    def _tied_at_the_goal(self) -> bool:
        """Juggle, the round game with a declared goal: when the beginning player declares,
        the second completes the round, and both covering the board is a tie by goal (R992)."""
        return self.how is How.GOAL and self.seat.game is Game.JUGGLE

    def outcome(self, side: str) -> str:
        if self.winner is None:
            return "tie"
        return "win" if self.winner == side else "loss"

    @property
    def zeroed(self) -> tuple[str, ...]:
        """The players the Tournament Director gave 0 points for this game (R794)."""
        return tuple(side for side, zero in zip(SIDES, self.zero_points, strict=True) if zero)

    def points_of(self, side: str, points: PentathlonPoints) -> int:
        """What the game is worth to ``side`` in the standings: its outcome's points, or 0
        when the Tournament Director gave that player 0 points (R794)."""
        if self.zero_points[SIDES.index(side)]:
            return 0
        return points.of(self.outcome(side))

    def to_json(self) -> dict[str, Any]:
        return {
            **self.seat.to_json(),
            "winner": self.winner,
            "how": self.how.value,
            "scores": {"A": self.scores[0], "B": self.scores[1]},
            "challenges": {"A": self.challenges[0].to_json(), "B": self.challenges[1].to_json()},
            "zero_points": list(self.zeroed),
        }


def parse_zero_points(text: str | None) -> tuple[bool, bool]:
    """``--zero-points``: the players given 0 points, ``A``, ``B`` or ``A,B`` (R794)."""
    if text is None or not text.strip():
        return (False, False)
    sides = [part.strip().upper() for part in text.split(",")]
    if any(side not in SIDES for side in sides) or len(set(sides)) != len(sides):
        raise InvalidInput(f"--zero-points {text!r}: expected A, B or A,B")
    return ("A" in sides, "B" in sides)


def parse_winner(text: str) -> str | None:
    wanted = text.strip().upper()
    if wanted == "TIE":
        return None
    if wanted in SIDES:
        return wanted
    raise InvalidInput(f"--winner {text!r}: expected A, B or tie")


def parse_how(text: str) -> How:
    try:
        return How(text.strip().lower())
    except ValueError:
        raise InvalidInput(
            f"--how {text!r}: expected one of {', '.join(how.value for how in How)}"
        ) from None


@dataclass(frozen=True, slots=True)
class PentathlonStanding:
    rank: int
    name: str
    division: str
    played: int
    wins: int
    ties: int
    losses: int
    points: int
    i_ia: int  # I and IA rulings against the player's challenges

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "name": self.name,
            "division": self.division,
            "played": self.played,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "points": self.points,
            "i_ia": self.i_ia,
        }


@dataclass(frozen=True, slots=True)
class PentathlonEvent:
    """The event as the record holds it: its points, players, seats and current results."""

    points: PentathlonPoints
    players: tuple[Pentathlete, ...]
    seats: tuple[Seat, ...] = ()
    results: tuple[GameResult, ...] = ()

    def player(self, name: str) -> Pentathlete:
        key = name_key(name)
        for player in self.players:
            if name_key(player.name) == key:
                return player
        raise InvalidInput(f"no Pentathlete named {name!r}: expected one of the event's players")

    def seat_at(self, round_number: int, table: int) -> Seat:
        check_where(round_number, table)
        for seat in self.seats:
            if (seat.round, seat.table) == (round_number, table):
                return seat
        raise InvalidInput(
            f"round {round_number} has no table {table} seated: seat it first "
            "('tournament pentathlon seat')"
        )

    def seat(self, round_number: int, table: int, game: Game, a: str, b: str) -> Seat:
        """A new seat, checked: both players entered, of one division, neither seated twice in
        the round, the table free in the round, the rounds seated in order (R341, R343)."""
        check_where(round_number, table)
        seated = {seat.round for seat in self.seats}
        if round_number > 1 and round_number not in seated and round_number - 1 not in seated:
            raise IllegalAction(
                f"round {round_number} before round {round_number - 1}: rounds are seated in "
                f"order, expected round 1 to {max(seated, default=0) + 1}"
            )
        first, second = self.player(a), self.player(b)
        if first.name == second.name:
            raise InvalidInput(f"{first.name!r} against themself: expected two Pentathletes")
        if first.division != second.division:
            raise IllegalAction(
                f"{first.name} (division {first.division}) and {second.name} (division "
                f"{second.division}): Pentathletes play within their division"
            )
        for seat in self.seats:
            if seat.round != round_number:
                continue
            if seat.table == table:
                raise IllegalAction(
                    f"round {round_number} table {table} is seated already: "
                    f"{seat.a} v {seat.b} ({seat.game.value})"
                )
            for name in (first.name, second.name):
                if name in (seat.a, seat.b):
                    raise IllegalAction(
                        f"{name} already plays in round {round_number} (table {seat.table})"
                    )
        return Seat(round_number, table, game, first.name, second.name)

    def standings(self, game: Game | None = None) -> tuple[PentathlonStanding, ...]:
        """Per division, ranked by points, then wins, then fewer I/IA (R265); players level on
        all three share a rank. ``game``: that game's results only."""
        results = [r for r in self.results if game is None or r.seat.game is game]
        rows: list[PentathlonStanding] = []
        for division in DIVISIONS:
            players = [p for p in self.players if p.division == division]
            rows += _ranked([_standing(player, results, self.points) for player in players])
        return tuple(rows)


def check_where(round_number: int, table: int) -> None:
    """A round as the GeoPlunge record bounds them, a table as the hub numbers them (R341)."""
    if not 1 <= round_number <= MAX_ROUNDS:
        raise InvalidInput(f"round {round_number}: expected 1 to {MAX_ROUNDS}")
    if not 1 <= table <= MAX_TABLE:
        raise InvalidInput(f"table {table}: expected 1 to {MAX_TABLE} (a hub table's number)")


def _standing(
    player: Pentathlete, results: Iterable[GameResult], points: PentathlonPoints
) -> PentathlonStanding:
    outcomes: list[str] = []
    scored = 0
    strikes = 0
    for result in results:
        for index, side in enumerate(SIDES):
            if (result.seat.a, result.seat.b)[index] == player.name:
                outcomes.append(result.outcome(side))
                scored += result.points_of(side, points)  # 0 after the Director's 0 points
                challenges = result.challenges[index]
                strikes += challenges.i + challenges.ia
    return PentathlonStanding(
        0,
        player.name,
        player.division,
        len(outcomes),
        outcomes.count("win"),
        outcomes.count("tie"),
        outcomes.count("loss"),
        scored,
        strikes,
    )


def _ranked(rows: list[PentathlonStanding]) -> list[PentathlonStanding]:
    def order(row: PentathlonStanding) -> tuple[int, int, int]:
        return (-row.points, -row.wins, row.i_ia)

    rows.sort(key=lambda row: (order(row), name_key(row.name)))
    ranked: list[PentathlonStanding] = []
    for index, row in enumerate(rows):
        level = bool(ranked) and order(ranked[-1]) == order(row)
        ranked.append(replace(row, rank=ranked[-1].rank if level else index + 1))
    return ranked
