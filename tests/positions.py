"""Positions for the engines' rule tests: moves played from text, and everything
observable about a position, for exact comparisons after a takeback."""


def play(board, *texts):
    """``board`` after pushing each of ``texts``."""
    for text in texts:
        board.push_text(text)
    return board


def state(board):
    """Everything observable about a position: what sensors see and the board lights,
    the score and outcome, the turn, the moves, the drawing and both players' moves."""
    return (board.sensor_view(), board.lights(), board.scores(), board.outcome(),
            board.turn, tuple(board.move_stack), board.ascii(),
            sorted(map(str, board.legal_moves_for("b"))),
            sorted(map(str, board.legal_moves_for("w"))))
