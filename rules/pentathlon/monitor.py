"""The Game Monitor's state machine for one Pentathlon game: ``start`` and ``apply``.

Phases: ``begin`` (who begins is entered) -> ``play`` (the flag holder is on turn) ->
``result`` (the game has ended: the monitor confirms) -> ``over``. A challenge stops the
clocks: ``challenge`` until each of its records is ruled. Juggle adds ``counting`` (time is up,
the monitor counts empty spaces).

Rulings stay open to 2nd and 3rd opinions until play resumes: every action but ``rule`` and
``opinion`` makes them final. A changed ruling is replayed from the state before the challenge
(``Window.before``), so its effects are exactly those of the ruling in force. Three I/IA in
any combination end the game as a loss for that player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.pentathlon.catalogue import NOT_CHALLENGEABLE, Ruling, StartMethod, find_rule
from rules.pentathlon.challenges import (
    STRIKES_TO_LOSE,
    ChallengeRecord,
    Official,
    RulingEntry,
    strikes,
    warning,
)
from rules.pentathlon.monitor_actions import (
    STAR_DRAWS_HIGH,
    Begins,
    Challenge,
    ChipInHand,
    Confirm,
    DeclareWin,
    DieToss,
    DirectorResult,
    ForfeitTurn,
    Infraction,
    Opinion,
    PassFlag,
    Rule,
    StarCard,
    StartPentathlon,
    StripDraw,
    TimeCalled,
    TurnTimeout,
    check_start,
)
from rules.pentathlon.play import (
    RULINGS,
    RULINGS_ISSUE_20,
    RULINGS_R746_R749,
    RULINGS_VERSIONS,
    Declaration,
    GameRules,
    Play,
    call_time,
    declaration_result,
    first_turn,
    hand_flag,
    pass_flag,
)
from rules.pentathlon.players import Player, of, with_value
from rules.pentathlon.registry import game_rules
from rules.pentathlon.results import How, Result
from rules.pentathlon.rulings import apply_ruling
from rules.pentathlon.strips import lower_strip

DIE_SIDES = 6  # the start's toss: one six-sided die each (R203)


@dataclass(frozen=True, slots=True)
class Window:
    """The latest challenge announcement, open to rulings and opinions until play resumes."""

    before: Play  # the play as the challenge was announced
    first: int  # the index of its first record


@dataclass(frozen=True, slots=True)
class PentathlonGame:
    settings: StartPentathlon
    play: Play | None = None  # None until who begins is entered
    challenges: tuple[ChallengeRecord, ...] = ()
    window: Window | None = None
    result: Result | None = None  # confirmed by the monitor: the game is over
    start_entries: tuple[Action, ...] = ()  # the start as entered, re-tosses included (R788)
    notes: tuple[tuple[int, Action], ...] = ()  # events recorded with their turn: infractions,
    # and each game's own (a trap penalty, a stack count): no challenge, no effect on play
    rulings: int = RULINGS  # the meaning of the rulings issue 20 changed (R796)

    @property
    def rules(self) -> GameRules:
        return game_rules(self.settings.game)

    @property
    def stopped(self) -> bool:
        """A third I/IA has ended the game (until an opinion changes it)."""
        pending = self.play.pending if self.play else None
        return pending is not None and pending.how is How.THREE_STRIKES

    @property
    def awaiting_ruling(self) -> ChallengeRecord | None:
        if self.window is None or self.stopped:
            return None
        unruled = [r for r in self.challenges[self.window.first :] if r.ruling is None]
        return unruled[0] if unruled else None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.play is None:
            return "begin"
        if self.awaiting_ruling is not None:
            return "challenge"
        if self.play.pending is not None:
            return "result"
        return "counting" if self.play.counting else "play"

    @property
    def clocks_stopped(self) -> bool:
        """A challenge is a time out: no turn or game clock runs until it is ruled (R232)."""
        return self.phase == "challenge"

    @property
    def on_turn(self) -> Player | None:
        return self.play.holder if self.play is not None and self.phase == "play" else None

    @property
    def infractions(self) -> tuple[Infraction, ...]:
        return tuple(action for _, action in self.notes if isinstance(action, Infraction))

    @property
    def removed(self) -> tuple[Player, ...]:
        """Players the Tournament Director removed from the site (R789)."""
        return tuple(i.player for i in self.infractions if i.removal)

    def zero_points(self, player: Player) -> bool:
        """The Tournament Director's "0 points" for a Code of Conduct infraction (R789)."""
        return any(i.player is player and i.zero_points for i in self.infractions)

    def strikes(self, player: Player) -> int:
        return strikes(self.challenges, player)

    def warning(self, player: Player) -> str | None:
        return warning(self.strikes(player))


def start(action: Action, *, rulings: int = RULINGS) -> PentathlonGame:
    """A game from its start action, played under ``rulings`` (R796): this gametable's, or
    earlier ones (issue 20's first, or those before issue 20) for a table journal written
    then."""
    if not isinstance(action, StartPentathlon):
        raise InvalidLog(f"a Pentathlon log starts with pentathlon.start, not {action.kind!r}")
    if rulings not in RULINGS_VERSIONS:
        raise InvalidInput(f"rulings {rulings!r}: expected one of {RULINGS_VERSIONS}")
    return PentathlonGame(check_start(action), rulings=rulings)


def apply(state: PentathlonGame, action: Action) -> PentathlonGame:
    if state.result is not None:
        raise GameOver("the game is over: it accepts no more actions")
    if isinstance(action, StartPentathlon):
        raise InvalidLog("'pentathlon.start' only starts a log")
    _check_not_removed(state, action)
    if isinstance(action, Rule):
        return _rule(state, action)
    if isinstance(action, Opinion):
        return _opinion(state, action)
    waiting = state.awaiting_ruling
    if waiting is not None:
        raise IllegalAction(
            f"challenge {waiting.number} ({waiting.challenger}: {waiting.rule}) is waiting for "
            "the monitor's ruling; the clocks are stopped"
        )
    if isinstance(action, (Infraction, *state.rules.note_kinds)):
        return _note(state, action)
    if state.play is None:
        entries = (*state.start_entries, action)
        play = _begin(state, action)
        play = None if play is None else replace(play, rulings=state.rulings)
        return replace(state, play=play, start_entries=entries)
    state = _resume(state)
    if isinstance(action, DirectorResult):
        return _director_result(state, action)
    given = state.play.pending if state.play is not None else None
    if given is not None and given.how is How.DIRECTOR and not isinstance(action, Confirm):
        raise IllegalAction(
            f"the Tournament Director has given the result ({given.detail}): the monitor "
            "confirms it"
        )
    if isinstance(action, Challenge):
        return _challenge(state, action)
    return _in_play(state, action)


# What a game whose player the Director removed from the site still takes (R987): the
# Director's result, the Monitor's confirmation, and an infraction of the other player.
AFTER_REMOVAL = (DirectorResult, Confirm, Infraction)


def _check_not_removed(state: PentathlonGame, action: Action) -> None:
    """A player removed from the tournament site plays no more (R987, rulings 4 only: a game
    under earlier rulings replays as its journal recorded it, R796)."""
    removed = state.removed
    if not removed or state.rulings < RULINGS or isinstance(action, AFTER_REMOVAL):
        return
    who = " and ".join(str(player) for player in removed)
    raise IllegalAction(
        f"{who} {'has' if len(removed) == 1 else 'have'} been removed from the tournament site: "
        "the game stops; only the Tournament Director's result and the Monitor's confirmation "
        "remain (R987)"
    )


def _director_result(state: PentathlonGame, action: DirectorResult) -> PentathlonGame:
    """The Director stops the game and gives the result: recorded, then confirmed (R748)."""
    play = _require(state, "play", "counting", "result")
    if state.rulings <= RULINGS_ISSUE_20:
        raise IllegalAction(
            f"the Tournament Director's result came with rulings {RULINGS_R746_R749}: this game "
            f"is played under rulings {state.rulings}, which had none (R748, R796)"
        )
    if not state.infractions:
        raise IllegalAction(
            "the Tournament Director stops a game for a Code of Conduct infraction: record the "
            "infraction first (R789, R748)"
        )
    if play.pending is not None and play.pending.how is How.DIRECTOR:
        raise IllegalAction(f"the Tournament Director has given the result: {play.pending.detail}")
    given = "a tie" if action.winner is None else f"{action.winner} wins"
    detail = f"the Tournament Director stopped the game: {given}"
    result = Result(action.winner, How.DIRECTOR, detail)
    return replace(state, play=replace(play, pending=result, pending_check=None))


# -- who begins ------------------------------------------------------------------------------


def _begin(state: PentathlonGame, action: Action) -> Play | None:
    """The first turn, or None: equal tosses or strips, recorded, and tossed again (R788)."""
    rules = state.rules
    if isinstance(action, Begins):
        beginner = action.player
    elif isinstance(action, DieToss) and rules.starts_by is StartMethod.DIE_TOSS:
        found = _lower_toss(action)
        if found is None:
            return None
        beginner = found
    elif isinstance(action, StripDraw) and rules.starts_by is StartMethod.STRIP_DRAW:
        assert state.settings.partitions is not None
        lower = lower_strip(action.a, action.b, state.settings.partitions)
        if lower is None:
            return None
        beginner = (Player.A, Player.B)[lower]
    elif isinstance(action, ChipInHand) and rules.starts_by is StartMethod.CHIP_IN_HAND:
        picker = action.named_by.other
        beginner = picker if action.picked_starting else action.named_by
    elif isinstance(action, StarCard) and rules.starts_by is StartMethod.FIRST_STAR_CARD:
        if not 1 <= action.draw <= STAR_DRAWS_HIGH:
            raise InvalidInput(f"star card on draw {action.draw}: expected 1 to {STAR_DRAWS_HIGH}")
        beginner = action.first if action.draw % 2 else action.first.other
    else:
        raise IllegalAction(
            f"{rules.title} begins by {rules.starts_by.value}: enter "
            f"{_start_method_action(rules.starts_by)} or pentathlon.begins first"
        )
    return first_turn(rules.new_board(state.settings), beginner, rules)


def _lower_toss(toss: DieToss) -> Player | None:
    for value in (toss.a, toss.b):
        if not 1 <= value <= DIE_SIDES:
            raise InvalidInput(f"die toss {value}: expected 1 to {DIE_SIDES}")
    if toss.a == toss.b:
        return None  # both toss again
    return Player.A if toss.a < toss.b else Player.B


def _start_method_action(method: StartMethod) -> str:
    return {
        StartMethod.DIE_TOSS: "pentathlon.die_toss",
        StartMethod.STRIP_DRAW: "pentathlon.strip_draw",
        StartMethod.CHIP_IN_HAND: "pentathlon.chip_in_hand",
        StartMethod.FIRST_STAR_CARD: "pentathlon.star_card",
    }[method]


# -- events recorded beside the play ---------------------------------------------------------


def _note(state: PentathlonGame, action: Action) -> PentathlonGame:
    """An infraction (R789), or one of the game's own events (R790, R791): recorded with the
    turn; it changes no play and does not end a ruling's window."""
    play = state.play
    if isinstance(action, Infraction):
        if action.player in state.removed:
            raise IllegalAction(f"{action.player} has been removed from the tournament site")
    else:
        if play is None or state.phase != "play":
            raise IllegalAction(f"{action.kind!r} is recorded during a turn")
        state.rules.check_note(play, action)
    turn = play.turn if play is not None else 0
    return replace(state, notes=(*state.notes, (turn, action)))


# -- play ------------------------------------------------------------------------------------


def _require(state: PentathlonGame, *phases: str) -> Play:
    play = state.play
    assert play is not None
    if state.phase in phases:
        return play
    if play.pending is not None:
        raise IllegalAction(
            f"the game has ended ({play.pending.detail}): the monitor confirms the result "
            "(a player may still challenge)"
        )
    if play.counting:
        raise IllegalAction("time is up: the monitor counts the empty spaces (juggle.count)")
    raise IllegalAction(f"not now: the game is in phase '{state.phase}'")


def _in_play(state: PentathlonGame, action: Action) -> PentathlonGame:
    rules = state.rules
    if isinstance(action, Begins | DieToss | StripDraw):
        raise IllegalAction("who begins is entered once, at the start of the game")
    if isinstance(action, Confirm):
        return replace(state, result=_require(state, "result").pending)
    if isinstance(action, TimeCalled):
        play = _require(state, "play", "counting", "result")
        if play.time_called:
            raise IllegalAction("time has been called already")
        return replace(state, play=call_time(play, rules))
    if isinstance(action, PassFlag):
        play = _require(state, "play")
        if action.player is not play.holder:
            raise IllegalAction(f"{action.player} does not hold the flag card: {play.holder} does")
        return replace(state, play=pass_flag(play, rules))
    if isinstance(action, TurnTimeout):
        play = _require(state, "play")
        if play.overtime:
            raise IllegalAction(f"{play.holder} has been reminded already")
        return replace(state, play=replace(play, overtime=True))
    if isinstance(action, ForfeitTurn):
        return replace(state, play=_forfeit(_require(state, "play"), rules))
    if isinstance(action, DeclareWin):
        return replace(state, play=_declare(_require(state, "play"), rules, action))
    return replace(state, play=rules.move(_require(state, "play", "counting"), action))


def _forfeit(play: Play, rules: GameRules) -> Play:
    if not play.overtime:
        raise IllegalAction(f"{play.holder}'s minute is not up: a turn is forfeited after it")
    if play.played:
        raise IllegalAction(f"{play.holder} has played since the reminder: the turn finishes")
    forfeited = with_value(play.forfeited, play.holder, of(play.forfeited, play.holder) + 1)
    return hand_flag(replace(play, forfeited=forfeited), rules, play.holder.other)


def _declare(play: Play, rules: GameRules, action: DeclareWin) -> Play:
    if not rules.goals:
        raise IllegalAction(f"in {rules.title} the monitor awards the win: nothing to declare")
    if action.goal not in rules.goals:
        raise InvalidInput(
            f"goal {action.goal!r}: {rules.title}'s goals are {', '.join(rules.goals)}"
        )
    player = action.player
    if action.by_monitor and not rules.monitor_declares:
        raise IllegalAction(f"in {rules.title} a win is declared by the player, with the flag card")
    if not action.by_monitor and player is not play.holder:
        raise IllegalAction(f"{player} must hold the flag card to declare a win")
    if player in play.declared:
        raise IllegalAction(f"{player} has declared a win already")
    # Recorded as declared, whatever the record says: the challenge (or none) decides (R780).
    declaration = Declaration(
        player,
        action.goal,
        play.turn,
        by_monitor=action.by_monitor,
        record_says=rules.declaration_doubt(play, player, action.goal),
    )
    play = replace(play, declarations=(*play.declarations, declaration))
    declared = (*play.declared, player)
    # Juggle: when the beginning player declares, the second player completes a turn first.
    if rules.round_game and player is play.beginner and play.holder is play.beginner:
        return replace(play, declared=declared)
    return replace(play, declared=declared, pending=declaration_result(declared, rules.title))


# -- challenges ------------------------------------------------------------------------------


def _resume(state: PentathlonGame) -> PentathlonGame:
    """Play resumes: the rulings of the latest challenge are final."""
    if state.window is None:
        return state
    first = state.window.first
    final = tuple(replace(record, final=True) for record in state.challenges[first:])
    return replace(state, challenges=state.challenges[:first] + final, window=None)


def _challenge(state: PentathlonGame, action: Challenge) -> PentathlonGame:
    play = _require(state, "play", "counting", "result")
    if state.stopped:
        raise IllegalAction("the game has ended at a third I/IA: no more challenges")
    rules = state.rules
    _check_rules(rules, action.rules)
    announcement = 1 + max((record.announcement for record in state.challenges), default=0)
    count = len(state.challenges)
    records = tuple(
        ChallengeRecord(
            number=count + offset,
            challenger=action.challenger,
            rule=key,
            announcement=announcement,
            of_declared_win=action.challenger.other in play.declared,
        )
        for offset, key in enumerate(action.rules, start=1)
    )
    return replace(state, challenges=state.challenges + records, window=Window(play, count))


def _check_rules(rules: GameRules, keys: tuple[str, ...]) -> None:
    if not keys:
        raise InvalidInput("a challenge names the rule(s) challenged, in the order announced")
    if len(set(keys)) != len(keys):
        raise InvalidInput(f"rules {list(keys)}: each rule is challenged once")
    known = [rule.key for rule in rules.challenge_rules]
    for key in keys:
        reason = NOT_CHALLENGEABLE.get(key) or rules.not_challengeable.get(key)
        if reason:
            raise IllegalAction(reason)
        if key not in known:
            raise InvalidInput(
                f"rule {key!r}: {rules.title}'s challengeable rules are {', '.join(known)}"
            )


def _rule(state: PentathlonGame, action: Rule) -> PentathlonGame:
    if state.stopped:
        raise IllegalAction(
            "the game has ended at a third I/IA: the remaining challenges are not ruled"
        )
    record = state.awaiting_ruling
    if record is None:
        raise IllegalAction("no challenge is waiting for the monitor's ruling")
    _check_allowed(state.rules, record, action.ruling)
    entry = RulingEntry(action.ruling, Official.MONITOR)
    return _refold(_with_record(state, replace(record, rulings=(entry,))))


def _opinion(state: PentathlonGame, action: Opinion) -> PentathlonGame:
    if not 1 <= action.challenge <= len(state.challenges):
        raise InvalidInput(
            f"challenge {action.challenge}: the game has {len(state.challenges)} challenge(s)"
        )
    record = state.challenges[action.challenge - 1]
    if record.final or state.window is None:
        raise IllegalAction(f"challenge {record.number}'s ruling is final: play has resumed")
    if not record.rulings:
        raise IllegalAction(f"challenge {record.number} has not been ruled by the monitor yet")
    official = record.next_official
    if official is None:
        raise IllegalAction(
            f"challenge {record.number}: the Tournament Director's opinion was final"
        )
    _check_allowed(state.rules, record, action.ruling)
    entry = RulingEntry(action.ruling, official, action.asked_by)
    return _refold(_with_record(state, replace(record, rulings=(*record.rulings, entry))))


def _check_allowed(rules: GameRules, record: ChallengeRecord, ruling: Ruling) -> None:
    rule = find_rule(rules.challenge_rules, record.rule)
    if rule.only is not None and ruling is not rule.only:
        raise IllegalAction(
            f"'{rule.key}' ({rule.title}) is not a challengeable rule: the ruling is "
            f"{rule.only.value}"
        )


def _with_record(state: PentathlonGame, record: ChallengeRecord) -> PentathlonGame:
    records = list(state.challenges)
    records[record.number - 1] = record
    return replace(state, challenges=tuple(records))


def _refold(state: PentathlonGame) -> PentathlonGame:
    """Replay the window's rulings in force, in order, from the play before the challenge."""
    assert state.window is not None
    rules = state.rules
    play = state.window.before
    records = list(state.challenges)
    settled = records[: state.window.first]
    counts = {player: strikes(settled, player) for player in Player}
    ended = False
    for index in range(state.window.first, len(records)):
        record = records[index]
        if record.ruling is None:
            continue
        if ended:
            effect = "not in force: the game had ended at a third I/IA"
            records[index] = replace(record, effect=effect, in_force=False)
            continue
        play, effect = apply_ruling(play, rules, record)
        if record.ruling.strike:
            challenger = record.challenger
            counts[challenger] += 1
            if counts[challenger] >= STRIKES_TO_LOSE:
                play = _third_strike(play, challenger)
                effect += f"; {challenger}'s third I/IA: the game ends as a loss for {challenger}"
                ended = True
            else:
                effect += f"; warning to {challenger}: {warning(counts[challenger])}"
        records[index] = replace(record, effect=effect, in_force=True)
    return replace(state, play=play, challenges=tuple(records))


def _third_strike(play: Play, player: Player) -> Play:
    detail = f"{player} has three I/IA rulings: the game is a loss for {player}"
    loss = Result(player.other, How.THREE_STRIKES, detail)
    return replace(play, pending=loss, pending_check=None)
