"""GTP version 2 front end over any registered board.

Pure protocol: ``GtpEngine.handle(line)`` takes one command line and returns the full
response text (``= ...`` or ``? ...`` followed by a blank line), so the same object serves
the ``tabletop gtp`` command, tests and other front ends. Errors are answers, never
tracebacks. A game adds its own commands by listing them in its board class's
``gtp_commands`` (Kulami's ``layout``); they are listed and known like the standard ones.

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
import unicodedata
from importlib.metadata import PackageNotFoundError, version as package_version
from typing import Any

from engines import sgf
from engines.core import Board, GameRecord, check_player
from engines.errors import EngineError
from engines.options import Option, validate
from engines.players import DEFAULT_LEVEL, LEVELS, LevelOption, choose_move, engine_name

#: Options that configure the engine player, not the game.
PLAYER_OPTIONS = (
    # The table's default (the README's table of levels says so for GTP too): a GTP
    # controller that names no level plays the greedy engine, as a new table game does.
    LevelOption("level", DEFAULT_LEVEL, int,
                "how strong the engine player is (max: the strongest)", choices=LEVELS),
    Option("seed", None, int, "seed of the engine player's random choices (default: fresh)"),
)
_PLAYER_KEYS = frozenset(option.name for option in PLAYER_OPTIONS)
#: The largest file ``loadsgf`` reads: a whole game's record is a few kilobytes.
MAX_RECORD_BYTES = 1 << 20


def version() -> str:
    """The installed package's version (pyproject.toml's): GTP's ``version`` and
    ``tabletop --version`` both report it."""
    try:
        return package_version("tabletop")
    except PackageNotFoundError:
        return "0"


class GtpEngine:
    """One GTP session: a board, the engine player's settings, and the command table."""

    BASE_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
                     "quit", "clear_board", "play", "genmove", "undo", "showboard",
                     "final_score", "all_legal", "loadsgf", "savesgf")

    def __init__(self, cls: type[Board], **options: Any) -> None:
        """A session of the game of board class ``cls``; ``level`` and ``seed`` set the
        engine player, the other options the game."""
        player = validate("gtp", PLAYER_OPTIONS,
                          {key: options.pop(key) for key in list(options) if key in _PLAYER_KEYS})
        self.level = player["level"]
        self.rng = random.Random(player["seed"])
        self.cls = cls
        self.finished = False
        self._new_game(self.cls.new(**{**self.cls.gtp_options, **options}))

    def _new_game(self, board: Board, players=None, resigned: str | None = None) -> None:
        """Play on ``board``; ``players`` names the players by colour (a record's
        ``PB``/``PW``, or the engine for the colours it moved), ``resigned`` who
        resigned."""
        self.board: Board = board
        self.players: dict[str, str] = dict(players or {})
        self.resigned = resigned

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
        return self.BASE_COMMANDS + tuple(self.cls.gtp_commands)

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
            return f"?{ident} invalid UTF-8\n\n"
        if not words:
            return f"?{ident} missing command\n\n"
        name, args = words[0].lower(), words[1:]
        try:
            ok, body = True, self._dispatch(name, args)
        except EngineError as error:
            ok, body = False, str(error)
        mark = "=" if ok else "?"
        return f"{mark}{ident} {body}".rstrip(" ") + "\n\n"

    def _dispatch(self, name: str, args: list[str]) -> str:
        command = self.cls.gtp_commands.get(name)
        if command is not None:
            board, answer = command(self.board, args)
            if board is not None:
                self._new_game(board)
            return answer
        handler = getattr(self, f"cmd_{name}", None)
        if handler is None or name not in self.BASE_COMMANDS:
            raise EngineError("unknown command")
        return handler(args)

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

    # --- game ------------------------------------------------------------------------
    def cmd_clear_board(self, args):
        self._new_game(self.cls.from_options(self.board.options))
        return ""

    def cmd_play(self, args):
        if len(args) != 2:
            raise EngineError("play wants a colour and a move")
        colour = check_player(args[0])
        resign = args[1].lower() == sgf.RESIGN
        move = None if resign else self.board.parse_move(args[1])
        if self._over():
            raise EngineError(self._over())
        if colour != self.board.turn:
            raise EngineError(f"it is {self.board.turn}'s turn, not {colour}'s")
        if resign:
            self.resigned = colour
        else:
            self.board.push(move)
        return ""

    def cmd_genmove(self, args):
        if len(args) != 1:
            raise EngineError("genmove wants a colour")
        colour = check_player(args[0])
        if self._over():
            return "pass"
        if colour != self.board.turn:
            raise EngineError(f"it is {self.board.turn}'s turn, not {colour}'s")
        move = choose_move(self.board, self.level, self.rng)
        if move is None:
            return "pass"
        self.board.push(move)
        self.players.setdefault(colour, engine_name(self.level))
        return self.board.move_text(move)

    def cmd_undo(self, args):
        if self.resigned is not None:
            self.resigned = None
        else:
            self.board.pop()
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
        if len(args) != 1:
            raise EngineError("all_legal wants a colour")
        colour = check_player(args[0])
        if self.resigned is not None:
            return ""
        return "\n".join(self.board.move_text(m) for m in self.board.legal_moves_for(colour))

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

