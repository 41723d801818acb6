"""The ``tabletop`` console command: a thin dispatcher over ``app.commands``."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

#: Subcommand modules, in the order ``tabletop --help`` lists them.
COMMANDS = (
    "app.cli.play",
    "app.cli.gtp",
    "app.cli.simulate",
    "app.cli.sensors",
    "app.cli.run",
    "app.cli.selftest",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop",
                                     description="An electronic tabletop for abstract games.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        import_module(name).register(subparsers)
    return parser


def split_options(words: list[str]) -> dict[str, str]:
    """Turn ``key=value`` words into a dict, refusing anything else with a clear error."""
    options = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise SystemExit(f"tabletop: expected key=value, got {word!r}")
        options[key] = value
    return options


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``[GAME] [key=value ...]`` pair that every playing command takes."""
    parser.add_argument("game", nargs="?", default="kulami")
    parser.add_argument("options", nargs="*", metavar="key=value", help="game options")


def game_from_args(args: argparse.Namespace, command: str):
    """The new game the arguments name, or ``None`` after a one-line error on stderr."""
    import engines
    from app.games import new_game
    try:
        return new_game(args.game, **split_options(args.options))
    except engines.EngineError as error:
        print(f"tabletop {command}: {error}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args) or 0

