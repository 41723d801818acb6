"""``tabletop play``: a game in the terminal, a person against the engine or two people.

Every game is saved as it goes, move by move, in the user's data directory (the same
records as the board's and the simulator's, marked as played in the terminal), so that a
closed terminal or a crash loses nothing: ``tabletop play GAME`` continues the unfinished
game of that game; options (``key=value``, which describe a new game) or ``--new`` start
another one (the unfinished one stays saved), as ``tabletop simulate`` does; and
``--load`` lists the saved games to continue any of them.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from typing import TextIO

from app.cli import split_options
from app.cli.terminal import render, wants_colour
from app.games import GAMES, game, new_game
from app.table import texts
from app.table.store import SEAT_KINDS, RecordStore, Resumed, Saved, default_data_dir
from engines import Board, EngineError, RecordError
from engines.errors import OptionError
from engines.grid import column_row
from engines.players import DEFAULT_LEVEL, LEVELS, choose_move, level_argument

#: What the store records as the board a terminal game is played on, so that
#: ``tabletop play`` continues its own games and a board or the simulator theirs.
PROFILE = "terminal"
#: The commands besides moves, as the help line shows them.
COMMANDS = ("hint", "undo", "help", "quit")
#: How a move is called in each game's help line ("a hole" for any other game).
#: Moves that are words rather than holes, with what they do, offered while legal.
WORD_MOVES = {"swap": "takes over {first}'s first gem"}

DESCRIPTION = """\
Play in the terminal: you against the engine, or two people at one keyboard.

Every move is saved at once in your data directory. 'tabletop play GAME' continues the
unfinished game of GAME played in the terminal, if there is one, with its own options,
players and level; otherwise, or given options (key=value) or --new, it starts a new
game with the options and players given.

During a game, type a move (a field or hole such as d4; in ConHex also swap when it is
offered), or: hint (the engine's suggestion), undo (back to your last turn), help, quit
(the game stays saved for next time)."""

EPILOG = """\
examples:
  tabletop play                                  continue or start a Kulami game
  tabletop play kulami layout=cross scoring=2    a new game with these options
  tabletop play conhex --new                     a new game even if one is unfinished
  tabletop play conhex --red person --blue person
  tabletop play --load                           pick a saved game from a list
  tabletop play --load 2                         continue the second game of that list"""


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal (saved as it goes)",
                                   description=DESCRIPTION, epilog=EPILOG,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default=None,
                        help=f"{' or '.join(GAMES)} (default: {next(iter(GAMES))}); with "
                             f"--load, list only its games")
    parser.add_argument("options", nargs="*", metavar="key=value",
                        help="options of a new game, e.g. layout=cross scoring=2 or pie=false")
    for colour in colours():
        first = [info.title for info in GAMES.values() if info.players["b"].name == colour]
        second = [info.title for info in GAMES.values() if info.players["w"].name == colour]
        parser.add_argument(f"--{colour}", dest=f"seat_{colour}", choices=SEAT_KINDS,
                            default=None, metavar="KIND",
                            help=f"who plays {colour}: person or engine; " + "; ".join(
                                [f"first in {', '.join(first)} (default: person)"] * bool(first)
                                + [f"second in {', '.join(second)} (default: engine)"]
                                * bool(second)))
    parser.add_argument("--level", type=level_argument, default=None,
                        help=f"the engine's level, {', '.join(map(str, LEVELS))} or max "
                             f"(the strongest) (default: {DEFAULT_LEVEL})")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the engine's choices (default: a fresh one)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--new", action="store_true",
                       help="start a new game even if one is unfinished (that one stays "
                            "saved, and --load continues it); options start one too")
    start.add_argument("--load", nargs="?", type=int, const=0, default=None, metavar="N",
                       help="list the saved games, newest first, and continue the one whose "
                            "number you type (or number N of the list at once)")
    parser.set_defaults(run=run)


def colours() -> list[str]:
    """Every player colour of every game, in the registry's order: the seat flags
    (``--red``, ``--white``, ...), so that a flag names the colour a player sees, never a
    place in the turn order that differs between games."""
    found: list[str] = []
    for info in GAMES.values():
        found += [p.name for p in info.players.values() if p.name not in found]
    return found


def seats_asked(info, args) -> dict[str, str]:
    """The seats the flags give for ``info``'s game, the first player a person and the
    second the engine unless told; a flag for a colour the game has not is an
    :class:`OptionError` (exit 2), rather than a seat silently given to nobody."""
    by_colour = {player.name: wire for wire, player in info.players.items()}
    seats = {"b": "person", "w": "engine"}
    for colour in colours():
        kind = getattr(args, f"seat_{colour}", None)
        if kind is None:
            continue
        if colour not in by_colour:
            raise OptionError(f"{info.title} has no {colour} player: its seat flags are "
                              + " and ".join(f"--{name}" for name in by_colour))
        seats[by_colour[colour]] = kind
    return seats


def seats_given(args) -> bool:
    return any(getattr(args, f"seat_{colour}", None) for colour in colours())


@dataclass
class Seating:
    """Who plays: each colour's seat (person or engine), the engine's level and seed.
    The store reads these at every save (its ``Players``)."""

    seats: dict[str, str]
    level: int = DEFAULT_LEVEL
    seed: int = 0


def run(args) -> int:
    if args.game is not None and "=" in args.game:  # `tabletop play scoring=2`: Kulami's
        args.options, args.game = [args.game, *args.options], None
    store = RecordStore(default_data_dir(), profile=PROFILE)
    say = _printer(sys.stdout)
    if args.load is not None:
        if args.options:
            raise EngineError("--load continues a saved game; options are for a new game "
                              "(with --new)")
        board, seating = load(store, args.game, args.load, sys.stdin, sys.stdout)
        if board is None:
            return 0
    else:
        board, seating = resume_or_start(store, args, say)
    return play(board, seating, sys.stdin, sys.stdout, store)


def resume_or_start(store: RecordStore, args, say) -> tuple[Board, Seating]:
    """The unfinished terminal game of the game asked for, unless ``--new`` or options
    ask for a new game; else a new game with the options and players the arguments
    give, its record started."""
    info = game(args.game or next(iter(GAMES)))
    name = info.name
    asked = Seating(seats_asked(info, args),
                  args.level or DEFAULT_LEVEL,
                  args.seed if args.seed is not None else random.randrange(2**32))
    if not (args.new or args.options):
        resumed = store.resume(name, PROFILE)
        if resumed.problem:
            say(texts.sentence(resumed.problem))
        board = resumed.board
        if board is not None and not board.is_game_over():
            seating = _seating(resumed, asked)
            say(f"Continuing {store.current.name} at move {len(board.move_stack)} "
                f"({texts.options(name, board.options)}; "
                f"{texts.seats(name, seating.seats, seating.level)}).")
            if seats_given(args) or args.level:
                say("It keeps its own players and level: add --new to start a new game "
                    "with yours.")
            store.players = seating
            return board, seating
    board = new_game(name, **split_options(args.options))
    store.players = asked
    store.start(board)
    say(f"New game: {store.current.name} in {store.games}.")
    return board, asked


def load(store: RecordStore, name: str | None, number: int, stdin: TextIO,
         stdout: TextIO) -> tuple[Board | None, Seating]:
    """The saved game picked from the list (``number`` from 1, or 0 to ask): listed
    newest first, each with its moves, options and whether it is finished; continued
    under the next number, as the newest game. ``(None, ...)`` when nothing is picked."""
    say = _printer(stdout)
    saved = [s for s in store.saved() if name is None or s.game == game(name).name]
    if not saved:
        say(f"No saved {'games' if name is None else game(name).title + ' games'} in "
            f"{store.games}.")
        return None, Seating({})
    loaded = [store.read(s.path) for s in saved]
    if number == 0:
        for index, (entry, resumed) in enumerate(zip(saved, loaded), start=1):
            say(f"{index:>3}  {_listed(entry, resumed)}")
        stdout.write("Continue which game (its number; Enter to cancel)? ")
        stdout.flush()
        answer = stdin.readline().strip()
        if not answer:
            return None, Seating({})
        if not answer.isdigit():
            raise EngineError(f"not a number of the list: {answer!r}")
        number = int(answer)
    if not 1 <= number <= len(saved):
        raise EngineError(f"the list has games 1 to {len(saved)}, not {number}")
    entry = saved[number - 1]
    resumed = store.load(entry.path)
    if resumed.board is None:
        raise RecordError(resumed.problem)
    seating = _seating(resumed, Seating({"b": "person", "w": "engine"}, DEFAULT_LEVEL,
                                  random.randrange(2**32)))
    store.players = seating
    say(f"Continuing {store.current.name} at move {len(resumed.board.move_stack)}.")
    return resumed.board, seating


def _listed(entry: Saved, resumed: Resumed) -> str:
    """One line of the load list: the record, its moves, its options and its state."""
    board = resumed.board
    if board is None:
        return f"{entry.path.name}  does not load: {resumed.problem}"
    outcome = board.outcome()
    state = (texts.result(board.game, outcome) if outcome is not None else "unfinished")
    where = f", played on {resumed.profile}" if resumed.profile not in ("", PROFILE) else ""
    return (f"{entry.path.name}  {game(board.game).title}, {len(board.move_stack)} moves, "
            f"{texts.options(board.game, board.options)}{where}: {state}")


def _seating(resumed: Resumed, default: Seating) -> Seating:
    """Who plays a resumed game: what its record says, else ``default``."""
    recorded = resumed.table
    return Seating(dict(recorded.get("seats", default.seats)),
                 recorded.get("level", default.level), recorded.get("seed", default.seed))


def _printer(stdout: TextIO):
    return lambda text="": print(text, file=stdout, flush=True)


# --- the game -------------------------------------------------------------------------
def play(board: Board, seating: Seating, stdin: TextIO, stdout: TextIO,
         store: RecordStore | None = None, colour: bool | None = None) -> int:
    """The game loop; ``stdin``/``stdout`` are parameters so tests can drive it. With a
    ``store`` whose record is started, every change of the game is saved at once. The
    board is drawn in colour when ``colour`` says so, by default when ``stdout`` is a
    terminal that wants it (:func:`~app.cli.terminal.wants_colour`)."""
    say = _printer(stdout)
    if colour is None:
        colour = wants_colour(stdout)
    info = game(board.game)
    names = info.players
    failure = ""

    def save() -> None:
        nonlocal failure
        if store is None:
            return
        store.save(board)
        if store.failure and store.failure != failure:
            say(texts.sentence(texts.saving_fails(store.failure)))
        elif failure and not store.failure:
            say(texts.sentence(texts.SAVED_AGAIN))
        failure = store.failure

    if store is not None and store.failure:  # the record could not even be started
        say(texts.sentence(texts.saving_fails(store.failure)))
        failure = store.failure
    say(f"{info.title}: {goal(board)}.")
    while not board.is_game_over():
        say(render(board, colour))
        say(score_line(board))
        mover = board.turn
        if seating.seats[mover] == "engine":
            move = choose_move(board, seating.level, _rng(seating, board))
            board.push(move)
            save()
            say(f"{names[mover].title} (engine) plays {board.move_text(move)}")
            continue
        say(help_line(board))
        stdout.write(f"{names[mover].name} to move> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("\n" + (farewell(board, store) if store else "bye"))
            return 0
        command = line.strip().lower()
        if command in ("quit", "q", "exit"):
            if store is not None:
                say(farewell(board, store))
            return 0
        if command == "hint":
            move = choose_move(board, seating.level, _rng(seating, board))
            say(f"Hint: {board.move_text(move)}")
        elif command == "undo":
            if _undo(board, seating.seats, say):
                save()
        elif command in ("help", "?"):
            say(f"{info.title}: {goal(board)}.")  # the help line follows with the board
        elif command:
            try:
                board.push_text(command)
            except EngineError as error:
                say(f"Not played: {texts.named(board.game, str(error))}.")
                continue
            save()
    say(render(board, colour))
    for line in texts.score_sheet(board):
        say(line)
    say(texts.end_line(board))
    return 0


def farewell(board: Board, store: RecordStore) -> str:
    """The last line before the terminal is left: "Saved" only when the game is on disk,
    so that nobody closes a game they would lose. One more save is tried first, as the
    data folder may have come back."""
    if store.current is not None:
        store.save(board)
    if store.failure:
        return texts.sentence(texts.not_saved(str(store.games), store.failure))
    return "Saved; 'tabletop play' continues this game."


def _rng(seating: Seating, board: Board) -> random.Random:
    """The engine's choices depend only on the seed and the position, as the board's do:
    a game continued after a crash gets the move it would have got."""
    moves = " ".join(board.move_text(m) for m in board.move_stack)
    return random.Random(f"{seating.seed}:{board.game}:{moves}")


def _undo(board: Board, seats: dict[str, str], say) -> bool:
    """Take back to the person's previous turn (over the engine's reply too)."""
    if not board.move_stack:
        say("Nothing to undo.")
        return False
    taken = [board.pop()]
    while board.move_stack and seats[board.turn] == "engine":
        taken.append(board.pop())
    say(f"Took back {', '.join(board.move_text(m) for m in reversed(taken))}.")
    return True


# --- what the terminal says -------------------------------------------------------------
def goal(board: Board) -> str:
    """How the game is played and won, in a few words (the registry's ``goal``)."""
    info = game(board.game)
    return info.goal.format(b=info.players["b"].name, w=info.players["w"].name)


def score_line(board: Board) -> str:
    """The score so far: points in a game won on points, cells owned in ConHex (which
    only a chain wins)."""
    info = game(board.game)
    scores = board.scores()
    each = ", ".join(f"{info.players[p].name} {scores[p]}" for p in ("b", "w"))
    label = info.score_label(board.options)
    line = (f"Score: {each} ({label})" if board.won_on_points
            else f"{label.capitalize()}: {each}")
    if info.hand and board.left_in_hand("b") is not None:
        hand = ", ".join(f"{info.players[p].name} {board.left_in_hand(p)}" for p in ("b", "w"))
        line += f"; {info.hand}: {hand}"
    return line


def example_move(board: Board) -> str:
    """A legal placement near the middle of the board, to show the notation; where a
    move covers several holes (a Blokus piece), the shortest legal one of two squares or
    more."""
    texts = [board.move_text(m) for m in board.legal_moves]
    pieces = [text for text in texts if "," in text]
    if pieces:
        return min(pieces, key=lambda text: (len(text), text))
    position = _positions(board.holes)
    places = [text for text in texts if text in position]
    if not places:
        return ""
    middle_x = sum(x for x, _ in position.values()) / len(position)
    middle_y = sum(y for _, y in position.values()) / len(position)
    return min(places, key=lambda text: ((position[text][0] - middle_x) ** 2
                                         + (position[text][1] - middle_y) ** 2, text))


#: A hole's column letter and row number, after Akron's level digit if there is one.


def _positions(holes) -> dict[str, tuple[int, int]]:
    """Each hole's column and row, read off its name."""
    return {hole: place for hole in holes if (place := column_row(hole)) is not None}


def word_moves(board: Board) -> list[str]:
    """The moves that are words (ConHex's swap) legal now."""
    legal = []
    for word in WORD_MOVES:
        try:
            if board.is_legal(board.parse_move(word)):
                legal.append(word)
        except EngineError:
            pass
    return legal


def help_line(board: Board) -> str:
    """Every notation the prompt accepts now: a move (with an example), any word move
    legal now, and the commands."""
    first = game(board.game).players["b"].name
    parts = [f"type a {game(board.game).move_words} such as {example_move(board)}"]
    parts += [f"{word} ({WORD_MOVES[word].format(first=first)})" for word in word_moves(board)]
    return "Moves: " + ", ".join(parts) + "; or " + ", ".join(COMMANDS[:-1]) + \
        f" or {COMMANDS[-1]}."
