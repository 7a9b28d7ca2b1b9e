"""What staff change from the page, through the record's own functions (the same path as
``gametable tournament result|pair``): each in one transaction, entered by the staff account's
name ("director" for the director's), refused with the record's or the rules' own one-line
error (a ``RuleError``)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from firmware_py.director.record.day_tables import at_event_tables
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Playoff, PlayoffChanged, Qualification
from rules.tournament.records import counted
from rules.tournament.teams import name_key, one_line_reason

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
    record: TournamentDB,
    *,
    now: str,
    by: str = DIRECTOR,
    expected: int | None = None,
    tables: Collection[int] | None = None,
    event: str = "",
) -> str:
    """Pair the next round (the rules refuse while a result is missing); the line to show.
    ``expected``: the round the page's button named; another is refused, not paired (a page
    left open while someone else paired: its "Pair round 2" must never pair round 3).
    ``tables``: on a day of several events, the tables playing for ``event``, where its
    matches are put (R1172); None: tables 1, 2, ..."""
    with record.transaction() as tournament:
        number = tournament.next_round
        record.require_open(f"pairing round {number}")  # R850, before the rules' own checks
        if expected is not None and expected != number:
            raise IllegalAction(
                f"round {expected} cannot be paired: the next round is {number} (someone "
                "paired or undid a round since this page was loaded): reload the page"
            )
        pairing = tournament.pair(number)
        if tables is not None:
            pairing = at_event_tables(pairing, tables, event)
        plan = tournament.plan(number)
        record.add_round(pairing, plan, now=now, by=by)
    bye = "" if pairing.bye is None else f", {pairing.bye} has the bye"
    return f"round {number} paired: {counted(len(pairing.matches), 'match', 'matches')}{bye}"


def unpair_round(record: TournamentDB, number: int, *, now: str, by: str, reason: str) -> str:
    """Undo round ``number``'s pairing (R820: the latest round, no result in), with the
    reason; the line to show. The hub withdraws it from the tables at once."""
    undone = record.unpair_round(number, now=now, by=by, reason=one_line_reason(reason))
    return (
        f"round {number}'s pairing undone: {counted(len(undone.matches), 'match', 'matches')} "
        "withdrawn, the tables "
        f"told; pair round {number} again when ready"
    )


def record_champion(
    record: TournamentDB,
    team: str,
    *,
    now: str,
    by: str = DIRECTOR,
    expected: int | None = None,
    championship: tuple[str, str] | None = None,
) -> str:
    """Close the tournament: the championship's winner into the record, checked as
    ``gametable tournament championship --winner`` checks it; the line to show.
    ``expected``: the latest closing the page's form saw (``last_closing``): a form drawn
    before a reopening closes nothing (R857). ``championship``: the two teams the form
    showed: another championship now (the playoff played again, a result changed) closes
    nothing (R963)."""
    doing = "closing the tournament"
    with record.transaction() as tournament:
        if expected is not None:
            record.require_closing_seen(expected)
        _require_not_closed_meanwhile(record)
        finalists = _stopped_in_words(
            doing, lambda: tournament.qualification(record.playoff_games())
        ).finalists
        if championship is not None:
            _require_championship_seen(championship, finalists)
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


def _require_not_closed_meanwhile(record: TournamentDB) -> None:
    """The page's Close when another director closed it first (two pages confirmed): the
    closing that stands, its time as the venue reads it, and where to look (R965); the page
    amends no champion, so it is not offered."""
    closed = record.closing()
    if closed is not None:
        raise IllegalAction(
            f"closing the tournament: it was closed meanwhile ({closed.champion} recorded as "
            f"champion by {closed.closed_by} at {closed.closed_at_shown or closed.closed_at}): "
            "nothing recorded; look at /close again"
        )


def _require_championship_seen(shown: tuple[str, str], finalists: tuple[str, ...] | None) -> None:
    """Refuse a Close whose form showed another championship than the record's now (R963)."""
    if finalists is not None and {name_key(t) for t in finalists} == {name_key(t) for t in shown}:
        return
    now_is = (
        "its teams are not known now (the playoff is not over)"
        if finalists is None
        else f"it is now {finalists[0]} v {finalists[1]}"
    )
    raise IllegalAction(
        f"closing the tournament: the page showed the championship {shown[0]} v {shown[1]}, "
        f"but {now_is} (the playoff or a result changed since): nothing recorded; look at "
        "/close again"
    )


def _stopped_in_words(doing: str, qualification: Callable[[], Qualification]) -> Qualification:
    """The qualification, or, when a change stopped the playoff (R960), a refusal of
    ``doing`` that says nothing was recorded and what to do: the page shown again says why
    in its own card, below this line (R965)."""
    try:
        return qualification()
    except PlayoffChanged as changed:
        raise IllegalAction(
            f"{doing}: nothing recorded: the playoff stopped since the page was drawn (a "
            f"result changed after playoff game {changed.number} was played): void it below "
            "with a reason and play it again"
        ) from None


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
        found = _stopped_in_words(
            "recording a playoff game",
            lambda: tournament.qualification(record.playoff_games()),
        )
        if found.playoff is None:
            raise IllegalAction("no playoff is needed: the championship teams are known")
        if expected is not None:
            _require_next_game(found.playoff, expected)
        after = found.playoff.record(tournament.entrant(winner).name)
        game = after.games[-1]
        record.add_playoff_game(game, now=now, by=by)
    upcoming = after.next_game()
    then = (
        "the championship's teams are known: close the tournament"
        if upcoming is None
        else f"next: {upcoming[0]} v {upcoming[1]}"
    )
    return f"playoff game {game.a} v {game.b}: {game.winner} won; {then}"


def void_playoff(
    record: TournamentDB,
    reason: str,
    *,
    now: str,
    by: str,
    expected: int | None = None,
    last: int | None = None,
) -> str:
    """Void the playoff's recorded games with a reason (the record's ``void_playoff``, as
    ``gametable tournament playoff --void``); the line to show. ``expected``: how many games
    the page's form showed: another count is refused (R961), so a page left open while a game
    was recorded never voids a game its director did not see; ``last``: the latest game it
    showed (``last_playoff_game``): the same count of other games (voided and played again
    since) is refused too (R964)."""
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
        if last is not None and last != record.last_playoff_game():
            raise IllegalAction(
                f"voiding the playoff: the page showed {len(games)} game{_s(len(games))} "
                "recorded, but those were voided since and the record holds others played "
                "again (the playoff changed since): nothing voided; look at /close again"
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
