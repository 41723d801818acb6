"""``tabletop play``: a game in the terminal, a person against the engine or two people.

Every game is saved as it goes, move by move, in the user's data directory (the same
records as the board's and the simulator's, marked as played in the terminal), so that a
closed terminal or a crash loses nothing: ``tabletop play GAME`` continues the unfinished
game of that game; options (``key=value``, which describe a new game) or ``--new`` start
another one (the unfinished one stays saved), as ``tabletop simulate`` does; and
``--load`` lists the saved games to continue any of them.

It reads the configuration file ``tabletop run`` reads (``--config``, else
/etc/tabletop/tabletop.toml if there is one): the seats, level and seed for a new game,
each game's ``[options]`` under the ones typed, ``[engines]`` and the data directory;
the flags override the file.

The game is a :class:`~app.table.session.Session` with no board, as the board's and the
simulator's are sessions with one: moves, undo, hints, the engine's seeded choices,
saving and resuming are the session's, and this module only reads the keyboard and
prints the session's view (:mod:`app.table.view`): the board and what is lit with the
legend's key, the moves offered by button, the end and its score sheet, as the status
screen and the page show them.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from app.cli import split_options
from app.cli.terminal import key, render, wants_colour
from app.games import GAMES, game
from app.table import texts
from app.table.assembly import Assembly
from app.table.seats import TABLE_KINDS
from app.table.session import Session
from app.table.config import Config, load_config
from app.table.store import RecordStore, Resumed, Saved
from app.table.thinker import InlineThinker
from app.table.view import View
from engines import Board, EngineError, RecordError
from engines.errors import OptionError
from engines.players import DEFAULT_LEVEL, LEVELS, level_argument

#: What the store records as the board a terminal game is played on, so that
#: ``tabletop play`` continues its own games and a board or the simulator theirs.
PROFILE = "terminal"
#: Who plays unless told: the person at the keyboard first, against the engine.
DEFAULT_SEATS = {"b": "person", "w": "engine"}
#: The commands besides moves, as the help line shows them (resign only while the player
#: at the keyboard may resign: see :func:`resigner`).
COMMANDS = ("hint", "undo", "resign", "help", "quit")

DESCRIPTION = """\
Play in the terminal: you against the engine, or two people at one keyboard.

Every move is saved at once in your data directory. 'tabletop play' continues the last
unfinished game played in the terminal, whichever game it is, and 'tabletop play GAME'
the last unfinished game of GAME, each with its own options, players and level;
otherwise, or given options (key=value) or --new, it starts a new game (of GAME, or
else of the first game) with the options and players given.

During a game, type a move (the line above the prompt shows how, and any move that is a
word, such as swap, while it is legal), or: hint (the engine's suggestion), undo (back
to your last turn), resign (asked first: the game ends and the other player wins), help,
quit (the game stays saved for next time)."""


def _examples() -> str:
    """The help's examples, in the registry's first game and its colours, so that they
    name only what there is."""
    first = next(iter(GAMES.values()))
    b, w = (player.name for player in first.players.values())
    rows = [("tabletop play", f"continue the last unfinished game, or start a {first.title} "
                              f"game"),
            ("tabletop play GAME", "continue the last unfinished game of GAME, or start one"),
            (f"tabletop play {first.name} key=value ...", "a new game with these options"),
            ("tabletop play GAME --new", "a new game even if one is unfinished"),
            (f"tabletop play {first.name} --{b} person --{w} person",
             "two people at one keyboard"),
            ("tabletop play --load", "pick a saved game from a list"),
            ("tabletop play --load 2", "continue the second game of that list")]
    width = max(len(command) for command, _ in rows) + 3
    return "examples:\n" + "\n".join(f"  {command:<{width}}{what}" for command, what in rows)


EPILOG = _examples()


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal (saved as it goes)",
                                   description=DESCRIPTION, epilog=EPILOG,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default=None,
                        help=f"{' or '.join(GAMES)} (default: the last unfinished game's, "
                             f"else {next(iter(GAMES))}); with --load, list only its games")
    parser.add_argument("options", nargs="*", metavar="key=value",
                        help="options of a new game, e.g. layout=cross scoring=2 or pie=false")
    for colour in colours():
        first = [info.title for info in GAMES.values() if info.players["b"].name == colour]
        second = [info.title for info in GAMES.values() if info.players["w"].name == colour]
        parser.add_argument(f"--{colour}", dest=f"seat_{colour}", choices=TABLE_KINDS,
                            default=None, metavar="KIND",
                            help=f"who plays {colour}: {' or '.join(TABLE_KINDS)}; " + "; ".join(
                                [f"first in {', '.join(first)} (default: person)"] * bool(first)
                                + [f"second in {', '.join(second)} (default: engine)"]
                                * bool(second)))
    parser.add_argument("--level", type=level_argument, default=None,
                        help=f"the engine's level, {', '.join(map(str, LEVELS))} or max "
                             f"(the strongest) (default: {DEFAULT_LEVEL})")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the engine's choices (default: the configuration's, "
                             "else a fresh one)")
    parser.add_argument("--config", help="configuration file (default: "
                                         "/etc/tabletop/tabletop.toml if it exists): seats, "
                                         "level, [options] and [engines] for a new game")
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


def seats_asked(info, args, configured=None) -> dict[str, str]:
    """The seats the flags give for ``info``'s game, the ``configured`` ones (else the
    first player a person and the second the engine) unless told; a flag for a colour
    the game has not is an :class:`OptionError` (exit 2), rather than a seat silently
    given to nobody."""
    by_colour = {player.name: wire for wire, player in info.players.items()}
    seats = dict(configured or DEFAULT_SEATS)
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


def run(args) -> int:
    if args.game is not None and "=" in args.game:  # `tabletop play scoring=2`: Kulami's
        args.options, args.game = [args.game, *args.options], None
    config = load_config(getattr(args, "config", None))
    store = RecordStore(config.data_dir, profile=PROFILE)
    if args.load is not None:
        if args.options:
            raise EngineError("--load continues a saved game; options are for a new game "
                              "(with --new)")
        session = load(store, args.game, args.load, sys.stdin, sys.stdout, config)
        if session is None:
            return 0
    else:
        session = resume_or_start(store, args, _printer(sys.stdout), config)
    return play(session, sys.stdin, sys.stdout)


def terminal(store: RecordStore, config: Config | None = None, **settings) -> Assembly:
    """The terminal's table, as ``config`` describes it with ``settings`` (the flags)
    over it: a store and a session with no board (a typed move is played as it is, the
    engine's as soon as it is found), the search run in this thread, as the prompt waits
    for it anyway."""
    config = config or Config(None, store.directory)
    return Assembly.configured(config, store, thinker=InlineThinker(), **settings)


def handed_back(session: Session) -> list[str]:
    """What the session said of seats handed back to the table when it resumed (a
    browser's, which no page holds after a restart), beside its own words of resuming."""
    said = texts.resumed(session.store.current.name, len(session.board.move_stack))
    rest = session.message.removeprefix(said).removeprefix("; ") \
        if session.message.startswith(said) else ""
    return [texts.sentence(part) + "." for part in rest.split("; ") if part]


def resume_or_start(store: RecordStore, args, say, config: Config | None = None) -> Session:
    """The unfinished terminal game of the game asked for (with none asked for, of the
    last unfinished game's), unless ``--new`` or options ask for a new game; else a new
    game (of the first game, when none is asked for) with the options and players the
    arguments give, its record started. Which it is, is said."""
    typed = split_options(args.options)
    unnamed = None
    if args.game is None and not (args.new or typed):
        unnamed = store.unfinished_game(PROFILE)
    info = game(args.game or unnamed or next(iter(GAMES)))
    name = info.name
    config = config or Config(None, store.directory)
    try:
        seats = seats_asked(info, args, config.seats)
    except OptionError:
        if unnamed is None:
            raise
        # Flags for a new game, of colours the game continued has not: they would not
        # be used anyway, as a game under way keeps its players, which is said below.
        seats = dict(config.seats)
    table = terminal(store, config, seats=seats, level=args.level, seed=args.seed)
    options = {**config.options_for(name), **typed}
    if args.new or typed:
        session = table.session(name, options, new=True)
    else:
        # The flags describe a new game: a game under way keeps its own players and
        # level, which is said below in the terminal's words.
        session = table.session(name, options, finished=False, report_kept=False)
    if session.message_kind == "error":  # a record that does not resume
        say(texts.sentence(session.message))
    board = session.board
    if not session.resumed:
        say(f"New game: {store.current.name} in {store.games}.")
        return session
    say(f"Continuing {store.current.name} at move {len(board.move_stack)} "
        f"({texts.options(name, board.options)}; "
        f"{texts.seats(name, session.seats, session.level)}).")
    for line in handed_back(session):
        say(line)
    if seats_given(args) or args.level:
        say("It keeps its own players and level: add --new to start a new game with yours.")
    return session


def load(store: RecordStore, name: str | None, number: int, stdin: TextIO,
         stdout: TextIO, config: Config | None = None) -> Session | None:
    """The saved game picked from the list (``number`` from 1, or 0 to ask): listed
    newest first, each with its moves, options and whether it is finished; continued
    under the next number, as the newest game. ``None`` when nothing is picked."""
    say = _printer(stdout)
    saved = [s for s in store.saved() if name is None or s.game == game(name).name]
    if not saved:
        say(f"No saved {'games' if name is None else game(name).title + ' games'} in "
            f"{store.games}.")
        return None
    loaded = [store.read(s.path) for s in saved]
    if number == 0:
        for index, (entry, resumed) in enumerate(zip(saved, loaded), start=1):
            say(f"{index:>3}  {_listed(entry, resumed)}")
        stdout.write("Continue which game (its number; Enter to cancel)? ")
        stdout.flush()
        answer = stdin.readline().strip()
        if not answer:
            return None
        if not answer.isdigit():
            raise EngineError(f"not a number of the list: {answer!r}")
        number = int(answer)
    if not 1 <= number <= len(saved):
        raise EngineError(f"the list has games 1 to {len(saved)}, not {number}")
    entry = saved[number - 1]
    if loaded[number - 1].board is None:
        raise RecordError(loaded[number - 1].problem)
    # A record without players of its own (written by hand) gets the configuration's.
    table = terminal(store, config)
    session = table.session(entry.game, {}, record=entry.path.name, report_kept=False)
    say(f"Continuing {store.current.name} at move {len(session.board.move_stack)}.")
    for line in handed_back(session):
        say(line)
    return session


def _listed(entry: Saved, resumed: Resumed) -> str:
    """One line of the load list: the record, its moves, its options and its state."""
    board = resumed.board
    if board is None:  # the store's words begin with the record's name: said once
        why = resumed.problem.removeprefix(f"record {entry.path.name} ")
        return f"{entry.path.name}  {why}"
    outcome = board.outcome()
    state = (texts.won_by(board.game, outcome) if outcome is not None else "unfinished")
    where = f", played on {resumed.profile}" if resumed.profile not in ("", PROFILE) else ""
    return (f"{entry.path.name}  {game(board.game).title}, {len(board.move_stack)} moves, "
            f"{texts.options(board.game, board.options)}{where}: {state}")


def _printer(stdout: TextIO):
    return lambda text="": print(text, file=stdout, flush=True)


# --- the game -------------------------------------------------------------------------
def play(session: Session, stdin: TextIO, stdout: TextIO, colour: bool | None = None) -> int:
    """The game loop over a session with no board (``physical=False``) whose thinker
    searches in this thread; ``stdin``/``stdout`` are parameters so tests can drive it.
    With a store whose record is started, the session saves every change at once. The
    board is drawn in colour when ``colour`` says so, by default when ``stdout`` is a
    terminal that wants it (:func:`~app.cli.terminal.wants_colour`)."""
    say = _printer(stdout)
    if colour is None:
        colour = wants_colour(stdout)
    board, store = session.board, session.store
    info = game(board.game)
    names = info.players
    failure = ""

    def saving_news() -> str:
        """What to say of saving when it started or stopped failing since last said:
        the session's words, or nothing."""
        nonlocal failure
        now = store.failure if store is not None else ""
        news = "" if now == failure else texts.saving_fails(now) if now else texts.SAVED_AGAIN
        failure = now
        return news

    played: list[dict] = []

    def engine_moves(what: str, details: dict) -> None:
        """Note each move the engine plays (the session plays it in :meth:`poll`), to be
        named once the session has saved it: the session tells of a move before it
        saves it, and a move shown before it is on disk would come back missing after
        a power cut."""
        if what == "moved" and session.seats[details["player"]].thinks:
            played.append(details)

    session.listener = engine_moves
    news = saving_news()
    if news:  # the record could not even be started
        say(texts.sentence(news))
    say(f"{info.title}: {goal(board)}.")
    keyed = ""  # the key to the drawing's marks last said
    while (view := session.view()).end is None:
        say(render(view, colour))
        say(score_line(board))
        marks = key(view, colour)
        if marks and marks != keyed:  # said again only when the marks change
            say(marks)
        keyed = marks
        answered = False  # whether the session's message answers the command
        if session.seats[board.turn].thinks:
            session.poll()  # its search is done: this plays its move and saves it
        else:
            say(help_line(board, view))
            stdout.write(f"{names[board.turn].name} to move> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                say("\n" + (farewell(board, store, session.resumed) if store else "bye"))
                return 0
            command = line.strip().lower()
            if command in ("quit", "q", "exit"):
                if store is not None:
                    say(farewell(board, store, session.resumed))
                return 0
            if command == "hint":
                session.hint()
                answered = True
            elif command == "undo":
                session.undo()
                answered = True
            elif command == "resign":
                answered = resign(session, view, stdin, stdout)
            elif command in ("help", "?"):
                say(f"{info.title}: {goal(board)}.")  # the help line follows with the board
            elif command:
                moves = len(board.move_stack)
                session.confirm(command)
                if len(board.move_stack) == moves:  # refused, and the game untouched
                    say(f"Not played: {texts.named(board.game, session.message)}.")
        news = saving_news()
        for details in played:  # played and saved (or its save failed): named now
            line = f"{names[details['player']].title} (engine) plays {details['move']}"
            if store is not None and store.failure:
                # A move not on disk says so in its own line, with the news of why.
                line += f", not saved yet{': ' + news if news else ''}."
                news = ""
            say(line)
        played.clear()
        # Saving news said on the way takes the place of the answer: it is said once.
        if answered and session.message != news:
            say(f"{texts.sentence(session.message)}.")
        if news:
            say(texts.sentence(news))
    say(render(view, colour))
    for line in view.sheet:
        say(line)
    say(view.end_long)
    return 0


def resigner(view: View) -> str | None:
    """The colour the keyboard resigns now: the player to move, if they are at the
    keyboard (a person at the table) in a game going on; ``None`` when nobody may."""
    status = view.status
    if view.end is not None or status.turn is None or not status.seats[status.turn].at_table:
        return None
    return status.turn


def resign(session: Session, view: View, stdin: TextIO, stdout: TextIO) -> bool:
    """``resign`` typed: asks first ("Resign for Black? (y/n)"), as the status screen
    does, so that a slip of the keyboard does not end a game; a yes resigns the player
    to move through the session, which ends the game and saves it as a resignation.
    Whether the session's message answers the command: its refusal, in one line, when
    nobody at the keyboard may resign now (then nothing is asked)."""
    colour = resigner(view)
    if colour is None:
        session.resign(view.status.turn or "")  # the session says why not
        return True
    stdout.write(f"Resign for {view.players[colour].title}? (y/n) ")
    stdout.flush()
    if stdin.readline().strip().lower() not in ("y", "yes"):
        print("Play on.", file=stdout, flush=True)
        return False
    session.resign(colour)
    return session.resigned is None  # the end, shown once the loop ends, says the rest


def farewell(board: Board, store: RecordStore, resumed: bool = False) -> str:
    """The last line before the terminal is left: "Saved" only when the game is on disk,
    so that nobody closes a game they would lose. One more save is tried first, as the
    data folder may have come back. A new game left before its first move is not kept
    (:meth:`~app.table.store.RecordStore.drop_empty` says why); a ``resumed`` one is."""
    if not resumed and store.drop_empty(board):
        return "Nothing played, so nothing kept."
    if store.current is not None:
        store.save(board)
    if store.failure:
        return texts.sentence(texts.not_saved(str(store.games), store.failure))
    command = "tabletop play" if store.unfinished_game(store.profile) == board.game else \
        f"tabletop play {board.game}"
    return f"Saved; '{command}' continues this game."


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
    position = _positions(board)
    places = [text for text in texts if text in position]
    if not places:
        return ""
    middle_x = sum(x for x, _ in position.values()) / len(position)
    middle_y = sum(y for _, y in position.values()) / len(position)
    return min(places, key=lambda text: ((position[text][0] - middle_x) ** 2
                                         + (position[text][1] - middle_y) ** 2, text))


def _positions(board: Board) -> dict[str, tuple[float, float]]:
    """Each hole's place on the board."""
    return {hole: (place.x, place.y) for hole in board.holes
            for place in (board.place(hole),)}


def help_line(board: Board, view: View) -> str:
    """Every notation the prompt accepts now: a move (with an example), the moves
    ``view`` offers by button (ConHex's swap, which the terminal types as a word), each
    with what it does, and the commands."""
    parts = [f"type a {game(board.game).move_words} such as {example_move(board)}"]
    parts += [f"{offer.move} ({offer.words})" for offer in view.offers]
    commands = [command for command in COMMANDS
                if command != "resign" or resigner(view) is not None]
    return "Moves: " + ", ".join(parts) + "; or " + ", ".join(commands[:-1]) + \
        f" or {commands[-1]}."
