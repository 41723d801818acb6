"""Kulami's own GTP command, ``layout``, registered on the board in ``gtp_commands``."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.kulami.board import KulamiBoard


def layout(board: KulamiBoard, args: list[str]) -> tuple[KulamiBoard | None, str]:
    """``layout`` answers the layout text; ``layout SPEC`` starts a new game on SPEC
    (a name, ``random:SEED``, ``random-free:SEED`` or layout text), other options kept."""
    if not args:
        return None, board.layout.text()
    return type(board).new(**dict(board.options, layout=" ".join(args))), ""


GTP_COMMANDS = MappingProxyType({"layout": layout})
