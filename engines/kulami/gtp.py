"""Kulami's own GTP command, ``layout``, registered on the board in ``gtp_commands``.

It takes the board as the engine core's :class:`~engines.core.Board` (a Kulami board,
whose ``layout`` it reads), so this module needs nothing from the board module that
registers it.
"""

from __future__ import annotations

from types import MappingProxyType

from engines.core import Board


def layout(board: Board, args: list[str]) -> tuple[Board | None, str]:
    """``layout`` answers the layout text; ``layout SPEC`` starts a new game on SPEC
    (a name, ``random:SEED``, ``random-free:SEED`` or layout text), other options kept."""
    if not args:
        return None, board.layout.text()
    return type(board).new(**dict(board.options, layout=" ".join(args))), ""


GTP_COMMANDS = MappingProxyType({"layout": layout})
