"""A person's hand at a simulated board: what lies on the board, and the sensors it moves.

The one simulated hand of the product: the simulator's mouse works through it, the
self-test's simulated person too, and with the virtual sensor board the same hand sets
the device's channels instead (anything with ``place(hole, colour)`` and
``lift(hole)`` will do as its ``sensors``). It keeps the pieces as they physically lie,
point name -> ``b``/``w``, and passes only what a sensor under a hole would notice: a
piece put in or taken out of a hole. Where the game's pieces stack (``GameInfo.pile``),
the points above the holes hold pieces too, and the engine's physics of the pile (what
can be lifted, what drops, where a piece can go) says what the hand may do; a change
above the holes reaches no sensor, as on the real board.

Nothing here plays: the sensing pipeline and the session judge what the hand did, as
they judge real hands.
"""

from __future__ import annotations

from types import ModuleType
from typing import Protocol

from engines.core import Board, other


class Reachable(Protocol):
    """The sensors a hand reaches: simulated ones, or a virtual sensor board's."""

    def place(self, hole: str, colour: str | None = None) -> None: ...

    def lift(self, hole: str) -> None: ...


class Hand:
    """What lies on a simulated board and the hand that moves it. ``holes`` are the
    points with a sensor under them; ``pile`` is the physics of a game whose pieces
    stack, ``None`` otherwise."""

    def __init__(self, sensors: Reachable, holes, pile: ModuleType | None = None) -> None:
        self.sensors, self.holes, self.pile = sensors, frozenset(holes), pile
        #: What lies on the board: point -> colour.
        self.pieces: dict[str, str] = {}
        #: The colour of the piece taken off a pile and held, if any.
        self.held: str | None = None

    # --- pieces in holes ------------------------------------------------------------
    def place(self, hole: str, colour: str) -> None:
        """Put a piece of ``colour`` in ``hole`` (over one there: swapped in one go)."""
        self.sensors.place(hole, colour)
        self.pieces[hole] = colour

    def lift(self, hole: str) -> None:
        self.sensors.lift(hole)
        self.pieces.pop(hole, None)

    def turn_over(self, hole: str) -> None:
        """Swap the piece in ``hole`` for one of the other colour, in one go."""
        self.place(hole, other(self.pieces[hole]))

    def put_piece(self, squares, colour: str) -> None:
        """A whole shaped piece put down: every square at the same moment."""
        for square in squares:
            self.place(square, colour)

    def set_out(self, board: Board) -> None:
        """Lay out ``board``'s pieces as a person continuing a saved game would."""
        for point, colour in board.piece_view().items():
            if point in self.holes:
                self.sensors.place(point, colour)
            self.pieces[point] = colour

    def follow(self, board: Board) -> None:
        """Make the board match a move made by button rather than by hand: the pieces it
        recoloured turned over (a swap) or, on a pile, the pieces moved as it moved
        them, unless they lie so already."""
        if self.pile is not None:
            def as_played() -> None:
                self.pieces.clear()
                self.pieces.update(board.piece_view())
            self._sensing(as_played)
            return
        for hole, colour in board.sensor_view().items():
            if hole in self.pieces and self.pieces[hole] != colour:
                self.place(hole, colour)

    # --- a pile ---------------------------------------------------------------------
    def can_lift(self, point: str) -> bool:
        return self.pile.can_lift(self.pieces, point)

    def can_put(self, point: str) -> bool:
        return self.pile.can_put(self.pieces, point)

    def lift_ball(self, point: str) -> None:
        """Take the piece at ``point`` off the pile into the hand; the ones resting on
        it drop (a pinned piece is refused by the pile's physics)."""
        def take() -> None:
            self.held, _ = self.pile.lift(self.pieces, point)
        self._sensing(take)

    def put_ball(self, point: str, colour: str) -> None:
        """Put a piece of ``colour`` at ``point`` (a hole, or where the pile lets it
        rest), or in place of the piece there."""
        def put() -> None:
            self.pieces[point] = colour
        self._sensing(put)

    def _sensing(self, change) -> None:
        """Make ``change`` to the pile and pass what it changed in the holes to the
        sensors, all at once (a piece dropping into a hole its piece just left does so
        within one scan)."""
        before = self.pile.holes(self.pieces)
        change()
        now = self.pile.holes(self.pieces)
        for hole in before.keys() | now.keys():
            if hole not in now:
                self.sensors.lift(hole)
            elif before.get(hole) != now[hole]:
                self.sensors.place(hole, now[hole])
