"""The table's side of playing a board far away: offer a game, join one, resume one.

A person at the board offers this board's game (its options, and which colour they
play) and is shown an invitation code; a person at another board types that code and
joins. The invitation (:mod:`app.remote.invitation`) waits for the other board, so it
runs in a thread of its own here, over a connection of its own to the broker, while
the table plays on; :class:`FarPlay` keeps what front ends show of it
(:attr:`FarPlay.state`: connecting, offering with its code, joining, agreed, failed
with one line) and hands the agreed game to whoever turns the table loop, between two
turns (:meth:`FarPlay.take`), as a saved game picked on the screen takes over: a new
session of that game, its far seat played through the returned :class:`FarLink`.

The game with a board far away is kept in one file in the board's data directory
(:func:`far_game_path`), which the link writes after every change; ``tabletop run``
resumes it at its next start (:meth:`FarPlay.resume`), after a restart or a power cut.
A stopped game is not resumed (its line is logged), and starting another game on this
board, from the menu, the load list or a new invitation, leaves the one with the far
board (:meth:`FarPlay.leave`): the other board is told, and the file is replaced by the
next game's. The touch screen drives this class and the page can drive it alike; every
method is called in the loop's thread, and only :attr:`state` is read from others.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import FarGameError, InvitationError, describe
from app.games import new_game
from app.remote.broker import Broker
from app.remote.config import RemoteConfig
from app.remote.far_board import FarGame, FarLink
from app.remote.invitation import ANSWER_S, Agreed, Host, join, new_code, normalise
from app.table import texts

log = logging.getLogger(__name__)

#: How long an invitation waits for the other board to join.
INVITE_S = 600.0
#: How long the board tries to reach the broker before it says it cannot.
CONNECT_S = 30.0
#: How long a withdrawn invitation may take to leave the broker.
WITHDRAW_S = 5.0

IDLE, CONNECTING, OFFERING, JOINING, AGREED, FAILED = (
    "idle", "connecting", "offering", "joining", "agreed", "failed")


def far_game_path(data_dir: Path) -> Path:
    """Where a board keeps its game with a board far away: beside its records, in a
    directory only the board's user can read (the game's secret is in it)."""
    return Path(data_dir) / "far" / "game.json"


@dataclass(frozen=True)
class FarState:
    """What the screen and the page show of a far game being set up: the ``phase``, the
    invitation ``code`` while one is offered, and one ``line`` saying where it stands
    (the reason, when it failed)."""

    phase: str = IDLE
    code: str = ""
    line: str = ""

    @property
    def busy(self) -> bool:
        """Whether an invitation is under way (cancel ends it)."""
        return self.phase in (CONNECTING, OFFERING, JOINING)


class FarPlay:
    """Offering, joining, resuming and leaving games with boards far away, for a board
    that plays ``games`` through the broker ``config`` names, its far game kept at
    ``path``. ``connect(config, client_id)`` makes a connection (a :class:`Broker`)."""

    def __init__(self, config: RemoteConfig, path: Path, games: Sequence[str], *,
                 invite_s: float = INVITE_S, answer_s: float = ANSWER_S,
                 connect_s: float = CONNECT_S,
                 connect: Callable[[RemoteConfig, str], Broker] = Broker) -> None:
        self.config, self.path, self.games = config, Path(path), tuple(games)
        #: How long an offer waits for a board to join, a joining board for an answer,
        #: and either for the broker.
        self.invite_s, self.answer_s, self.connect_s = invite_s, answer_s, connect_s
        self._connect = connect
        #: The link of the game with a board far away this board plays, if any.
        self.link: FarLink | None = None
        self._lock = threading.Lock()
        self._state = FarState()
        #: Counts invitations: a thread whose number is not the newest was cancelled,
        #: and what it finds is dropped.
        self._ticket = 0
        self._broker: Broker | None = None
        self._host: Host | None = None
        self._agreed: FarGame | None = None
        #: Games agreed and taken so far: a front end that shows an invitation closes
        #: once this moves on.
        self.taken = 0

    @property
    def state(self) -> FarState:
        return self._state

    # --- the game kept ----------------------------------------------------------------
    def resume(self) -> FarLink | None:
        """The link of the game kept at :attr:`path`, to resume (not started: start it
        once the table turns); ``None`` if there is none, it was stopped, or its file
        cannot be read (said in one line: the board plays its own game, and the next
        invitation replaces the file)."""
        if not self.path.exists():
            return None
        try:
            game = FarGame.load(self.path)
        except FarGameError as error:
            log.warning("%s: playing this board's own game", error)
            self._state = FarState(line=str(error))
            return None
        if game.stopped:
            log.info("the game with %s's board was stopped (%s): not resumed", game.peer,
                     game.stopped)
            return None
        self.link = FarLink(game, self.config, self._connect(self.config, game.client_id))
        self._state = FarState(line=playing_with(game))
        log.info("resuming the game with %s's board", game.peer)
        return self.link

    def leave(self, session: Any) -> None:
        """This board starts another game: the one with the far board, if one is under
        way, ends on both boards (see :meth:`FarLink.leave`)."""
        link, self.link = self.link, None
        if link is not None:
            link.leave(session)
            log.info("left the game with %s's board", link.game.peer)
            if self._state.phase == IDLE:
                self._state = FarState()

    def stop(self) -> None:
        """The board stops: close the link (its game stays kept, to resume) and end any
        invitation."""
        self.cancel()
        if self.link is not None:
            self.link.stop()

    # --- invitations ------------------------------------------------------------------
    def offer(self, game: str, options: Mapping[str, Any], colour: str) -> None:
        """Offer a game of ``game`` with ``options``, this board's person playing
        ``colour`` (``b`` moves first): a new code, shown once the offer is on the
        broker. An invitation under way is cancelled first."""
        if colour not in ("b", "w"):
            raise ValueError(f"a colour is b or w, not {colour!r}")
        # Options the game refuses are the caller's mistake (OptionError), said at once;
        # a random layout is drawn here, once, for both boards.
        options = dict(new_game(game, **options).options)
        code = new_code()

        def invite(broker: Broker, ticket: int) -> tuple[Agreed, bool]:
            host = Host(broker, self.config.club, game, options, colour, self._name(),
                        code=code)
            with self._lock:
                if ticket != self._ticket:
                    host.withdraw()
                    raise InvitationError("cancelled")
                self._host = host
                self._state = FarState(OFFERING, code, f"offering {code}: waiting for "
                                                       f"the other board to join with it")
            return host.wait(self.invite_s), True

        self._begin(FarState(CONNECTING, code, f"offering {code}: connecting to "
                                              f"{self.config.broker}"), invite)

    def join(self, typed: str) -> None:
        """Join the invitation whose code a person ``typed``; a code that is none fails
        at once, in one line, and nothing is sent."""
        try:
            code = normalise(typed)
        except InvitationError as error:
            self.cancel()
            self._state = FarState(FAILED, line=str(error))
            return
        shown = f"{code[:4]}-{code[4:]}"

        def answer(broker: Broker, ticket: int) -> tuple[Agreed, bool]:
            with self._lock:
                if ticket == self._ticket:
                    self._state = FarState(JOINING, shown, f"joining {shown}: waiting "
                                                          f"for the other board")
            return join(broker, self.config.club, code, self._name(), self.answer_s), False

        self._begin(FarState(CONNECTING, shown, f"joining {shown}: connecting to "
                                                f"{self.config.broker}"), answer)

    def cancel(self) -> None:
        """End the invitation under way, if any (an offer is taken off the broker);
        a failed one's line is cleared."""
        with self._lock:
            self._ticket += 1
            broker, host, self._broker, self._host = self._broker, self._host, None, None
            if self._state.phase in (CONNECTING, OFFERING, JOINING, FAILED):
                self._state = FarState(line=playing_with(self.link.game)
                                       if self.link is not None else "")
        if host is not None:
            host.withdraw()
            broker.flush(WITHDRAW_S)
        if broker is not None:
            broker.stop()

    def take(self, session: Any) -> FarLink | None:
        """Between two turns of the loop: the link of a game just agreed, if there is
        one (not started: start it once its session is on the table), the game before
        left (``session`` is the table's, told so). The caller starts a new game of
        ``link.game`` with ``link.seats()``."""
        with self._lock:
            game, self._agreed = self._agreed, None
        if game is None:
            return None
        self.leave(session)
        os.replace(game.path, self.path)  # the file resumed from now on
        game.path = self.path
        self.link = FarLink(game, self.config, self._connect(self.config, game.client_id))
        self._state = FarState(line=playing_with(game))
        self.taken += 1
        log.info("a game of %s with %s's board, this board playing %s", game.game,
                 game.peer, game.colour)
        return self.link

    def _failed(self, ticket: int, line: str) -> None:
        with self._lock:
            if ticket == self._ticket:
                self._state = FarState(FAILED, line=line)

    def _name(self) -> str:
        return self.config.name

    def _begin(self, state: FarState,
               work: Callable[[Broker, int], tuple[Agreed, bool]]) -> None:
        self.cancel()
        with self._lock:
            ticket = self._ticket
            self._state = state
            broker = self._connect(self.config, f"tabletop-invite-{secrets.token_hex(6)}")
            self._broker = broker
        threading.Thread(target=self._run, args=(broker, ticket, work),
                         name="far-invitation", daemon=True).start()

    def _run(self, broker: Broker, ticket: int,
             work: Callable[[Broker, int], tuple[Agreed, bool]]) -> None:
        """The invitation's thread: reach the broker, offer or join, keep the game."""
        try:
            broker.start()
            deadline = time.monotonic() + self.connect_s
            while not broker.connected.wait(0.1):
                if ticket != self._ticket:
                    return
                if broker.failure:  # refused, or not there: the person may try again
                    raise InvitationError(broker.failure)
                if time.monotonic() > deadline:
                    raise InvitationError(f"no answer from {self.config.broker}")
            agreed, host = work(broker, ticket)
            if agreed.game not in self.games:
                raise InvitationError(f"the invitation is for {texts.title(agreed.game)}; "
                                      f"this board plays "
                                      f"{' and '.join(map(texts.title, self.games))}")
            game = FarGame.agreed(self.path.with_name(f"agreed-{ticket}.json"), agreed,
                                  self.config.club, host)
            with self._lock:
                if ticket == self._ticket:
                    self._agreed = game
                    self._state = FarState(AGREED, line=f"agreed with {game.peer}'s "
                                                        f"board: the game starts")
                    return
            game.path.unlink(missing_ok=True)
        except (InvitationError, FarGameError, OSError) as error:
            self._failed(ticket, str(error))
            log.info("invitation: %s", error)
        except Exception as error:  # a bug must not leave the screen waiting for ever
            log.exception("invitation")
            self._failed(ticket, f"the invitation failed: {describe(error)}")
        finally:
            with self._lock:
                if self._broker is broker:
                    self._broker = self._host = None
            broker.stop()


def playing_with(game: FarGame) -> str:
    """The line a front end shows while a game with a far board is on this board."""
    if game.stopped:
        return f"the game with {game.peer}'s board stopped: {game.stopped}"
    return f"playing {texts.title(game.game)} with {game.peer}'s board"
