"""The end screen's score sheet: how the final score came about, line by line.

Kulami lists the panels each player won and their points, the area and chain bonuses at
scoring levels 1 and 2, and who won by how much; ConHex the cells each player claimed
and the chain of cells that joined the winner's sides; Akron the balls on the board and
the chain of balls that joined them. The sheet is worked out from the
status alone (the game, its options and its moves, replayed), so the status screen stays
a drawing of one snapshot. A game with no sheet of its own gets the scores and the winner.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from app.games import new_game
from app.table import texts as words
from app.table.status import Status
from engines.core import Board, EngineError, Outcome

#: The ConHex sides in words.
SIDES = {"N": "top", "S": "bottom", "W": "left", "E": "right"}
#: Kulami's score parts in words (engines/kulami/scoring.py names them).
PARTS = {"panels": "Panels", "area": "Largest area", "chains": "Chains of 5+"}


def score_sheet(status: Status) -> list[str]:
    """The lines of the score sheet for a finished game; none while it is played."""
    outcome = status.outcome
    if outcome is None:
        return []
    board = replayed(status.game, tuple(sorted(status.options.items())), status.moves)
    sheet = SHEETS.get(status.game) if board is not None else None
    lines = sheet(board, outcome) if sheet is not None else []
    return lines + [won_by(status.game, outcome)]


@lru_cache(maxsize=8)
def replayed(game: str, options: tuple, moves: tuple[str, ...]) -> Board | None:
    """The game at the end of ``moves`` (kept: the screen redraws an ended game as its
    winning cells blink), or ``None`` when they are not this game's moves."""
    try:
        board = new_game(game, **dict(options))
        for move in moves:
            board.push_text(move)
    except EngineError:
        return None
    return board


def scores(game: str, values: Mapping[str, int]) -> str:
    return ", ".join(f"{words.player(game, p)} {values[p]}" for p in "bw")


def won_by(game: str, outcome: Outcome) -> str:
    """Who won and by how much: ``Red wins by 8, 35 to 27``, or ``A draw at 30``."""
    b, w = outcome.scores["b"], outcome.scores["w"]
    if outcome.winner is None:
        return f"A draw at {b}" if b == w else f"A draw, {scores(game, outcome.scores)}"
    winner, loser = outcome.winner, "w" if outcome.winner == "b" else "b"
    won, lost = outcome.scores[winner], outcome.scores[loser]
    name = words.player(game, winner)
    if outcome.resignation:
        return f"{name} wins: {words.named(game, outcome.reason)}"
    if not outcome.by_score:  # a connection: the scores measure progress, not the win
        return f"{name} wins"
    return f"{name} wins by {won - lost}, {won} to {lost}"


def kulami_sheet(board: Board, outcome: Outcome) -> list[str]:
    from engines.kulami.scoring import breakdown

    game = board.game
    lines = []
    for part in breakdown(board.layout, board.occupancy, board.scoring, board.chain_lines):
        label = PARTS.get(part.name, part.name)
        if part.name == "panels":
            lines.append(f"{label}: " + ", ".join(
                f"{words.player(game, p)} {part.counted[p]} ({part.points[p]} pts)"
                for p in "bw"))
            continue
        gainer = [p for p in "bw" if part.points[p]]
        bonus = (f"{words.player(game, gainer[0])} +{part.points[gainer[0]]}" if gainer
                 else "no bonus")
        lines.append(f"{label}: {scores(game, part.counted)}: {bonus}")
    return lines


def conhex_sheet(board: Board, outcome: Outcome) -> list[str]:
    game = board.game
    cells = {p: len(board.owned(p)) for p in "bw"}
    lines = [f"Cells: {scores(game, cells)}"]
    if outcome.winner is not None and not outcome.resignation:
        chain = winning_chain(board, outcome.winner)
        if chain:
            from engines.conhex.geometry import PLAYER_SIDES
            start, end = PLAYER_SIDES[outcome.winner]
            lines.append(f"The winning chain, {SIDES[start]} to {SIDES[end]}: "
                         f"cells {' '.join(chain)}")
    return lines


def winning_chain(board: Board, player: str) -> list[str]:
    """The fewest of ``player``'s cells that join their two sides, from the first side
    to the second (cell names as the board's areas); empty if they do not join."""
    from engines.conhex.geometry import NEIGHBOURS, PLAYER_SIDES, SIDES as CELLS_ON

    owned = {int(cell) for cell in board.owned(player)}
    start, end = PLAYER_SIDES[player]
    came_from: dict[int, int | None] = {c: None for c in sorted(owned & CELLS_ON[start])}
    queue = deque(came_from)
    while queue:
        cell = queue.popleft()
        if cell in CELLS_ON[end]:
            chain = []
            while cell is not None:
                chain.append(str(cell))
                cell = came_from[cell]
            return chain[::-1]
        for neighbour in NEIGHBOURS[cell]:
            if neighbour in owned and neighbour not in came_from:
                came_from[neighbour] = cell
                queue.append(neighbour)
    return []


#: Akron's sides in words (engines/akron/geometry.py names them).
AKRON_SIDES = {"south": "bottom", "north": "top", "west": "left", "east": "right"}


def akron_sheet(board: Board, outcome: Outcome) -> list[str]:
    from engines.akron.geometry import PLAYER_SIDES

    game = board.game
    lines = [f"Balls on the board: {scores(game, board.scores())}"]
    if outcome.winner is not None and not outcome.resignation:
        start, end = PLAYER_SIDES[outcome.winner]
        lines.append(f"The winning chain, {AKRON_SIDES[start]} to {AKRON_SIDES[end]}: "
                     f"{' '.join(board.winning_chain(outcome.winner))}")
    return lines


def winning_areas(board: Board) -> tuple[str, ...]:
    """The areas that won a finished game, to mark on a drawn board: ConHex's winning
    chain; nothing for a game won on points."""
    outcome = board.outcome()
    if board.game != "conhex" or outcome is None or outcome.winner is None:
        return ()
    return tuple(winning_chain(board, outcome.winner))


#: Each game's own sheet; a game not listed shows its scores and the winner.
SHEETS: dict[str, Callable[[Any, Outcome], list[str]]] = {
    "kulami": kulami_sheet,
    "conhex": conhex_sheet,
    "akron": akron_sheet,
}
