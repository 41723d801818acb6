"""GTP version 2 front end over any registered board.

Pure protocol: ``GtpEngine.handle(line)`` takes one command line and returns the full
response text, so the same object serves the ``tabletop gtp`` command, tests and other
front ends. Errors are answers, never tracebacks. A game adds its own commands by
listing them in its board class's ``gtp_commands`` (Kulami's ``layout``); they are
listed and known like the standard ones.

The form of an answer is the specification's to the byte, since strict readers (Pentobi's
``twogtp``) refuse anything else: ``=`` or ``?``, the command's id if it had one, one
space (there even before an empty result: ``= `` and a newline), the text, and one blank
line. Text never holds a blank line of its own, which would end the answer early.

Either colour. GTP lets a controller ask ``genmove`` and ``play`` for either colour,
whoever is to move; the engine plays for the colour asked where the game allows it:

- A colour with no legal move passes: ``genmove`` answers ``pass`` and ``play COLOUR
  pass`` is taken, and neither changes the game (Pentobi answers so for a Blokus Duo
  colour that cannot place).
- Where the player to move has no legal action and the rules make it pass (Akron), the
  engine plays that pass for it, a move of the game like any other, and the colour asked
  moves next.
- Otherwise the turn is handed to the colour asked, as Pentobi does, in the games that
  keep each player's pieces in hand as their own state (Blokus Duo's shapes, Akron's
  supply): there nothing else hangs on whose turn it was. ``undo`` takes the move back
  and gives the turn back too. A record holds moves in turn only, so ``savesgf`` refuses
  a game with such a move. Kulami and ConHex work out each player's marbles, the
  handicap and the swap from the number of moves played, so there the colour not to
  move passes instead, as a blocked colour does, and ``play`` of its move is refused.

``reg_genmove COLOUR`` (Pentobi's) answers the move ``genmove`` would play without
playing it, and leaves the random choices as they were, so a ``genmove`` after it plays
that move. ``param`` lists the engine player's settings as GoGui's parameter dialog reads
them (``[list/1/2/3/max] level 2``, ``[string] seed``) and ``param level 3``, ``param
seed 7`` change them (``param seed`` alone: fresh random choices); ``gogui-analyze_commands``
offers that dialog to GoGui.

GoGui. In the games whose moves are points of a grid of holes (Kulami, and ConHex but
for its swap), GoGui's rules commands let GoGui draw the board and take the moves:
``gogui-rules_game_id``, ``gogui-rules_board_size`` (``11``, or ``10 8`` for a board
wider than high), ``gogui-rules_board`` (rows from the top: ``X``, ``O``, ``.``, and
``?`` where the grid has no hole), ``gogui-rules_legal_moves`` (of the player to move;
none once the game is over), ``gogui-rules_side_to_move`` (``black`` or ``white``) and
``gogui-rules_final_result``. GoGui names columns as Go does, in capitals and without
``I`` (``H`` is followed by ``J``); started with ``coords=gogui`` the session reads and
writes every point that way, in every command, so that boards wider than eight columns
match.

Records. ``loadsgf FILE [MOVE_NUMBER]`` loads a record of the session's game in the
game's own format (Little Golem SGF for ConHex, our SGF-style record for Kulami), with
its options, players and any resignation; with a move number, the position before that
move (``loadsgf game.sgf 1`` is the empty board). ``savesgf FILE`` writes the game so
far the same way. A file that cannot be read, is not UTF-8 or is not a record of this
game answers ``? cannot load file FILE: why`` on one line and leaves the game as it was.
These two commands are the only place an engine touches a file: GTP names the files.

Resignation. GTP's only resignation is ``genmove`` answering ``resign``, which our
engine players never do; so a controller tells the session a player resigned with
``play COLOUR resign`` (the player to move, in a game still going). The game is then
over: ``play`` is refused, ``genmove`` passes, ``final_score`` answers ``B+R`` or
``W+R``, ``savesgf`` writes the resignation, and ``undo`` takes it back first.

``final_score``. A game that is over answers its result: ``B+n``, ``W+n`` or ``0`` for a
game won on points (Kulami), ``B+``/``W+`` for ConHex's chain, ``B+R``/``W+R`` for a
resignation. A game still going answers what its own rules would say now: the score so
far for a game won on points, and ``0`` (nobody has won) for ConHex, which is won by a
connection and never on points; its owned cells are a progress measure, not a score.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Hashable
from importlib.metadata import PackageNotFoundError, version as package_version
from typing import Any

from engines import sgf
from engines.core import PASS, Board, GameRecord, Place, check_player
from engines.errors import EngineError, IllegalMoveError
from engines.options import Option, validate
from engines.players import (DEFAULT_LEVEL, LEVELS, MAX_LEVEL, LevelOption, choose_move,
                             engine_name)

#: How points are written: the games' own notation, or GoGui's (see the module's text).
COORDINATES = ("tabletop", "gogui")
#: Options that configure the engine player and the session, not the game.
PLAYER_OPTIONS = (
    # The table's default (the README's table of levels says so for GTP too): a GTP
    # controller that names no level plays the greedy engine, as a new table game does.
    LevelOption("level", DEFAULT_LEVEL, int,
                "how strong the engine player is (max: the strongest)", choices=LEVELS),
    Option("seed", None, int, "seed of the engine player's random choices (default: fresh)"),
    Option("coords", COORDINATES[0], str,
           "how points are written: the games' own way, or GoGui's (capitals, no I)",
           choices=COORDINATES),
)
_PLAYER_KEYS = frozenset(option.name for option in PLAYER_OPTIONS)
#: The settings ``param`` changes while a session runs (``coords`` is fixed at the start:
#: GoGui reads the board once).
_PARAMS = {option.name: option for option in PLAYER_OPTIONS if option.name != "coords"}
#: The largest file ``loadsgf`` reads: a whole game's record is a few kilobytes.
MAX_RECORD_BYTES = 1 << 20
#: GoGui's column letters, as Go writes them: no ``I``.
GOGUI_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def version() -> str:
    """The installed package's version (pyproject.toml's): GTP's ``version`` and
    ``tabletop --version`` both report it."""
    try:
        return package_version("tabletop")
    except PackageNotFoundError:
        return "0"


def moves_are_points(cls: type[Board]) -> bool:
    """Whether the game's board is a square grid of holes with nothing above them, and a
    move puts a piece into one of them: what GoGui can draw and take by a click (Kulami
    and ConHex; not Blokus Duo's pieces over several squares, nor Akron's stacked
    balls, nor a hexagonal board's shifted rows)."""
    board = cls.new(**cls.gtp_options)
    holes = set(board.holes)
    return (set(board.points) == holes and all(_on_grid(board.place(hole)) for hole in holes)
            and all(board.move_text(move) in holes for move in board.legal_moves))


def _on_grid(place: Place) -> bool:
    return place.x == int(place.x) and place.y == int(place.y) and place.level == 1


def to_gogui(board: Board, text: str) -> str:
    """A move as GoGui writes it: the hole's column in capitals without ``I`` and its
    row from 1, from where the board places it (``j3`` is ``K3``); a move that is no
    hole (``pass``, ``swap``) as it is."""
    if text not in board.holes:
        return text
    place = board.place(text)
    return f"{GOGUI_COLUMNS[int(place.x)]}{int(place.y) + 1}"


#: A point as GoGui writes it: a column letter and a row number from 1.
_GOGUI_POINT = re.compile(r"([A-Za-z])(\d+)")


def from_gogui(board: Board, text: str) -> str:
    """A move GoGui wrote, in the game's own notation (``K3`` is ``j3``): the inverse of
    :func:`to_gogui`, refusing the column ``I``, which GoGui never writes. A point where
    the board has no hole, and any word that is no point (``swap``), is left as it is,
    for the board to refuse or read."""
    word = text.strip()
    point = _GOGUI_POINT.fullmatch(word)
    if point is None:
        return word
    letter = point[1].upper()
    if letter not in GOGUI_COLUMNS:
        raise EngineError(f"{word!r} is not a point as GoGui writes them: its columns go "
                          f"{GOGUI_COLUMNS[:10]}..., without I")
    hole = board.point_at(GOGUI_COLUMNS.index(letter), int(point[2]) - 1)
    return word if hole is None else hole


class GtpEngine:
    """One GTP session: a board, the engine player's settings, and the command table."""

    BASE_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
                     "quit", "clear_board", "play", "genmove", "reg_genmove", "undo",
                     "showboard", "final_score", "all_legal", "loadsgf", "savesgf", "param",
                     "gogui-analyze_commands")
    #: GoGui's commands for games it can draw, offered where :func:`moves_are_points`.
    GOGUI_RULES = ("gogui-rules_game_id", "gogui-rules_board_size", "gogui-rules_board",
                   "gogui-rules_legal_moves", "gogui-rules_side_to_move",
                   "gogui-rules_final_result")

    def __init__(self, cls: type[Board], **options: Any) -> None:
        """A session of the game of board class ``cls``; ``level``, ``seed`` and
        ``coords`` set the engine player and the session, the other options the game."""
        player = validate("gtp", PLAYER_OPTIONS,
                          {key: options.pop(key) for key in list(options) if key in _PLAYER_KEYS})
        self.level = player["level"]
        self.seed = player["seed"]
        self.rng = random.Random(self.seed)
        self.cls = cls
        self.points = moves_are_points(cls)
        self.gogui = player["coords"] == "gogui"
        if self.gogui and not self.points:
            raise EngineError(f"coords=gogui is for games whose moves are points of a grid "
                              f"of holes, which {cls.game}'s are not")
        self.finished = False
        self._new_game(self.cls.new(**{**self.cls.gtp_options, **options}))

    def _new_game(self, board: Board, players=None, resigned: str | None = None) -> None:
        """Play on ``board``; ``players`` names the players by colour (a record's
        ``PB``/``PW``, or the engine for the colours it moved), ``resigned`` who
        resigned."""
        self.board: Board = board
        self.players: dict[str, str] = dict(players or {})
        self.resigned = resigned
        #: The turns handed to a colour not to move (:meth:`_seat`), as (the number of
        #: moves then, who was to move), so that ``undo`` gives them back.
        self._handed: list[tuple[int, str]] = []

    def record(self) -> GameRecord:
        """The game as a record: the board, the players' names, any resignation."""
        return GameRecord(self.board, self.players, self.resigned)

    def _over(self) -> str:
        """Why the game is over, or nothing while it goes on."""
        if self.resigned is not None:
            return f"the game is over ({self.resigned} resigned)"
        return "the game is over" if self.board.is_game_over() else ""

    @property
    def commands(self) -> tuple[str, ...]:
        gogui = self.GOGUI_RULES if self.points else ()
        return self.BASE_COMMANDS + gogui + tuple(self.cls.gtp_commands)

    def handle(self, line: str | bytes) -> str | None:
        """Answer one command line; ``None`` for blank and comment lines.

        A line of bytes is decoded here, as UTF-8: a controller's stray byte (a Latin-1
        name, line noise) is one ``? invalid UTF-8`` answer, with the line's id when it
        has one, and the session goes on; a decoding error raised by the input stream
        would end it, and a GUI driving the engine would lose its game. As GTP asks,
        control characters are discarded (a tab is a space), so a line of nothing else
        gets no answer, and an id is ASCII digits only (``str.isdigit`` also takes
        ``²`` and other scripts' digits, which no controller sends as an id).
        """
        valid = True
        if isinstance(line, bytes):
            line = line.split(b"#", 1)[0]  # a comment is dropped unread, whatever its bytes
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                line, valid = line.decode("utf-8", errors="replace"), False
        text = "".join(" " if ch == "\t" else ch for ch in line.split("#", 1)[0]
                       if ch == "\t" or unicodedata.category(ch) != "Cc")
        words = text.split()
        if not words:
            return None
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident, words = words[0], words[1:]
        if not valid:
            return answer("?", ident, "invalid UTF-8")
        if not words:
            return answer("?", ident, "missing command")
        name, args = words[0].lower(), words[1:]
        try:
            return answer("=", ident, self._dispatch(name, args))
        except EngineError as error:
            return answer("?", ident, str(error))

    def _dispatch(self, name: str, args: list[str]) -> str:
        command = self.cls.gtp_commands.get(name)
        if command is not None:
            board, reply = command(self.board, args)
            if board is not None:
                self._new_game(board)
            return reply
        if name not in self.commands:
            raise EngineError("unknown command")
        return getattr(self, "cmd_" + name.replace("-", "_"))(args)

    # --- administrative ---------------------------------------------------------------
    def cmd_protocol_version(self, args): return "2"
    def cmd_name(self, args): return "Tabletop"
    def cmd_version(self, args): return version()
    def cmd_known_command(self, args):
        return "true" if args and args[0].lower() in self.commands else "false"
    def cmd_list_commands(self, args): return "\n".join(self.commands)

    def cmd_quit(self, args):
        self.finished = True
        return ""

    def cmd_param(self, args):
        """No arguments: the settings, one a line, as GoGui's parameter dialog reads them
        (``[type] key value``). ``param KEY VALUE`` changes one; ``param seed`` alone
        goes back to fresh random choices."""
        if not args:
            levels = "/".join([*map(str, LEVELS[:-1]), "max"])
            level = "max" if self.level == MAX_LEVEL else str(self.level)
            seed = "" if self.seed is None else f" {self.seed}"
            return f"[list/{levels}] level {level}\n[string] seed{seed}"
        key = args[0].lower()
        option = _PARAMS.get(key)
        if option is None:
            raise EngineError(f"unknown parameter {args[0]!r} (known: {', '.join(_PARAMS)})")
        if len(args) > 2 or (len(args) == 1 and key != "seed"):
            raise EngineError(f"param {key} wants one value: {option.allowed()}")
        value = option.accept(args[1]) if len(args) == 2 else None
        if key == "level":
            self.level = value
        else:
            self.seed, self.rng = value, random.Random(value)
        return ""

    def cmd_gogui_analyze_commands(self, args):
        return "param/Engine player/param"

    # --- game ------------------------------------------------------------------------
    def cmd_clear_board(self, args):
        self._new_game(self.cls.from_options(self.board.options))
        return ""

    def cmd_play(self, args):
        if len(args) != 2:
            raise EngineError("play wants a colour and a move")
        colour = check_player(args[0])
        resign = args[1].lower() == sgf.RESIGN
        move = None if resign else self._parse(args[1])
        if self._over():
            raise EngineError(self._over())
        if resign:
            if colour != self.board.turn:
                raise EngineError(f"it is {self.board.turn}'s turn, not {colour}'s: only "
                                  f"the player to move resigns")
            self.resigned = colour
            return ""
        if colour != self.board.turn:
            probe = self.board.copy()
            why = self._seat(probe, colour)
            if why:
                if move == PASS:
                    return ""  # the pass of a colour that cannot move changes nothing
                raise EngineError(why)
            if not probe.is_legal(move):
                raise IllegalMoveError(probe.illegal_reason(move))
            self._seat(self.board, colour)
        self.board.push(move)
        return ""

    def cmd_genmove(self, args):
        colour = self._colour_argument("genmove", args)
        if self._over() or self._seat(self.board, colour):
            return "pass"
        move = choose_move(self.board, self.level, self.rng)
        if move is None:
            return "pass"
        self.board.push(move)
        self.players.setdefault(colour, engine_name(self.level))
        return self._text(move)

    def cmd_reg_genmove(self, args):
        """The move ``genmove`` would play, not played; the random choices are left as
        they were, so that ``genmove`` then plays this very move."""
        colour = self._colour_argument("reg_genmove", args)
        if self._over():
            return "pass"
        probe = self.board.copy()
        if self._seat(probe, colour):
            return "pass"
        state = self.rng.getstate()
        move = choose_move(probe, self.level, self.rng)
        self.rng.setstate(state)
        return "pass" if move is None else self._text(move)

    def _seat(self, board: Board, colour: str) -> str:
        """Make ``colour`` the player to move on ``board`` (the session's, or a copy to
        try a move on), as GTP lets a controller ask for either colour: nothing when it
        is, else why ``colour`` passes instead. The module's text gives the rule."""
        if board.turn == colour:
            return ""
        if not any(move != PASS for move in board.legal_moves_for(colour)):
            return f"{colour} has no legal move"
        if board.may_pass(board.turn):
            board.push(PASS)  # the player to move has no legal action: the rules pass it
            return "the game is over" if board.is_game_over() else ""
        if not board.turn_can_be_handed:
            return f"it is {board.turn}'s turn, not {colour}'s"
        if board is self.board:
            self._handed.append((len(board.move_stack), board.turn))
        board.hand_turn(colour)
        return ""

    def cmd_undo(self, args):
        if self.resigned is not None:
            self.resigned = None
            return ""
        self.board.pop()
        if self._handed and self._handed[-1][0] == len(self.board.move_stack):
            self.board.hand_turn(self._handed.pop()[1])
        return ""

    def cmd_showboard(self, args):
        board = "\n" + self.board.ascii()
        if self.resigned is not None:
            board += f"\n{self.resigned} resigned: {self.record().winner} wins"
        return board

    def cmd_final_score(self, args):
        outcome = self.record().outcome()
        if outcome is not None:
            return outcome.result()
        if not self.board.won_on_points:
            return "0"
        scores = self.board.scores()
        margin = scores["b"] - scores["w"]
        return "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin)}"

    def cmd_all_legal(self, args):
        colour = self._colour_argument("all_legal", args)
        if self.resigned is not None:
            return ""
        return "\n".join(self._text(m) for m in self.board.legal_moves_for(colour))

    def _colour_argument(self, command: str, args: list[str]) -> str:
        if len(args) != 1:
            raise EngineError(f"{command} wants a colour")
        return check_player(args[0])

    def _parse(self, text: str) -> Hashable:
        """A move from the controller, in the session's coordinates."""
        return self.board.parse_move(from_gogui(self.board, text) if self.gogui else text)

    def _text(self, move: Hashable) -> str:
        """A move for the controller, in the session's coordinates."""
        text = self.board.move_text(move)
        return to_gogui(self.board, text) if self.gogui else text

    # --- GoGui's rules commands --------------------------------------------------------
    def _grid(self) -> tuple[int, int]:
        """Columns and rows of the grid the holes lie on."""
        places = [self.board.place(hole) for hole in self.board.holes]
        return int(max(p.x for p in places)) + 1, int(max(p.y for p in places)) + 1

    def cmd_gogui_rules_game_id(self, args):
        # GoGui wants a capital, then small letters only.
        return "".join(ch for ch in self.cls.game if ch.isalpha()).capitalize()

    def cmd_gogui_rules_board_size(self, args):
        columns, rows = self._grid()
        return str(columns) if columns == rows else f"{columns} {rows}"

    def cmd_gogui_rules_board(self, args):
        columns, rows = self._grid()
        pieces = self.board.sensor_view()
        marks = {"b": "X", "w": "O"}
        lines = []
        for row in range(rows - 1, -1, -1):
            names = (self.board.point_at(column, row) for column in range(columns))
            lines.append(" ".join(marks[pieces[name]] if name in pieces else
                                  "." if name is not None else "?" for name in names))
        return "\n".join(lines)

    def cmd_gogui_rules_legal_moves(self, args):
        if self._over():
            return ""
        return " ".join(self._text(move) for move in self.board.legal_moves
                        if move == PASS or self.board.move_text(move) in self.board.holes)

    def cmd_gogui_rules_side_to_move(self, args):
        return "black" if self.board.turn == "b" else "white"

    def cmd_gogui_rules_final_result(self, args):
        outcome = self.record().outcome()
        if outcome is None:
            return "unknown"
        if outcome.winner is None:
            return f"Draw: {outcome.reason}"
        player = "Black" if outcome.winner == "b" else "White"
        return f"{player} wins, {outcome.result()}: {outcome.reason}"

    # --- records ---------------------------------------------------------------------
    def cmd_loadsgf(self, args):
        if not 1 <= len(args) <= 2:
            raise EngineError("loadsgf wants a file name and, if you like, a move number")
        name, until = args[0], None
        if len(args) == 2:
            if not (args[1].isascii() and args[1].isdigit()) or int(args[1]) < 1:
                raise EngineError(f"the move number must be a whole number from 1, "
                                  f"not {args[1]!r}")
            until = int(args[1])
        text = self.read_file(name)
        try:
            if until is not None:
                text = _before_move(text, until)
            record = self.board.record_format.read_game(text)
        except EngineError as error:
            raise EngineError(f"cannot load file {name}: {error}") from None
        self._new_game(record.board, record.players, record.resigned)
        return ""

    def cmd_savesgf(self, args):
        if len(args) != 1:
            raise EngineError("savesgf wants a file name")
        if self._handed:
            ply, turn = self._handed[0]
            raise EngineError(f"cannot save file {args[0]}: move {ply + 1} was played while "
                              f"it was {turn}'s turn, and a record holds moves in turn only")
        self.write_file(args[0], self.record().text())
        return ""

    def read_file(self, name: str) -> str:
        """The text of the file ``name`` (relative to the working directory), or one line
        saying why not: ``cannot load file NAME: No such file or directory``."""
        try:
            with open(name, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
        except (OSError, ValueError) as error:
            raise EngineError(f"cannot load file {name}: {_why(error)}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise EngineError(f"cannot load file {name}: larger than "
                              f"{MAX_RECORD_BYTES >> 20} MB, so not a game record")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as bad:
            raise EngineError(f"cannot load file {name}: not UTF-8 text: byte "
                              f"0x{data[bad.start]:02x} at offset {bad.start}") from None

    def write_file(self, name: str, text: str) -> None:
        """Write ``text`` to the file ``name``, or say why not in one line."""
        try:
            with open(name, "w", encoding="utf-8") as file:
                file.write(text)
        except (OSError, ValueError) as error:
            raise EngineError(f"cannot save file {name}: {_why(error)}") from None


def _before_move(text: str, number: int) -> str:
    """The record ``text`` cut to the position before move ``number`` (from 1). The
    result (``RE``) is the whole game's, so it goes; the game's format reads the rest,
    as it reads a game that stopped there (a Little Golem swap cut off is no swap)."""
    root, *moves = sgf.parse(text)
    root = {name: values for name, values in root.items() if name != "RE"}
    return sgf.dumps([root, *moves[:number - 1]])


def _why(error: Exception) -> str:
    """An OS error's reason in one line (``No such file or directory``)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return " ".join(str(error).split()) or type(error).__name__


def answer(mark: str, ident: str, text: str) -> str:
    """One answer in the specification's form: the mark, the id, one space, the text and
    a blank line. Empty lines inside the text are dropped: the first would end the answer
    for the controller, and the rest would be read as stray output."""
    lines = text.split("\n")
    body = "\n".join([lines[0], *filter(None, lines[1:])])
    return f"{mark}{ident} {body}\n\n"
