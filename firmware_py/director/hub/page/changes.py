"""What staff change from the page, through the record's own functions (the same path as
``gametable tournament result|pair``): each in one transaction, entered by the staff account's
name ("director" for the director's), refused with the record's or the rules' own one-line
error (a ``RuleError``)."""

from __future__ import annotations

from firmware_py.director.tournament_db import DIRECTOR_SOURCE, TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Playoff, PlayoffGame
from rules.tournament.teams import one_line_reason

DIRECTOR = "director"


def enter_result(
    record: TournamentDB,
    round_number: int,
    table: int,
    a_points: int,
    b_points: int,
    *,
    now: str,
    amend_reason: str | None = None,
    by: str = DIRECTOR,
) -> str:
    """Enter a match's points, or amend them with a reason; the line that says what was done."""
    if amend_reason is not None:
        amend_reason = amend_reason.strip()
        if not amend_reason:
            raise InvalidInput("an amendment with an empty reason: expected why it changes")
        amend_reason = one_line_reason(amend_reason)  # as the command's --reason (R342)
    with record.transaction() as tournament:
        record.require_open(f"round {round_number} table {table}'s result")  # R850, first
        result = tournament.result(round_number, table, a_points, b_points)
        entry = record.add_result(
            result, now=now, by=by, source=DIRECTOR_SOURCE, amend_reason=amend_reason
        )
    outcome = "a tie" if result.winner is None else f"{result.winner} wins"
    verb = "amended" if amend_reason is not None else "recorded"
    return (
        f"round {result.round} table {result.table}: {result.a} {result.a_points}, "
        f"{result.b} {result.b_points}: {outcome} ({verb}, version {entry.version})"
    )


def pair_next_round(
    record: TournamentDB, *, now: str, by: str = DIRECTOR, expected: int | None = None
) -> str:
    """Pair the next round (the rules refuse while a result is missing); the line to show.
    ``expected``: the round the page's button named; another is refused, not paired (a page
    left open while someone else paired: its "Pair round 2" must never pair round 3)."""
    with record.transaction() as tournament:
        number = tournament.next_round
        record.require_open(f"pairing round {number}")  # R850, before the rules' own checks
        if expected is not None and expected != number:
            raise IllegalAction(
                f"round {expected} cannot be paired: the next round is {number} (someone "
                "paired or undid a round since this page was loaded): reload the page"
            )
        pairing = tournament.pair(number)
        plan = tournament.plan(number)
        record.add_round(pairing, plan, now=now, by=by)
    bye = "" if pairing.bye is None else f", {pairing.bye} has the bye"
    return f"round {number} paired: {len(pairing.matches)} matches{bye}"


def unpair_round(record: TournamentDB, number: int, *, now: str, by: str, reason: str) -> str:
    """Undo round ``number``'s pairing (R820: the latest round, no result in), with the
    reason; the line to show. The hub withdraws it from the tables at once."""
    undone = record.unpair_round(number, now=now, by=by, reason=one_line_reason(reason))
    return (
        f"round {number}'s pairing undone: {len(undone.matches)} matches withdrawn, the tables "
        f"told; pair round {number} again when ready"
    )


def record_champion(
    record: TournamentDB,
    team: str,
    *,
    now: str,
    by: str = DIRECTOR,
    expected: int | None = None,
) -> str:
    """Close the tournament: the championship's winner into the record, checked as
    ``gametable tournament championship --winner`` checks it; the line to show.
    ``expected``: the latest closing the page's form saw (``last_closing``): a form drawn
    before a reopening closes nothing (R857)."""
    with record.transaction() as tournament:
        if expected is not None:
            record.require_closing_seen(expected)
        finalists = tournament.qualification(record.playoff_games()).finalists
        if finalists is None:
            raise IllegalAction("the championship teams are not known yet: play the playoff")
        name = tournament.entrant(team).name
        if name not in finalists:
            raise InvalidInput(
                f"{name!r} is not in the championship: expected {finalists[0]!r} or "
                f"{finalists[1]!r}"
            )
        record.set_champion(name, now=now, by=by)
    return f"the tournament is closed: {name} is the champion"


def _require_next_game(playoff: Playoff, expected: tuple[int, str, str]) -> None:
    """Refuse a playoff game's winner sent for a game that is not the next one (R855)."""
    number, game = len(playoff.games) + 1, playoff.next_game()
    if game is not None and (number, *game) == expected:
        return
    now_is = (
        "the playoff is over: the championship's teams are known"
        if game is None
        else f"the next is game {number}, {game[0]} v {game[1]}"
    )
    raise IllegalAction(
        f"the winner was chosen for playoff game {expected[0]} as the page showed it, but "
        f"{now_is} (the playoff changed since: recorded by someone, or the form sent twice): "
        "nothing recorded; look at /close again"
    )


def reopen_tournament(
    record: TournamentDB, reason: str, *, now: str, by: str, expected: int | None = None
) -> str:
    """Reopen the closed tournament with a reason (R850); the line to show. ``expected``: the
    closing the page's form was for: a later one is refused (R856)."""
    undone = record.reopen(now=now, by=by, reason=one_line_reason(reason), expected=expected)
    return (
        f"the tournament is reopened: {undone.champion} no longer stands as champion; "
        "changes may be made again, and closing it again records the champion anew"
    )


def record_playoff_game(
    record: TournamentDB,
    winner: str,
    *,
    now: str,
    by: str,
    expected: tuple[int, str, str] | None = None,
) -> str:
    """The next Border-Up playoff game's winner, checked as ``gametable tournament playoff
    --winner`` checks it (the playoff needed, the team in its next game); the line to show.
    ``expected``: the game the page's form was for (its number, its two teams): another game
    is refused (R855), so a form sent twice, or left open while someone else recorded its
    game, never records the winner of the game after it."""
    with record.transaction() as tournament:
        record.require_open("a playoff game")
        found = tournament.qualification(record.playoff_games())
        if found.playoff is None:
            raise IllegalAction("no playoff is needed: the championship teams are known")
        if expected is not None:
            _require_next_game(found.playoff, expected)
        after = found.playoff.record(tournament.entrant(winner).name)
        game = after.games[-1]
        record.add_playoff_game(PlayoffGame(game.a, game.b, game.winner), now=now, by=by)
    upcoming = after.next_game()
    then = (
        "the championship's teams are known: close the tournament"
        if upcoming is None
        else f"next: {upcoming[0]} v {upcoming[1]}"
    )
    return f"playoff game {game.a} v {game.b}: {game.winner} won; {then}"


def void_playoff(
    record: TournamentDB, reason: str, *, now: str, by: str, expected: int | None = None
) -> str:
    """Void the playoff's recorded games with a reason (the record's ``void_playoff``, as
    ``gametable tournament playoff --void``); the line to show. ``expected``: how many games
    the page's form showed: another count is refused (R961), so a page left open while a game
    was recorded never voids a game its director did not see."""
    if not reason.strip():
        raise InvalidInput("voiding the playoff with an empty reason: expected why")
    with record.transaction() as tournament:
        record.require_open("voiding the playoff")  # R850, first
        games = record.playoff_games()
        if expected is not None and expected != len(games):
            raise IllegalAction(
                f"voiding the playoff: the page showed {expected} game{_s(expected)} recorded, "
                f"the record holds {len(games)} (the playoff changed since): nothing voided; "
                "look at /close again"
            )
        voided = record.void_playoff(now=now, by=by, reason=one_line_reason(reason))
        found = tournament.qualification()
    if found.playoff is None:
        assert found.finalists is not None
        a, b = found.finalists
        then = f"no playoff is needed now: the championship is {a} v {b}"
    else:
        first = found.playoff.next_game()
        assert first is not None
        then = f"the playoff starts again: game 1 {first[0]} v {first[1]}"
    return f"the playoff voided ({voided} game{_s(voided)}, kept in the record); {then}"


def _s(count: int) -> str:
    return "" if count == 1 else "s"
