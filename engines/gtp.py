"""GTP version 2 front end over any registered board.

Pure protocol: ``GtpEngine.handle(line)`` takes one command line and returns the full
response text (``= ...`` or ``? ...`` followed by a blank line), so the same object serves
the ``tabletop gtp`` command, tests and other front ends. Errors are answers, never
tracebacks. A game adds its own commands by listing them in its board class's
``gtp_commands`` (Kulami's ``layout``); they are listed and known like the standard ones.
"""

from __future__ import annotations

import random
import unicodedata
from importlib.metadata import PackageNotFoundError, version as package_version
from typing import Any

from engines.core import Board, check_player
from engines.errors import EngineError
from engines.options import Option, validate
from engines.players import LEVELS, choose_move

#: Options that configure the engine player, not the game.
PLAYER_OPTIONS = (
    Option("level", 1, int, "how strong the engine player is", choices=LEVELS),
    Option("seed", None, int, "seed of the engine player's random choices (default: fresh)"),
)
_PLAYER_KEYS = frozenset(option.name for option in PLAYER_OPTIONS)


def _version() -> str:
    try:
        return package_version("tabletop")
    except PackageNotFoundError:
        return "0"


class GtpEngine:
    """One GTP session: a board, the engine player's settings, and the command table."""

    BASE_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
                     "quit", "clear_board", "play", "genmove", "undo", "showboard",
                     "final_score", "all_legal")

    def __init__(self, cls: type[Board], **options: Any) -> None:
        """A session of the game of board class ``cls``; ``level`` and ``seed`` set the
        engine player, the other options the game."""
        player = validate("gtp", PLAYER_OPTIONS,
                          {key: options.pop(key) for key in list(options) if key in _PLAYER_KEYS})
        self.level = player["level"]
        self.rng = random.Random(player["seed"])
        self.cls = cls
        self.board: Board = self.cls.new(**options)
        self.finished = False

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
                self.board = board
            return answer
        handler = getattr(self, f"cmd_{name}", None)
        if handler is None or name not in self.BASE_COMMANDS:
            raise EngineError("unknown command")
        return handler(args)

    # --- administrative ---------------------------------------------------------------
    def cmd_protocol_version(self, args): return "2"
    def cmd_name(self, args): return "Tabletop"
    def cmd_version(self, args): return _version()
    def cmd_known_command(self, args):
        return "true" if args and args[0].lower() in self.commands else "false"
    def cmd_list_commands(self, args): return "\n".join(self.commands)

    def cmd_quit(self, args):
        self.finished = True
        return ""

    # --- game ------------------------------------------------------------------------
    def cmd_clear_board(self, args):
        self.board = self.cls.from_options(self.board.options)
        return ""

    def cmd_play(self, args):
        if len(args) != 2:
            raise EngineError("play wants a colour and a move")
        colour = check_player(args[0])
        move = self.board.parse_move(args[1])
        if self.board.is_game_over():
            raise EngineError("the game is over")
        if colour != self.board.turn:
            raise EngineError(f"it is {self.board.turn}'s turn, not {colour}'s")
        self.board.push(move)
        return ""

    def cmd_genmove(self, args):
        if len(args) != 1:
            raise EngineError("genmove wants a colour")
        colour = check_player(args[0])
        if self.board.is_game_over():
            return "pass"
        if colour != self.board.turn:
            raise EngineError(f"it is {self.board.turn}'s turn, not {colour}'s")
        move = choose_move(self.board, self.level, self.rng)
        if move is None:
            return "pass"
        self.board.push(move)
        return self.board.move_text(move)

    def cmd_undo(self, args):
        self.board.pop()
        return ""

    def cmd_showboard(self, args):
        return "\n" + self.board.ascii()

    def cmd_final_score(self, args):
        outcome = self.board.outcome()
        if outcome is not None:
            return outcome.result()
        scores = self.board.scores()
        margin = scores["b"] - scores["w"]
        return "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin)}"

    def cmd_all_legal(self, args):
        if len(args) != 1:
            raise EngineError("all_legal wants a colour")
        colour = check_player(args[0])
        return "\n".join(self.board.move_text(m) for m in self.board.legal_moves_for(colour))

