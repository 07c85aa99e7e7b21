"""One game as the server holds it: the rules-layer game record, the clock, the players, and the
state each viewer may see. Pure: no I/O, time comes in as an argument."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, NamedTuple

from ..rules import Board, IllegalMoveError, Outcome, ProgramError, Roster, Termination, get_variant
from ..rules.game import notation
from ..rules.game.preview import roster_problem
from ..rules.game.record import Game, RecordError
from ..rules.game.setups import Prelude, PreludeError, substitution_fen
from . import variants
from .clock import TIME_CONTROLS, Clock
from .colours import COLOUR_RE, DEFAULT_COLOURS, too_close
from .guide import guide as piece_guide
from .store import GameRow, waiting_game


class ActionError(Exception):
    """A refused action; the message is shown to the player and nothing changes."""


MODES = ("default", "private", "symmetric", "prelude")
#: the phase of an active game
PLAY = "play"
#: the phase of a game that is over (finished or aborted): a rematch may be offered
OVER = "over"
OVER_STATUSES = ("finished", "aborted")
#: the modes with a set-up before play (Private rosters being chosen, Superchess's prelude): that
#: phase is named after its mode, and this is why an action of play waits during it
SETUP_WAITS = {"private": "the players are still choosing their rosters",
               "prelude": "the players are still choosing the set-up (prelude)"}


#: how an event changes a game's stored moves: (index, text) of the move played, (index, None) of
#: the first move taken back (those after it go too), or None
NewMove = tuple[int, str | None] | None


class Played(NamedTuple):
    """What the server notes of a move as it is played (both need the position before it)."""
    ply: int  # its turn as a ply number (the moves of a turn share one)
    lost: tuple[tuple[str, ...], tuple[str, ...]]  # the pieces each side had lost once it was played
    notation: str  # its readable text (docs/notation.md)


@dataclass(frozen=True)
class Action:
    """What a player's action does and when it is accepted (the table `ACTIONS`)."""
    handle: Callable[["LiveGame", int, dict, int], dict]  # (game, side, payload, now) -> the event
    phases: frozenset[str]  # PLAY and the set-ups (by mode) that accept it
    refusal: str = ""  # why an action of a set-up alone is refused once play began
    when_damaged: bool = False  # accepted in a game whose stored data cannot be played


def reason_text(game: Game, winner: int | None) -> str:
    o = game.outcome
    t = o.termination
    wins = f"Player {winner + 1} wins" if winner is not None else "draw"
    if t is Termination.CHECKMATE:
        return f"Checkmate — {wins}"
    if t is Termination.RESIGNATION:
        return f"Player {(winner ^ 1) + 1} resigned — {wins}"
    if t is Termination.TIME:
        flagged = game.board.turn + 1
        return f"Player {flagged} lost on time — {wins}" if winner is not None else \
            f"Player {flagged} ran out of time, but the opponent cannot mate — draw"
    if t is Termination.MOVE_RULE:
        return f"Draw — {game.board.variant.move_rule_claim // 2}-move rule" + (" (claimed)" if o.claimed else "")
    if t is Termination.REPETITION:
        return "Draw by repetition" + (" (claimed)" if o.claimed else "")
    return {Termination.STALEMATE: "Stalemate — draw", Termination.INSUFFICIENT_MATERIAL: "Draw — insufficient material",
            Termination.AGREEMENT: "Draw by agreement", Termination.ABORTED: "Game aborted"}[t]


_compact = json.JSONEncoder(separators=(",", ":")).encode  # what the server sends: no spaces


class LiveGame:
    def __init__(self, row: GameRow, moves: list[str], names: dict[int, str], now: int,
                 continuing: bool = False) -> None:
        """The stored game, its clock running as from `now` (`resume`), or as stored when
        `continuing` (another process of the cluster served it until now)."""
        self.row = row
        self.names = names
        self.tc = TIME_CONTROLS[row.time_control]
        self.prelude = Prelude.replay(get_variant(row.variant), json.loads(row.prelude or "[]")) \
            if row.mode == "prelude" else None
        # why the game cannot go on, if its stored data cannot be played (a roster stored by an
        # earlier, laxer version): it can still be read, and aborted by either player
        self.damage: str | None = None
        rosters = self.rosters()
        if self.prelude and row.status in ("waiting", "setup"):  # the set-up so far
            self.game = Game(row.variant, self._prelude_fen())
        else:  # a Private game's rosters join the board when the set-up ends (no move is played before)
            self.game = self._game_with(None if row.status in ("waiting", "setup") else rosters)
        # the i-th entry is that of the i-th move of the board's stack (every move enters through
        # `_play`); entries past the stack's end are those of retracted moves, replaced as moves are
        # played again, so taking a move back needs no bookkeeping here
        self._played: list[Played] = []
        for text in moves:
            try:
                self._play(text)
            except IllegalMoveError as e:  # only where the rosters could not be read
                self.damage = self.damage or f"the stored move {text} cannot be replayed ({e})"
                break
        if row.status in ("finished", "aborted") and self.game.outcome is None:
            # endings that are not on the board (resignation, agreement, time, claim, abort)
            self.game.outcome = Outcome(Termination(row.termination), row.winner, bool(row.claimed))
        self.clock = Clock(self.tc, [row.remaining0, row.remaining1], self._turns_done())
        # what was left of the set-up window when the game was last saved
        self._setup_left = max(0, row.setup_deadline - row.updated_at) \
            if row.status == "setup" and row.setup_deadline is not None else None
        if continuing:
            self._continue()
        else:
            self.resume(now)
        self._states: dict = {}
        self._fixed: tuple | None = None  # (player ids, the fixed shared facts, their JSON)
        # a rated game's ratings as the players see them (`show_ratings`); None: a casual game
        self.ratings: list[dict] | None = None
        self.spawned: LiveGame | None = None  # the rematch the last event started, until the hub takes it

    @property
    def takeback_offer(self) -> int | None:
        """The side asking to take its last turn back, or None; a column of the game's row, so that
        it outlives a restart and any process may answer it."""
        return self.row.takeback_offer

    @takeback_offer.setter
    def takeback_offer(self, side: int | None) -> None:
        self.row.takeback_offer = side

    def resume(self, now: int) -> None:
        """Run the clock (or the set-up window) of the game just loaded as from `now`, when the
        server serves it. A real-time turn starts again with the time its side had when it began:
        the time the server was down or starting is not charged. A Daily deadline is an instant that
        a restart does not move: time the server was down counts, as in correspondence chess.
        Resuming again with a later `now` gives the time in between back (the hub loads every game,
        then resumes them all when its start-up is over)."""
        if self.row.status == "active":
            began = self.row.turn_started_at if self.tc.daily else None
            self.clock.start(self.game.board.turn, now if began is None else began)
        elif self._setup_left is not None and not self.tc.daily:
            self.row.setup_deadline = now + self._setup_left

    def _continue(self) -> None:
        """Run the clock as stored: the turn began at its stored instant, the set-up window ends at
        its stored deadline (the game was served by another process up to now)."""
        if self.row.status == "active":
            self.clock.start(self.game.board.turn, self.row.turn_started_at or self.row.updated_at)

    def resumed(self, now: int) -> dict:
        """The event of a game taken over from a server process that died: its clock runs again as
        from `now` (`resume`), so nobody is charged for the time no process served it."""
        self.resume(now)
        return {"kind": "resumed"}

    def rosters(self) -> tuple[Roster, Roster]:
        """The stored rosters; one that cannot be read counts as the default and damages the game."""
        rosters = []
        for side in (0, 1):
            try:
                rosters.append(Roster.parse(getattr(self.row, f"roster{side}") or ""))
            except ProgramError as e:
                self.damage = self.damage or f"Player {side + 1}'s stored roster cannot be read ({e})"
                rosters.append(Roster())
        return rosters[0], rosters[1]

    def _game_with(self, rosters: tuple[Roster, Roster] | None) -> Game:
        """A new game record from the start position with these rosters (the default ones, and the
        game damaged, if the rules refuse them)."""
        try:
            return Game(self.row.variant, self.row.start_fen, rosters)
        except ProgramError as e:
            self.damage = self.damage or f"the stored rosters cannot be played ({e})"
            return Game(self.row.variant, self.row.start_fen)

    # -- who --------------------------------------------------------------------------------
    def side_of(self, player_id: int | None) -> int | None:
        if player_id is None:
            return None
        if player_id == self.row.player0_id:
            return 0
        if player_id == self.row.player1_id:
            return 1
        return None

    def _turns_done(self) -> int:
        """Turns finished so far (a turn of a multi-move variant is one clock move)."""
        board = self.game.board
        return len(board.turn_texts()) - (1 if board.moves_in_turn else 0)

    # -- changes ----------------------------------------------------------------------------
    def _play(self, text: str) -> None:
        board = self.game.board
        move = board.parse_move(text)
        index = len(board.move_stack)
        taken = board.captures(move)
        lost = self._played[index - 1].lost if index else ((), ())
        if taken:
            lost = tuple(lost[side] + tuple(p.symbol() for _, p in taken if p.side == side) for side in (0, 1))
        ply = (board.fullmove_number - 1) * 2 + board.turn
        text, mover = notation.plain_text(board, move), board.turn
        self.game.play(move)
        self._played[index:] = [Played(ply, lost, text + notation.mark(board, mover))]

    def new_move(self, plies_before: int) -> NewMove:
        """How the stored moves change after an event that found `plies_before` moves on the board:
        the move played (its index and text), the index of the move taken back (text None), or None."""
        stack = self.game.board.move_stack
        if len(stack) > plies_before:
            return plies_before, stack[-1].text
        if len(stack) < plies_before:
            return len(stack), None
        return None

    def start(self, player0: int, player1: int, now: int) -> dict:
        """The invitation is accepted: the set-up or the play begins."""
        self.row.player0_id, self.row.player1_id = player0, player1
        if self.row.mode in SETUP_WAITS:
            self.row.status = "setup"
            self.row.setup_deadline = now + self.tc.roster_window_ms
        else:
            self._begin(now)
        return {"kind": "start"}

    def decline(self) -> dict:
        self.row.status = "declined"
        return {"kind": "declined"}

    def _begin(self, now: int) -> None:
        """Play starts: the rosters are final, Player 1's (untimed) first move begins."""
        rosters = self.rosters()
        if any(rosters):
            self.game = self._game_with(rosters)
        self.row.status = "active"
        self.row.setup_deadline = None
        self.clock.start(self.game.board.turn, now)

    def deadline(self) -> int | None:
        """When the next automatic event is due: the end of the set-up, or a flag fall."""
        if self.row.status == "setup":
            return self.row.setup_deadline
        return self.clock.deadline() if self.row.status == "active" else None

    def time_left(self, side: int, now: int) -> int | None:
        """What a player has left as of `now` (ms): until the next deadline on their turn or in a
        set-up (a flag fall, the end of an untimed first move's window, a Daily move's limit, the
        set-up's end), else their clock; None when nothing runs."""
        if self.row.status == "setup" or self.row.status == "active" and self.clock.running == side:
            deadline = self.deadline()
            return None if deadline is None else max(0, deadline - now)
        return self.clock.remaining[side] if self.row.status == "active" else None

    def expired(self, now: int) -> bool:
        d = self.deadline()
        return d is not None and now >= d

    def apply(self, action: str, side: int | None, payload: dict, now: int) -> dict:
        """Apply a player's action (or `timeout` with side None); return the event, or raise
        ActionError with the reason and change nothing."""
        if action == "timeout":
            return self._timeout(now)
        rule = ACTIONS.get(action)
        if rule is None:
            raise ActionError(f"unknown action {action!r}")
        if side is None:
            raise ActionError("only the players of this game can do that")
        status = self.row.status
        if status in OVER_STATUSES and OVER in rule.phases:
            return rule.handle(self, side, payload, now)
        if status == "setup":
            if self.row.mode not in rule.phases:
                raise ActionError(SETUP_WAITS[self.row.mode])
        elif PLAY not in rule.phases:
            raise ActionError(rule.refusal)
        elif status != "active":
            raise ActionError("the game is not in progress" if status != "waiting"
                              else "the game has not started: the invitation is not accepted yet")
        elif self.damage and not rule.when_damaged:
            raise ActionError(f"this game cannot go on: {self.damage}; either player may abort it")
        if self.expired(now):  # a deadline that passed before its timer fired decides first
            return self._timeout(now)
        return rule.handle(self, side, payload, now)

    def _move(self, side: int, payload: dict, now: int) -> dict:
        text = payload.get("move")
        if not isinstance(text, str) or not 0 < len(text) <= 12:
            raise ActionError("a move needs its text, e.g. h2h4")
        if side != self.game.board.turn:
            raise ActionError("it is not your turn")
        try:
            self._play(text)
        except IllegalMoveError as e:
            raise ActionError(str(e)) from None
        if self.row.draw_offer == side ^ 1:  # moving instead of answering declines the offer
            self.row.draw_offer = None
        self.takeback_offer = None  # a move answers a takeback request too (by refusing it)
        if self.game.board.moves_in_turn == 0:  # the clock passes when the turn ends
            self.clock.on_move(now)
        if self.game.outcome:
            self._finish(now)
        event = {"kind": "move", "move": self.game.board.peek().text, "side": side}
        if variants.drafted_turns(self.game.board.variant) and self.game.board.moves_in_turn == 0:
            event["turn"] = self._last_turn()  # the opponent sees the whole turn arrive
        return event

    def _last_turn(self) -> list[str]:
        """The moves of the turn that just ended, in order (`end` included when it ended the turn)."""
        board = self.game.board
        last = board.peek()
        return board.turn_texts()[-1].split() + ([last.text] if last.from_cell < 0 else [])

    def _retract(self, side: int, payload: dict, now: int) -> dict:
        """Take back the last move of the unfinished turn (tiling-rider R12); the clock runs on."""
        board = self.game.board
        if not variants.drafted_turns(board.variant):
            raise ActionError(f"moves cannot be taken back in {board.variant.title}")
        if side != board.turn:
            raise ActionError("it is not your turn")
        if not board.moves_in_turn:
            raise ActionError("no move of this turn to take back")
        text = board.pop().text
        return {"kind": "retract", "move": text, "side": side}

    # -- colours ------------------------------------------------------------------------------
    def colours(self) -> list[str]:
        """Each side's piece colour in this game (the default where none was chosen)."""
        return [getattr(self.row, f"colour{s}") or DEFAULT_COLOURS[s] for s in (0, 1)]

    def _set_colour(self, side: int, payload: dict, now: int) -> dict:
        """A player's colour for this game, seen by everyone; refused when too close to the
        opponent's, so that the armies can always be told apart."""
        colour = payload.get("colour")
        if not isinstance(colour, str) or not COLOUR_RE.match(colour):
            raise ActionError("a colour is written #rrggbb")
        colour = colour.lower()
        theirs = self.colours()[side ^ 1]
        if too_close(colour, theirs):
            raise ActionError(f"{colour} is too close to your opponent's colour {theirs}: "
                              "choose one that differs more")
        setattr(self.row, f"colour{side}", colour)
        return {"kind": "colour", "side": side, "colour": colour}

    # -- takebacks (casual games) -----------------------------------------------------------------
    def _takeback_start(self, side: int) -> int:
        """How many moves of the board's stack stay when a takeback asked by `side` is accepted: its
        last finished turn goes, with every move after it (the reply, an unfinished turn); ActionError
        when the game does not allow it."""
        if self.row.rated:
            raise ActionError("moves cannot be taken back in a rated game")
        board = self.game.board
        i = len(board.move_stack) - board.moves_in_turn - 1  # the last move of a finished turn
        while i >= 0 and self._played[i].ply % 2 != side:  # a turn's ply number tells its side
            i -= 1
        if i < 0:
            raise ActionError("you have no move to take back")
        while i > 0 and self._played[i - 1].ply == self._played[i].ply:  # back to the turn's first move
            i -= 1
        return i

    def _offer_takeback(self, side: int, payload: dict, now: int) -> dict:
        self._takeback_start(side)
        if self.takeback_offer == side:
            raise ActionError("you have already asked to take your move back")
        self.takeback_offer = side
        return {"kind": "takeback_offer", "side": side}

    def _accept_takeback(self, side: int, payload: dict, now: int) -> dict:
        """The requester's last turn (and the reply to it) is taken back; the requester is to move,
        its clock running from now (the time spent is not given back). The event lists the moves of
        the finished turns taken back (an unfinished turn's moves are its mover's draft)."""
        if self.takeback_offer != side ^ 1:
            raise ActionError("there is no takeback request to accept")
        keep = self._takeback_start(side ^ 1)
        board = self.game.board
        finished = len(board.move_stack) - board.moves_in_turn
        taken = [m.text for m in board.move_stack[keep:finished]]
        self.clock.stop(now)
        while len(board.move_stack) > keep:
            board.pop()
        self.clock.moves_made = self._turns_done()
        self.clock.start(board.turn, now)
        self.takeback_offer = self.row.draw_offer = None
        return {"kind": "takeback", "side": side, "moves": taken}

    def _decline_takeback(self, side: int, payload: dict, now: int) -> dict:
        if self.takeback_offer != side ^ 1:
            raise ActionError("there is no takeback request to decline")
        self.takeback_offer = None
        return {"kind": "takeback_declined", "side": side}

    def _resign(self, side: int, payload: dict, now: int) -> dict:
        self.game.resign(side)
        return self._finish(now)

    def _offer_draw(self, side: int, payload: dict, now: int) -> dict:
        if self.row.draw_offer == side ^ 1:
            return self._accept_draw(side, payload, now)
        if self.row.draw_offer == side:
            raise ActionError("you have already offered a draw")
        self.row.draw_offer = side
        return {"kind": "draw_offer", "side": side}

    def _accept_draw(self, side: int, payload: dict, now: int) -> dict:
        if self.row.draw_offer != side ^ 1:
            raise ActionError("there is no draw offer to accept")
        self.game.agree_draw()
        return self._finish(now)

    def _decline_draw(self, side: int, payload: dict, now: int) -> dict:
        if self.row.draw_offer != side ^ 1:
            raise ActionError("there is no draw offer to decline")
        self.row.draw_offer = None
        return {"kind": "draw_declined", "side": side}

    def _claim_draw(self, side: int, payload: dict, now: int) -> dict:
        if side != self.game.board.turn:
            raise ActionError("a draw can be claimed only on your own turn")
        try:
            self.game.claim_draw()
        except RecordError as e:
            raise ActionError(str(e)) from None
        return self._finish(now)

    def _abort(self, side: int, payload: dict, now: int) -> dict:
        if self.clock.moves_made >= 2 and not self.damage:  # turns finished
            raise ActionError("the game can be aborted only before both sides have moved")
        rosters = self.rosters()
        if self.row.status == "setup" and any(rosters):  # the record keeps what was submitted
            self.game = self._game_with(rosters)
        self.game.abort()
        return self._finish(now)

    # -- rematch ----------------------------------------------------------------------------
    def _offer_rematch(self, side: int, payload: dict, now: int) -> dict:
        self._refuse_rematch_if_impossible()
        if self.row.rematch_offer == side ^ 1:
            return self._accept_rematch(side, payload, now)
        if self.row.rematch_offer == side:
            raise ActionError("you have already offered a rematch")
        self.row.rematch_offer = side
        return {"kind": "rematch_offer", "side": side}

    def _accept_rematch(self, side: int, payload: dict, now: int) -> dict:
        """The rematch starts: a new game with the same settings and the sides swapped (`rematch`),
        which the hub adds in the transaction that saves this event."""
        self._refuse_rematch_if_impossible()
        if self.row.rematch_offer != side ^ 1:
            raise ActionError("there is no rematch offer to accept")
        self.spawned = self.rematch(self.row.rematch_offer, now)
        self.row.rematch_offer = None
        self.row.rematch_id = self.spawned.row.id
        return {"kind": "rematch", "game_id": self.row.rematch_id}

    def _decline_rematch(self, side: int, payload: dict, now: int) -> dict:
        if self.row.rematch_offer != side ^ 1:
            raise ActionError("there is no rematch offer to decline")
        self.row.rematch_offer = None
        return {"kind": "rematch_declined", "side": side}

    def _refuse_rematch_if_impossible(self) -> None:
        if self.row.rematch_id:
            raise ActionError("the rematch has started already")
        if self.row.player0_id is None or self.row.player1_id is None:
            raise ActionError("this game had no opponent to play again")
        if self.damage:
            raise ActionError(f"this game cannot be played again: {self.damage}")

    def rematch(self, offered_by: int, now: int) -> "LiveGame":
        """The rematch, started at `now`: the same variant, time control, mode, start position (a
        prelude's is chosen anew, a Private game's rosters too) and rating, the players' sides
        swapped; the side that offered it is its creator."""
        row = self.row
        new = waiting_game(row.variant, row.time_control, getattr(row, f"player{offered_by}_id"), offered_by ^ 1, now,
                           start_fen=None if row.mode == "prelude" else row.start_fen, mode=row.mode,
                           roster=row.roster0 if row.mode == "symmetric" else None, rated=bool(row.rated))
        new.player0_id, new.player1_id = row.player1_id, row.player0_id
        return LiveGame.started(new, dict(self.names), now)

    @classmethod
    def started(cls, row: GameRow, names: dict[int, str], now: int) -> "LiveGame":
        """A new game (not stored yet) whose two players are set, started at `now`: its first
        version, ready to send (rules work: run it off the event loop)."""
        game = cls(row, [], names, now)
        game.start(row.player0_id, row.player1_id, now)
        game.bump_version()
        game.prepare()
        return game

    def _submit_roster(self, side: int, payload: dict, now: int) -> dict:
        if getattr(self.row, f"submitted{side}"):
            raise ActionError("you have already submitted your roster")
        try:
            roster = Roster.from_data(payload.get("roster") or {})
            problem = roster_problem(self.game.board.variant, roster, side, self.row.start_fen)
        except ProgramError as e:
            raise ActionError(str(e)) from None
        if problem:
            raise ActionError(problem)
        setattr(self.row, f"roster{side}", roster.text() or None)
        setattr(self.row, f"submitted{side}", 1)
        if self.row.submitted0 and self.row.submitted1:
            self._begin(now)
        return {"kind": "roster_submitted", "side": side}  # never the roster itself

    # -- the Superchess prelude (rules section 2.3) ------------------------------------------
    def _prelude_fen(self) -> str:
        return substitution_fen(get_variant(self.row.variant), self.prelude.picks, partial=True)

    def _prelude_pick(self, side: int, payload: dict, now: int) -> dict:
        square, piece = payload.get("square"), payload.get("piece")
        if not isinstance(square, str) or not isinstance(piece, str):
            raise ActionError('a prelude choice needs a "square" and a "piece", e.g. g1 and A')
        try:
            self.prelude.pick(side, square, piece.upper())
        except PreludeError as e:
            raise ActionError(str(e)) from None
        self.row.prelude = json.dumps(self.prelude.steps())
        self.game = Game(self.row.variant, self._prelude_fen())
        return {"kind": "prelude", "side": side, "square": square, "piece": piece.upper()}

    def _prelude_swap(self, side: int, payload: dict, now: int) -> dict:
        squares = payload.get("squares")
        if squares is not None and (not isinstance(squares, list) or len(squares) != 2
                                    or not all(isinstance(x, str) for x in squares)):
            raise ActionError('an exchange names two squares, e.g. {"squares": ["g1", "b1"]}, or null to decline')
        try:
            self.prelude.swap(side, tuple(squares) if squares else None)
        except PreludeError as e:
            raise ActionError(str(e)) from None
        self._finish_prelude(self.prelude.choice(), now)
        return {"kind": "prelude", "side": side, "swap": squares}

    def _finish_prelude(self, choice: dict, now: int) -> None:
        self.row.prelude = json.dumps(self.prelude.steps())
        self.row.start_fen = substitution_fen(self.game.board.variant, choice)
        self.game = Game(self.row.variant, self.row.start_fen)
        self._begin(now)

    def _timeout(self, now: int) -> dict:
        if self.row.status == "setup" and self.expired(now):
            if self.prelude:  # the choices not made in time are made at random
                self._finish_prelude(self.prelude.completed_at_random(self.row.id), now)
            else:  # who has not submitted a roster keeps the default
                self._begin(now)
            return {"kind": "start"}
        if self.row.status != "active" or not self.clock.expired(now):
            raise ActionError("no time has run out")
        if not self.clock.timed():  # a first move that never came: R18 aborts the game
            self.game.abort()
        else:
            side = self.clock.running
            self.clock.stop(now)
            self.clock.remaining[side] = 0
            self.game.flag(side)
        return self._finish(now)

    def _finish(self, now: int) -> dict:
        o = self.game.outcome
        self.clock.stop(now)
        self.row.status = "aborted" if o.termination is Termination.ABORTED else "finished"
        self.row.result = o.result()
        self.row.termination = o.termination.value
        self.row.claimed = int(o.claimed)
        self.row.winner = o.winner
        self.row.draw_offer = self.takeback_offer = None
        return {"kind": "end", "termination": o.termination.value, "result": o.result()}

    def sync_row(self, now: int) -> GameRow:
        """The row to persist: clock times as of the start of the current turn, and when it began."""
        self.row.remaining0, self.row.remaining1 = self.clock.remaining
        self.row.turn_started_at = self.clock.turn_started if self.clock.running is not None else None
        self.row.updated_at = now
        return self.row

    # -- what a viewer sees -----------------------------------------------------------------
    def state(self, viewer: int | None, now: int, colour: str | None = None) -> dict:
        return json.loads(self.state_json(viewer, now, colour))

    def state_json(self, viewer: int | None, now: int, colour: str | None = None) -> str:
        """What this viewer may see, as JSON text (`legal` holds the moves only for the player to
        move). The parts every viewer shares (the board, the legal moves) are encoded once per
        version and spliced in: the server sends this after every event."""
        to_move, own = self._own_part(viewer, now, colour)
        shared = self._cached("turn_start_json", self._turn_start_json) if self._draft_hidden_from(viewer) \
            else self._cached("shared_json", self._shared_json)
        legal = self._cached("legal_json", self._legal_json) if to_move else "{}"
        ratings = self._cached("ratings_json", lambda: _compact(self.ratings))
        return f'{{{shared},{_compact(own)[1:-1]},"ratings":{ratings},"legal":{legal}}}'

    def show_ratings(self, view: list[dict] | None) -> None:
        """The players' ratings as the state shows them (`ratings.side_view` per side), set by the
        hub when the game is loaded or started and when its end is rated."""
        self.ratings = view
        self._states.pop("ratings_json", None)

    def prepare(self) -> None:
        """Build what every viewer's state shares for this version (the board, the legal moves, a
        drafted turn's start), so that sending states after an event costs no rules work: the
        server calls this off the event loop."""
        self._cached("shared_json", self._shared_json)
        if self.row.status == "active":
            self._cached("legal_json", self._legal_json)
            self._claimable()
            if self._draft_hidden_from(self.game.board.turn ^ 1):
                self._cached("turn_start_json", self._turn_start_json)

    # -- drafted turns (tiling-rider R12): the unfinished turn is the mover's alone ------------------
    def _draft_hidden_from(self, viewer: int | None) -> bool:
        """Does this viewer see the current turn's start instead of the mover's unfinished turn?"""
        board = self.game.board
        return (self.row.status == "active" and viewer != board.turn and board.moves_in_turn > 0
                and variants.drafted_turns(board.variant))

    def visible_event(self, viewer: int | None, event: dict | None) -> dict | None:
        """The event as this viewer may hear it: the moves and retractions of a drafted turn reach
        only the mover; the move that ends the turn reaches everyone with the whole turn."""
        if (event and event.get("kind") in ("move", "retract") and viewer != event.get("side")
                and variants.drafted_turns(self.game.board.variant) and "turn" not in event):
            return None
        return event

    def _turn_start_json(self) -> str:
        return _compact(self._turn_start_shared())[1:-1]

    def _turn_start_shared(self) -> dict:
        """The shared state as the opponent and watchers see a drafted turn: the position at its start."""
        board = self.game.board
        start = Board(self.row.variant, board.fen().partition(" | ")[0])
        kept = max(0, len(board.move_stack) - board.moves_in_turn)
        earlier = board.move_stack[:kept]
        last = earlier[-1] if earlier and earlier[-1].from_cell >= 0 else None
        geo = start.geometry
        return {**self._shared(), "fen": start.fen(), "pieces": start.piece_symbols(),
                "moves": [m.text for m in earlier], "notation": self._notation(kept),
                "move_plies": self._move_plies(kept), "turn_moves": 0,
                "last_move": {"from": geo.name(last.from_cell), "to": geo.name(last.to_cell)} if last else None,
                "can_end_turn": False, "check": start.king(start.turn) if start.is_check() else None,
                "captured": self._captured(kept), **variants.turn_facts(start)}

    def _secret_sides(self, viewer: int | None) -> list[bool]:
        """The sides whose program this viewer may not see (a Private game's opponent)."""
        visible = self._visible_rosters(viewer)
        return [self.row.mode == "private" and visible[s] is None for s in (0, 1)]

    def guide(self, viewer: int | None) -> dict:
        """The piece guide as this viewer may see it (`guide.guide`): rules work, off the event loop."""
        return piece_guide(self.row.variant, self._visible_rosters(viewer), self._secret_sides(viewer))

    def reach(self, viewer: int | None, square: str) -> dict:
        """Where the piece on `square` (in the position this viewer sees) could move if it were its
        side's turn; a secret program's piece says so instead. ValueError for an empty or unknown square."""
        board = self.game.board.copy()
        while len(board.move_stack) > self.visible_moves(viewer):
            board.pop()
        piece = board.piece_at(square)  # ValueError for a square off the board
        if piece is None:
            raise ValueError(f"no piece on {square}")
        if self._secret_sides(viewer)[piece.side]:
            return {"square": square, "piece": piece.symbol(), "secret": True, "destinations": []}
        return {"square": square, "piece": piece.symbol(), "secret": False, "destinations": board.reach(square)}

    def visible_moves(self, viewer: int | None) -> int:
        """How many moves of the board's stack this viewer sees (a drafted turn is the mover's alone)."""
        board = self.game.board
        return len(board.move_stack) - (board.moves_in_turn if self._draft_hidden_from(viewer) else 0)

    def position(self, viewer: int | None, moves: int) -> dict:
        """The position after the first `moves` moves this viewer sees, as the board draws it (the
        replay of the game page): pieces, last move, check, captured pieces, holdings. Rules work
        (a copy of the board taken back to that move): run it off the event loop. ValueError for a
        number outside 0..the moves seen."""
        if not 0 <= moves <= self.visible_moves(viewer):
            raise ValueError(f"no position after {moves} moves: this game shows {self.visible_moves(viewer)}")
        board = self.game.board.copy()
        while len(board.move_stack) > moves:
            board.pop()
        last = board.peek()
        if last is not None and last.from_cell < 0:  # `end` of a turn: the turn's last real move
            real = [m for m in board.move_stack if m.from_cell >= 0]
            last = real[-1] if real else None
        geo = board.geometry
        return {"moves": moves, "fen": board.fen(), "turn": board.turn, "pieces": board.piece_symbols(),
                "last_move": {"from": geo.name(last.from_cell), "to": geo.name(last.to_cell)} if last else None,
                "check": board.king(board.turn) if board.is_check() else None, "captured": self._captured(moves),
                "holdings": [board.holdings(0), board.holdings(1)] if board.variant.holdings else None,
                **variants.turn_facts(board)}

    def _own_part(self, viewer: int | None, now: int, colour: str | None) -> tuple[bool, dict]:
        """What only this viewer sees (all but the legal moves), and whether it is to move."""
        status = self.row.status
        to_move = status == "active" and viewer == self.game.board.turn
        return to_move, {
            "you": viewer, "can_claim_draw": to_move and self._claimable(),
            "can_abort": status in ("active", "setup") and viewer is not None
            and (self.clock.moves_made < 2 or self.damage is not None),
            "rosters": self._cached(f"rosters{viewer}", lambda: self._visible_rosters(viewer)),
            "invite_url": f"/invite/{self.row.invite_token}" if status == "waiting" and viewer is not None else None,
            "can_rematch": status in OVER_STATUSES and viewer is not None and self.row.rematch_id is None
            and self.row.player0_id is not None and self.row.player1_id is not None and self.damage is None,
            "clock": self._clock_view(now),
            "colours": {"own": colour if viewer is not None else None, "sides": self.colours()}}

    def _prelude_view(self) -> dict | None:
        p = self.prelude
        if p is None:
            return None
        return {"steps": p.steps(), "to_move": None if p.finished else p.to_move, "expects": p.expects,
                "remaining": p.remaining(),
                "free": [sq for sq in (p.king_wing if p.expects == "king wing" else p.queen_wing)
                         if sq not in p.picks] if p.expects in ("king wing", "queen wing") else [],
                "placed": sorted(p.picks)}

    def rosters_revealed(self) -> bool:
        """May everyone see both rosters? Always, but in a Private game (R13-R17): there only once a
        game that both sides played has ended, so that aborting (or resigning) before the opponent
        has moved never shows their programs."""
        return self.row.mode != "private" or self.row.status == "finished" and self.clock.moves_made >= 2

    def _visible_rosters(self, viewer: int | None) -> list[dict | None]:
        """Each side's roster if this viewer may see it: a hidden Private roster only by its owner,
        once final (submitted, or the default when play began)."""
        rosters = self.rosters()
        if self.rosters_revealed():
            return [r.to_data() for r in rosters]
        return [r.to_data() if s == viewer and (getattr(self.row, f"submitted{s}") or self.row.status != "setup")
                else None for s, r in enumerate(rosters)]

    def _cached(self, key: str, build):
        """Per-version cache: a state is built once per event however many viewers receive it."""
        hit = self._states.get(key)
        if hit is None:
            hit = self._states[key] = build()
        return hit

    def bump_version(self) -> int:
        """A new event: the version grows and what was built for the old one is dropped."""
        self.row.version += 1
        self._states.clear()
        return self.row.version

    def _legal_json(self) -> str:
        return variants.legal_json(self.game.board)

    def _claimable(self) -> bool:
        return self._cached("claim", self.game.board.can_claim_draw)

    def _shared(self) -> dict:
        """The part of the state every viewer sees alike."""
        return {**self._static()[0], **self._cached("dynamic", self._build_dynamic),
                "moves": [m.text for m in self.game.board.move_stack]}

    def _shared_json(self) -> str:
        """`_shared()` as JSON members (no braces): the fixed part encoded once per game, the move
        list joined from the move texts (letters, digits and `@=+-`: nothing to escape)."""
        texts = [m.text for m in self.game.board.move_stack]
        return (self._static()[1] + "," + _compact(self._cached("dynamic", self._build_dynamic))[1:-1]
                + (',"moves":["' + '","'.join(texts) + '"]' if texts else ',"moves":[]'))

    def _static(self) -> tuple[dict, str]:
        """The shared facts that do not change with the moves (players join at the start), and their
        JSON members."""
        row = self.row
        key = (row.player0_id, row.player1_id)
        if self._fixed is None or self._fixed[0] != key:
            board = self.game.board
            geo = board.geometry
            names = [self.names.get(pid) if pid else None for pid in key]
            fixed = {
                "id": row.id, "variant": board.variant.name, "title": board.variant.title,
                "files": geo.files, "ranks": geo.ranks,
                "players": [{"name": names[s], "side": s} for s in (0, 1)],
                "promotion_choices": [c.lower() for c in board.variant.promotion_choices],
                "time_control": {"id": self.tc.id, "name": self.tc.name}, "mode": row.mode, "rated": bool(row.rated),
                "drafted_turns": variants.drafted_turns(board.variant),
            }
            self._fixed = (key, fixed, _compact(fixed)[1:-1])
        return self._fixed[1], self._fixed[2]

    def _build_dynamic(self) -> dict:
        board = self.game.board
        row = self.row
        geo = board.geometry
        last = board.peek()
        check = board.king(board.turn) if board.is_check() else None
        o = self.game.outcome
        return {
            "version": row.version, "status": row.status,
            "fen": board.fen(), "turn": board.turn,
            "pieces": board.piece_symbols(),
            "last_move": {"from": geo.name(last.from_cell), "to": geo.name(last.to_cell)}
            if last and last.from_cell >= 0 else None,
            "turn_moves": board.moves_in_turn,
            "move_plies": self._move_plies(len(board.move_stack)) if variants.multi_move(board.variant) else None,
            "can_end_turn": variants.multi_move(board.variant) and self.row.status == "active"
            and any(m.from_cell < 0 for m in board.legal_moves),
            "check": check, "captured": self._captured(len(board.move_stack)),
            "notation": self._notation(len(board.move_stack)),
            "holdings": [board.holdings(0), board.holdings(1)] if board.variant.holdings else None,
            "draw_offer": row.draw_offer, "takeback_offer": self.takeback_offer,
            "rematch_offer": row.rematch_offer, "rematch": row.rematch_id,
            "result": row.result, "termination": row.termination,
            "reason": reason_text(self.game, o.winner) if o else None,
            "damage": self.damage,
            "roster_submitted": [bool(row.submitted0), bool(row.submitted1)],
            "prelude": self._prelude_view(),
            "setup_deadline": row.setup_deadline,
            **variants.turn_facts(board),
        }

    def _captured(self, moves: int) -> list[list[str]]:
        """The pieces each side lost in the first `moves` moves of the board's stack, in order."""
        return [list(lost) for lost in self._played[moves - 1].lost] if moves else [[], []]

    def _notation(self, moves: int) -> list[str]:
        """The readable text of each of the first `moves` moves of the board's stack (parallel to
        "moves": a turn's moves one by one, its `end` as its mark alone)."""
        return [played.notation for played in self._played[:moves]]

    def _move_plies(self, moves: int) -> list[int]:
        """The turn of each of the first `moves` moves of the board's stack, as a ply number."""
        return [played.ply for played in self._played[:moves]]

    def _clock_view(self, now: int) -> dict:
        c = self.clock
        running = c.running if self.row.status == "active" else None
        return {"remaining": [max(0, c.left(s, now)) for s in (0, 1)], "running": running,
                "timed": c.timed(), "server_time": now, "daily": self.tc.daily,
                "deadline": c.deadline() if running is not None else None,
                "initial": self.tc.initial_ms, "increment": self.tc.increment_ms}


_IN_PLAY = frozenset({PLAY})
_OVER = frozenset({OVER})
_REMATCH_AT_END = "a rematch can be offered once the game is over"
_PRELUDE_ONLY = "the prelude comes before the first move of a Superchess prelude game only"
#: every action a player can send: its handler, and the phases that accept it
ACTIONS: dict[str, Action] = {
    "move": Action(LiveGame._move, _IN_PLAY),
    "retract": Action(LiveGame._retract, _IN_PLAY),
    "resign": Action(LiveGame._resign, _IN_PLAY),
    "offer_draw": Action(LiveGame._offer_draw, _IN_PLAY),
    "accept_draw": Action(LiveGame._accept_draw, _IN_PLAY),
    "decline_draw": Action(LiveGame._decline_draw, _IN_PLAY),
    "claim_draw": Action(LiveGame._claim_draw, _IN_PLAY),
    "offer_takeback": Action(LiveGame._offer_takeback, _IN_PLAY),
    "accept_takeback": Action(LiveGame._accept_takeback, _IN_PLAY),
    "decline_takeback": Action(LiveGame._decline_takeback, _IN_PLAY),
    "abort": Action(LiveGame._abort, frozenset({PLAY, *SETUP_WAITS}), when_damaged=True),
    "set_colour": Action(LiveGame._set_colour, frozenset({PLAY, *SETUP_WAITS}), when_damaged=True),
    "submit_roster": Action(LiveGame._submit_roster, frozenset({"private"}),
                            "rosters are submitted before the first move of a Private game only"),
    "prelude_pick": Action(LiveGame._prelude_pick, frozenset({"prelude"}), _PRELUDE_ONLY),
    "prelude_swap": Action(LiveGame._prelude_swap, frozenset({"prelude"}), _PRELUDE_ONLY),
    "offer_rematch": Action(LiveGame._offer_rematch, _OVER, _REMATCH_AT_END),
    "accept_rematch": Action(LiveGame._accept_rematch, _OVER, _REMATCH_AT_END),
    "decline_rematch": Action(LiveGame._decline_rematch, _OVER, _REMATCH_AT_END),
}
