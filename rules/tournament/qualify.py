"""Championship qualifiers, and the Border-Up playoff games that break ties for a place.

The two teams with the most match wins play the championship (rulebook: Championship match).
When teams are tied for a place that is left, they play a Border-Up playoff (R99-R101):

- the tied teams are seeded by the standings (the tiebreak order), exact ties by a seeded draw;
- while more teams remain than the places left plus one, the two lowest seeds still in play
  meet and the loser is out;
- when exactly one more team remains than places left, the two highest seeds meet and the
  winner advances (for the last place, the last two teams meet).

Two teams tied for one place play one game; three tied for one place play a stepladder
(3 v 2, the winner v 1); three tied for two places play 1 v 2 (the winner advances), then the
loser v 3. Every tied team plays, every game decides something, and no game can end in a
cycle as a round-robin can. A tied playoff game is replayed; only the deciding game counts.

A game played decides for good (R960, R968): the record keeps each game's two teams, its winner
and what it decided ("the winner advances" or "the loser is out"), and replaying them against
the standings as they are now (:meth:`Playoff.replayed`) checks each game is the one those
standings seed, deciding the same. A result changed after a game was played may seed
another: the game is then not read anew as a different game (its winner given to teams that
never met); :class:`PlayoffChanged` says so, and the playoff stands still until a director
voids it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction, InvalidInput
from rules.tournament.config import Qualify
from rules.tournament.standings import Standing
from rules.tournament.teams import name_key

CHAMPIONSHIP_PLACES = 2


@dataclass(frozen=True, slots=True)
class PlayoffGame:
    a: str  # the higher seed
    b: str
    winner: str
    # What the game decided as it was played ("the winner advances" or "the loser is out");
    # None for a game recorded before the record kept it (R968): replayed by its teams only.
    decides: str | None = None

    @property
    def loser(self) -> str:
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True, slots=True)
class BracketGame:
    """A playoff game of the bracket: its number, its two sides (a team, or "the winner of
    game 3" while that game is to come), what it decides, and its winner once played."""

    number: int
    a: str
    b: str
    decides: str
    winner: str | None = None


class PlayoffChanged(IllegalAction):
    """A recorded playoff game that the standings as they are now do not seed (R960)."""

    def __init__(
        self,
        number: int,
        played: PlayoffGame,
        seeded: tuple[str, str] | None,
        decides_now: str | None = None,
    ) -> None:
        self.number = number
        self.played = played
        self.seeded = seeded
        # set when the same two teams are seeded but the game now decides otherwise (R968)
        self.decides_now = decides_now
        if seeded is None:
            now = "need no such game"
        elif decides_now is None:
            now = f"make game {number} {seeded[0]} v {seeded[1]}"
        else:
            now = f"make game {number} {seeded[0]} v {seeded[1]} a game where {decides_now}"
        decided = "" if decides_now is None else f"; {played.decides}"
        super().__init__(
            f"playoff game {number} was played as {played.a} v {played.b} ({played.winner} "
            f"won{decided}), but the standings as they are now {now}: a result changed after "
            "the game was played; the game stands as played and is not read as another, so "
            "the playoff stops here until a director voids it with a reason and it is played "
            "again from the standings"
        )


@dataclass(frozen=True, slots=True)
class Playoff:
    """Border-Up playoff games among ``seeds`` (best first) for ``places`` places."""

    seeds: tuple[str, ...]
    places: int
    games: tuple[PlayoffGame, ...] = ()

    def _walk(self) -> tuple[list[str], list[str], list[str]]:
        """(still in play, advanced, out) after the games recorded so far."""
        remaining = list(self.seeds)
        advanced: list[str] = []
        out: list[str] = []
        for game in self.games:
            if self._advancing_game(len(remaining), len(advanced)):
                advanced.append(game.winner)
                remaining.remove(game.winner)
            else:
                out.append(game.loser)
                remaining.remove(game.loser)
        return remaining, advanced, out

    def _advancing_game(self, remaining: int, advanced: int) -> bool:
        return remaining == self.places - advanced + 1

    @property
    def advanced(self) -> tuple[str, ...]:
        return tuple(self._walk()[1])

    @property
    def done(self) -> bool:
        return len(self.advanced) == self.places

    def next_game(self) -> tuple[str, str] | None:
        """The next game's two teams (higher seed first), or None when the playoff is over."""
        remaining, advanced, _ = self._walk()
        if len(advanced) == self.places:
            return None
        if self._advancing_game(len(remaining), len(advanced)):
            return remaining[0], remaining[1]
        return remaining[-2], remaining[-1]

    def next_game_decides(self) -> str:
        """What the next game decides: "the winner advances" or "the loser is out"."""
        remaining, advanced, _ = self._walk()
        advancing = self._advancing_game(len(remaining), len(advanced))
        return "the winner advances" if advancing else "the loser is out"

    def record(self, winner: str) -> Playoff:
        """The playoff after the next game, won by ``winner`` (a tied game is replayed)."""
        game = self.next_game()
        if game is None:
            raise IllegalAction("the playoff is over: no playoff game is left to record")
        matches = [team for team in game if name_key(team) == name_key(winner)]
        if not matches:
            raise InvalidInput(
                f"{winner!r} is not in the next playoff game: expected {game[0]!r} or {game[1]!r}"
            )
        played = PlayoffGame(*game, matches[0], self.next_game_decides())
        return Playoff(self.seeds, self.places, (*self.games, played))

    def replayed(self, game: PlayoffGame) -> Playoff:
        """The playoff after ``game``, a game recorded with its two teams: refused with
        :class:`PlayoffChanged` when the next game these seeds make is not those two teams
        (R960), or decides otherwise than the game did when it was played (R968): a game
        played is never read as another game, nor as deciding something else."""
        number = len(self.games) + 1
        seeded = self.next_game()
        played = {name_key(game.a), name_key(game.b)}
        if seeded is None or {name_key(team) for team in seeded} != played:
            raise PlayoffChanged(number, game, seeded)
        decides = self.next_game_decides()
        if game.decides is not None and game.decides != decides:
            raise PlayoffChanged(number, game, seeded, decides)
        return self.record(game.winner)

    def bracket(self) -> tuple[BracketGame, ...]:
        """Every game, in order: those played with their winners, then those to come."""
        played = []
        for number in range(1, len(self.games) + 1):
            before = Playoff(self.seeds, self.places, self.games[: number - 1])
            game = self.games[number - 1]
            decides = before.next_game_decides()
            played.append(BracketGame(number, game.a, game.b, decides, game.winner))
        return (*played, *self.to_come())

    def to_come(self) -> tuple[BracketGame, ...]:
        """Every game still to play, in order: the next one's two teams, and the later ones'
        as far as they are known ("the winner of game 5" until game 5 is played)."""
        remaining, advanced, _ = self._walk()
        sides: list[str] = list(remaining)
        places_won = len(advanced)
        games: list[BracketGame] = []
        number = len(self.games)
        while places_won < self.places:
            number += 1
            if self._advancing_game(len(sides), places_won):
                a, b = sides[0], sides[1]
                sides[0:2] = [f"the loser of game {number}"]
                places_won += 1
                decides = "the winner advances"
            else:
                a, b = sides[-2], sides[-1]
                sides[-2:] = [f"the winner of game {number}"]
                decides = "the loser is out"
            games.append(BracketGame(number, a, b, decides))
        return tuple(games)

    def to_json(self) -> dict[str, Any]:
        upcoming = self.next_game()
        return {
            "teams": list(self.seeds),
            "places": self.places,
            "games": [
                {"A": g.a, "B": g.b, "winner": g.winner, "decides": g.decides} for g in self.games
            ],
            "advanced": list(self.advanced),
            "next": None
            if upcoming is None
            else {"A": upcoming[0], "B": upcoming[1], "decides": self.next_game_decides()},
        }


@dataclass(frozen=True, slots=True)
class Qualification:
    """Teams through without a playoff, and the playoff for the places left (if any)."""

    qualified: tuple[str, ...]
    playoff: Playoff | None

    @property
    def finalists(self) -> tuple[str, ...] | None:
        """The championship's two teams, once known."""
        if self.playoff is None:
            return self.qualified
        if not self.playoff.done:
            return None
        return (*self.qualified, *self.playoff.advanced)

    def with_games(self, winners: Sequence[str]) -> Qualification:
        """This qualification after playoff games won by ``winners``, in order."""
        playoff = self.playoff
        if playoff is None:
            if winners:
                raise IllegalAction("no playoff is needed: expected no playoff game")
            return self
        for winner in winners:
            playoff = playoff.record(winner)
        return Qualification(self.qualified, playoff)

    def with_played(self, games: Sequence[PlayoffGame]) -> Qualification:
        """This qualification after the recorded ``games`` (each with its two teams), in
        order; :class:`PlayoffChanged` names the first these standings do not seed (R960)."""
        playoff = self.playoff
        if playoff is None:
            if games:
                raise PlayoffChanged(1, games[0], None)
            return self
        for game in games:
            playoff = playoff.replayed(game)
        return Qualification(self.qualified, playoff)


def qualify(
    table: Sequence[Standing],
    method: Qualify,
    seed: int,
    places: int = CHAMPIONSHIP_PLACES,
) -> Qualification:
    """Who qualifies from final standings ``table``: by match wins only (``WINS``, the
    rulebook) or by the standings' ranks (``STANDINGS``); a tie across the last place left
    is a playoff among the tied teams."""
    groups = _groups(table, method)
    seeding = _seeding(table, seed)
    qualified: list[str] = []
    for group in groups:
        left = places - len(qualified)
        if left <= 0:
            break
        if len(group) <= left:
            qualified.extend(sorted(group, key=seeding.index))
            continue
        playoff = Playoff(tuple(sorted(group, key=seeding.index)), left)
        return Qualification(tuple(qualified), playoff)
    return Qualification(tuple(qualified), None)


def _groups(table: Sequence[Standing], method: Qualify) -> list[list[str]]:
    groups: dict[int, list[str]] = {}
    for row in table:
        groups.setdefault(row.wins if method is Qualify.WINS else -row.rank, []).append(row.team)
    return [groups[key] for key in sorted(groups, reverse=True)]


def _seeding(table: Sequence[Standing], seed: int) -> list[str]:
    """Best first: by rank, exact ties by the seeded playoff draw."""
    draw = random.Random(f"{seed}:playoff")
    lots = {row.team: draw.random() for row in sorted(table, key=lambda r: name_key(r.team))}
    return [row.team for row in sorted(table, key=lambda row: (row.rank, lots[row.team]))]
