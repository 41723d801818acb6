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
resumes it at its next start (:meth:`FarPlay.resume`), after a restart or a power cut,
in its own record (:func:`far_record`), not merely the newest of its game. A game
agreed just as the board stopped, before a turn took it to the table, is the one
resumed: the other board plays it already. The joining board's refusal of a game (one
it does not play, or its person's cancel) ends the inviting board's offer with one
line, as any failed invitation does. A stopped game is not resumed (its line is
logged), and starting another game on this
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
from app.remote.far_board import FarBoard, FarGame, FarLink
from app.remote.invitation import ANSWER_S, Agreed, Guest, Host, new_code, normalise
from app.table import texts
from engines.core import other

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
        #: The invitation under way (offered or joined), which a cancel ends at once.
        self._invitation: Host | Guest | None = None
        self._agreed: FarGame | None = None
        #: Whether the game resumed was agreed and not yet on the table when the board
        #: stopped: it has no record yet.
        self._unrecorded = False
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
        invitation replaces the file). A game agreed as the board stopped, before it
        took the table, is the one resumed: the other board plays it already."""
        self._come_back_into_agreed()
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

    def _come_back_into_agreed(self) -> None:
        """An agreed game's file left beside the kept one (``agreed-N.json``: the board
        stopped between the agreement and the next turn) becomes the kept game, without
        a record yet; one that cannot be read is removed, said in one line."""
        found: FarGame | None = None
        try:
            left = sorted(self.path.parent.glob("agreed-*.json"),
                          key=lambda path: path.stat().st_mtime, reverse=True)
            for path in left:
                try:
                    game = FarGame.load(path)
                except FarGameError as error:
                    log.warning("%s: removed", error)
                    path.unlink(missing_ok=True)
                    continue
                if found is None:
                    found = game
                else:
                    path.unlink(missing_ok=True)
            if found is None:
                return
            if self.path.exists():
                try:
                    kept = FarGame.load(self.path)
                except FarGameError:
                    kept = None
                if kept is not None and not kept.stopped:
                    log.warning("the game with %s's board is left for the one agreed "
                                "with %s's board as the board stopped (%s's board was not "
                                "told)", kept.peer, found.peer, kept.peer)
            os.replace(found.path, self.path)
        except OSError as error:
            log.warning("cannot take the game agreed as the board stopped: %s",
                        describe(error))
            return
        self._unrecorded = True
        log.info("the game agreed with %s's board as the board stopped is kept",
                 found.peer)

    def record(self, store: Any) -> str | None:
        """The name of the record of the game resumed in ``store`` (a
        :class:`~app.table.store.RecordStore`), to continue; ``None`` when it has none
        yet (it was agreed as the board stopped), and a new one is started. See
        :func:`far_record`."""
        if self.link is None or self._unrecorded:
            return None
        return far_record(store, self.link.game)

    def leave(self, session: Any) -> None:
        """This board starts another game: the one with the far board, if one is under
        way, ends on both boards (see :meth:`FarLink.leave`)."""
        link, self.link = self.link, None
        if link is not None:
            link.leave(session)
            log.info("left the game with %s's board", link.game.peer)
            if self._state.phase == IDLE:
                self._state = FarState()

    def stop(self, session: Any = None) -> None:
        """The board stops: close the link (its game stays kept, to resume) and end any
        invitation. A game agreed and not yet taken stays too, to be resumed at the next
        start (the other board plays it already): the one on the table (``session``'s),
        if it was with a far board, is left now, as taking the new one would."""
        self.cancel()
        with self._lock:
            agreed = self._agreed is not None
        if agreed and session is not None:
            self.leave(session)
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
                self._invitation = host
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
            guest = Guest(broker, self.config.club, code, self._name())
            with self._lock:
                if ticket != self._ticket:
                    raise InvitationError("cancelled")
                self._invitation = guest
                self._state = FarState(JOINING, shown, f"joining {shown}: waiting for the "
                                                      f"other board")
            return guest.wait(self.answer_s, self.games), False

        self._begin(FarState(CONNECTING, shown, f"joining {shown}: connecting to "
                                                f"{self.config.broker}"), answer)

    def cancel(self) -> None:
        """End the invitation under way, if any, and its thread with it (an offer is
        taken off the broker, a join refused to the inviting board); a failed one's line
        is cleared."""
        with self._lock:
            self._ticket += 1
            broker, invitation = self._broker, self._invitation
            self._broker = self._invitation = None
            if self._state.phase in (CONNECTING, OFFERING, JOINING, FAILED):
                self._state = FarState(line=playing_with(self.link.game)
                                       if self.link is not None else "")
        if invitation is not None:
            # Its thread's wait ends at once; an offer leaves the broker, and a board
            # that joined tells the inviting one that its person cancelled.
            invitation.cancel()
            broker.flush(WITHDRAW_S)
        if broker is not None:
            broker.stop()

    def take(self, session: Any) -> FarLink | None:
        """Between two turns of the loop: the link of a game just agreed, if there is
        one (not started: start it once its session is on the table), the game before
        left (``session`` is the table's, told so). The caller starts a new game of
        ``link.game`` with ``link.seats()``, then calls :meth:`recorded`."""
        with self._lock:
            game, self._agreed = self._agreed, None
        if game is None:
            return None
        self.leave(session)
        self.link = FarLink(game, self.config, self._connect(self.config, game.client_id))
        self._state = FarState(line=playing_with(game))
        self.taken += 1
        log.info("a game of %s with %s's board, this board playing %s", game.game,
                 game.peer, game.colour)
        return self.link

    def recorded(self) -> None:
        """The game just taken is on the table with its record started: from now on it
        is the game kept, resumed at the next start. Until then its file stays as
        agreed, so that a board stopped in between starts its record at the next start
        rather than continue the newest one (see :meth:`resume`). Call it before the
        link starts."""
        game = self.link.game if self.link is not None else None
        self._unrecorded = False
        if game is not None and game.path != self.path:
            try:
                os.replace(game.path, self.path)
            except OSError as error:  # played on from its own file, kept at the next start
                log.warning("the game with %s's board stays in %s: %s", game.peer,
                            game.path.name, describe(error))
                return
            game.path = self.path

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
            with self._lock:  # cancelled, the broker is the cancel's to close
                mine = self._broker is broker
                if mine:
                    self._broker = self._invitation = None
            if mine:
                broker.flush(WITHDRAW_S)  # an offer withdrawn, or a reply, goes first
                broker.stop()


def far_record(store: Any, game: FarGame) -> str | None:
    """The name of ``game``'s record in ``store``: the newest record of its game played
    on the store's profile with a board far away in the far colour's seat, or ``None``
    if there is none. A record of another game since on this board has other seats (a
    new game from the menu or the page, or a saved one loaded, also leaves the far game,
    which is then not resumed), and a game with another far board replaces the kept
    one; so the newest with a far board's seat is this one's, its latest round."""
    far = other(game.colour)
    for saved in store.saved():
        if saved.game != game.game:
            continue
        resumed = store.read(saved.path)
        seat = resumed.table.get("seats", {}).get(far)
        if resumed.profile == store.profile and getattr(seat, "kind", "") == FarBoard.kind:
            return saved.path.name
    return None


def playing_with(game: FarGame) -> str:
    """The line a front end shows while a game with a far board is on this board."""
    if game.stopped:
        return f"the game with {game.peer}'s board stopped: {game.stopped}"
    return f"playing {texts.title(game.game)} with {game.peer}'s board"
