"""The main line of an SGF game tree, read and written.

Records of all four games are SGF: Pentobi's for Blokus Duo, Little Golem's for ConHex,
and our own documented SGF-style records for Kulami and Akron. A record is a list of
nodes, each a dict from property name to its list of values. Variations are refused
with a clear error: a game record of ours is one line of play.

A game's options live in its record's root, one property each, written by
:func:`option_text` and read back through the option itself by :func:`read_options`, so
a record is checked exactly as typed options are (``HA[2.0]`` is refused as a handicap,
as ``handicap = 2.0`` is). Readers of a format ignore root properties they do not know,
as every SGF reader does: that lets the table add its own (who sits where, the board it
was played on) to any game's record without the engine knowing of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engines.errors import EngineError, OptionError, RecordError, RecordOptionError
from engines.options import Option

Node = dict[str, list[str]]


def parse(text: str) -> list[Node]:
    """Parse one game tree's main line; raise :class:`RecordError` naming the problem."""
    reader = _Reader(text)
    nodes = reader.game_tree()
    reader.skip_space()
    if reader.pos != len(text):
        raise RecordError(f"SGF: unexpected text after the game at character {reader.pos + 1}")
    return nodes


def dumps(nodes: list[Node]) -> str:
    """Write nodes as one game tree, one move node per line after the root."""
    parts = []
    for node in nodes:
        props = "".join(name + "".join(f"[{_escape(v)}]" for v in values)
                        for name, values in node.items())
        parts.append(";" + props)
    return "(" + "\n".join(parts) + ")\n"


def option_text(value: Any) -> str:
    """An option's value as property text: ``true`` or ``false`` for a flag, else its
    ``str``. :meth:`Option.accept` reads either back to the same value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_options(root: Node, properties: Mapping[str, Option]) -> dict[str, Any]:
    """The options ``root`` records: for each property present, its first value read
    through its option (text converted to the option's type and checked against its
    choices). Absent properties are left out, for the game's defaults to fill in.

    A value the option refuses is a :class:`RecordOptionError` naming the property, its
    allowed values and the option (``HA must be 0, 2 or 3, not '2.0' (handicap)``)."""
    options = {}
    for name, option in properties.items():
        if name in root:
            text = root[name][0]
            try:
                options[option.name] = option.accept(text)
            except OptionError:
                raise RecordOptionError(f"{name} must be {option.allowed()}, not {text!r} "
                                        f"({option.name})") from None
    return options


#: The root properties of the players' names, by colour (SGF's: black moves first).
NAME_PROPERTIES = {"b": "PB", "w": "PW"}
#: A move value that is a resignation, as Little Golem writes it (``R[resign]``).
RESIGN = "resign"


def player_names(root: Node) -> dict[str, str]:
    """The players' names a root gives (``PB``/``PW``), by colour; absent ones left out."""
    return {player: root[key][0] for player, key in NAME_PROPERTIES.items()
            if key in root and root[key][0]}


def name_properties(players: Mapping[str, str] | None) -> Node:
    """``PB``/``PW`` for the players named in ``players`` (by colour)."""
    return {key: [players[player]] for player, key in NAME_PROPERTIES.items()
            if players and players.get(player)}


def moves_of(nodes: list[Node], colours: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """The move nodes after the root as ``(where, player, value)``: ``where`` names the
    move for an error (``move 3 (B[1c3])``), ``player`` is the wire colour of the node's
    one colour property (``colours`` maps the format's letters to ``b``/``w``)."""
    moves = []
    for number, node in enumerate(nodes, start=1):
        props = [name for name in node if name in colours]
        if len(props) != 1:
            raise RecordError(f"move {number}: a node needs exactly one of "
                              f"{' or '.join(f'{c}[..]' for c in colours)}, "
                              f"found {len(props)}")
        value = node[props[0]][0].strip()
        moves.append((f"move {number} ({props[0]}[{value}])", colours[props[0]], value))
    return moves


def replay(board: Any, moves: list[tuple[str, str, str]]) -> str | None:
    """Play ``moves`` (from :func:`moves_of`) on ``board``, each checked against the
    turn and the rules, a :class:`RecordError` naming the move that breaks them; a
    resignation (``resign``) may only come last, by the player to move. Returns who
    resigned, if anyone."""
    resigned = None
    for where, player, value in moves:
        if resigned is not None:
            raise RecordError(f"{where}: a move after the resignation")
        if board.is_game_over():
            raise RecordError(f"{where}: the game is over")
        if player != board.turn:
            raise RecordError(f"{where}: it is {board.turn}'s turn, not {player}'s")
        if value.lower() == RESIGN:
            resigned = player
            continue
        try:
            board.push(board.parse_move(value))
        except EngineError as error:
            raise RecordError(f"{where}: {error}") from None
    return resigned


#: SGF's ``RE``: a draw, no result, an unknown one, or a winner's letter and ``+`` with
#: a margin, a resignation, time or forfeit, or nothing (matched in upper case).
_RESULT = re.compile(r"0|DRAW|VOID|\?|(?P<winner>[A-Z])\+"
                     r"(?:\d+(?:\.\d*)?|\.\d+|R|RESIGN|T|TIME|F|FORFEIT)?")


def read_result(root: Node, colours: Mapping[str, str]) -> str | None:
    """The winner ``RE`` names (by the format's colour letters, ``colours``), if any;
    a value that is not a result in SGF's forms (``RE[a0]``) is a :class:`RecordError`.
    An absent or empty ``RE`` gives no result."""
    text = root.get("RE", [""])[0].strip()
    match = _RESULT.fullmatch(text.upper())
    if text and (match is None or (match["winner"] and match["winner"] not in colours)):
        letters = ", ".join(colours)
        first = next(iter(colours))
        raise RecordError(f"RE[{text}] is not a result: expected the winner's letter "
                          f"({letters}) and +, then a margin, R (resigned) or nothing, as "
                          f"in {first}+5 or {first}+R; or 0 for a draw")
    return colours[match["winner"]] if match and match["winner"] else None


def check_result(root: Node, winner: str | None, colours: Mapping[str, str]) -> None:
    """An ``RE`` must be a result (:func:`read_result`), and one naming a winner must
    agree with the winner the moves give, when they give one."""
    claimed = read_result(root, colours)
    if claimed is not None and winner is not None and claimed != winner:
        result = root["RE"][0].strip().upper()
        raise RecordError(f"RE[{result}] names {claimed} the winner, "
                          f"but the moves give the game to {winner}")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.pos >= len(self.text):
            raise RecordError(f"SGF: the record ends early; expected {char!r}")
        if self.text[self.pos] != char:
            raise RecordError(f"SGF: expected {char!r} at character {self.pos + 1}, "
                              f"found {self.text[self.pos]!r}")
        self.pos += 1

    def game_tree(self) -> list[Node]:
        self.expect("(")
        nodes = []
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                raise RecordError("SGF: the record ends early; expected ')'")
            char = self.text[self.pos]
            if char == ";":
                self.pos += 1
                nodes.append(self.node())
            elif char == ")":
                self.pos += 1
                break
            elif char == "(":
                raise RecordError(f"SGF: variations are not supported (character {self.pos + 1})")
            else:
                raise RecordError(f"SGF: unexpected {char!r} at character {self.pos + 1}")
        if not nodes:
            raise RecordError("SGF: the game tree has no nodes")
        return nodes

    def node(self) -> Node:
        node: Node = {}
        while True:
            self.skip_space()
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isalpha():
                self.pos += 1
            name = self.text[start:self.pos]
            if not name:
                return node
            if not name.isupper():
                raise RecordError(f"SGF: property name {name!r} must be upper case")
            if name in node:
                raise RecordError(f"SGF: property {name} appears twice in one node")
            values = []
            self.skip_space()
            while self.pos < len(self.text) and self.text[self.pos] == "[":
                values.append(self.value())
                self.skip_space()
            if not values:
                raise RecordError(f"SGF: property {name} has no value")
            node[name] = values

    def value(self) -> str:
        self.pos += 1  # the opening bracket
        out = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\" and self.pos + 1 < len(self.text):
                out.append(self.text[self.pos + 1])
                self.pos += 2
            elif char == "]":
                self.pos += 1
                return "".join(out)
            else:
                out.append(char)
                self.pos += 1
        raise RecordError("SGF: a property value is not closed with ']'")
