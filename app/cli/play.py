"""``tabletop play``: a game in the terminal, a person against the engine or two people."""

from __future__ import annotations

import random
import sys

from app.cli import add_game_arguments, game_from_args
from app.games import game
from app.cli.terminal import render
from engines import EngineError
from engines.players import LEVELS, choose_move

HELP = "type a field such as d4, or: hint, undo, quit"


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal")
    add_game_arguments(parser)
    parser.add_argument("--red", choices=("person", "engine"), default="person",
                        help="who plays the first colour (default: person)")
    parser.add_argument("--black", choices=("person", "engine"), default="engine",
                        help="who plays the second colour (default: engine)")
    parser.add_argument("--level", type=int, choices=LEVELS, default=LEVELS[-1],
                        help="the engine's level")
    parser.add_argument("--seed", type=int, default=None, help="seed for the engine")
    parser.set_defaults(run=run)


def run(args) -> int:
    board = game_from_args(args)
    seats = {"b": args.red, "w": args.black}
    return play(board, seats, args.level, random.Random(args.seed), sys.stdin, sys.stdout)


def play(board, seats, level, rng, stdin, stdout) -> int:
    """The game loop; ``stdin``/``stdout`` are parameters so tests can drive it."""
    say = lambda text="": print(text, file=stdout, flush=True)
    info = game(board.game)
    say(f"{info.title}: {HELP}.")
    while not board.is_game_over():
        say(render(board))
        mover = board.turn
        if seats[mover] == "engine":
            move = choose_move(board, level, rng)
            board.push(move)
            say(f"{info.players[mover].name} (engine) plays {board.move_text(move)}")
            continue
        stdout.write(f"{info.players[mover].name} to move> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("\nbye")
            return 0
        command = line.strip().lower()
        if command in ("quit", "q"):
            return 0
        if command == "hint":
            move = choose_move(board, 2, rng)
            say(f"hint: {board.move_text(move)}")
        elif command == "undo":
            _undo(board, seats, say)
        elif command:
            try:
                board.push_text(command)
            except EngineError as error:
                say(f"not played: {error} ({HELP})")
    say(render(board))
    outcome = board.outcome()
    scores = ", ".join(f"{info.players[p].name} {outcome.scores[p]}" for p in "bw")
    winner = f"{info.players[outcome.winner].name} wins" if outcome.winner else "a draw"
    say(f"Game over ({outcome.reason}): {scores}; {winner} ({outcome.result()}).")
    return 0


def _undo(board, seats, say) -> None:
    """Take back to the person's previous turn (over the engine's reply too)."""
    if not board.move_stack:
        say("nothing to undo")
        return
    board.pop()
    while board.move_stack and seats[board.turn] == "engine":
        board.pop()
