"""``tabletop COMMAND --help``: every command says what it does and every default."""

import argparse

import pytest

from app.cli import build_parser


def commands(parser: argparse.ArgumentParser, name: str = "tabletop"):
    """Every command that runs (``sensors replay``, not ``sensors``), with its parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                yield from commands(sub, f"{name} {word}")
            return
    yield name, parser


COMMANDS = dict(commands(build_parser()))


def test_the_commands_a_newcomer_missed_are_among_those_checked():
    assert {"tabletop gtp", "tabletop run", "tabletop selftest"} <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_says_what_it_does_and_its_defaults(name):
    parser = COMMANDS[name]
    assert parser.description and len(parser.description) > 60, name
    text = parser.format_help()
    assert parser.description.split()[0] in text
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        if action.default in (None, False, argparse.SUPPRESS):
            continue  # nothing is assumed: leaving it out leaves it out
        said = parser._get_formatter()._expand_help(action)
        assert "default" in said and (f"{action.default:g}" if isinstance(
            action.default, float) else str(action.default)) in said, (name, said)


def test_every_positional_argument_is_explained():
    for name, parser in COMMANDS.items():
        for action in parser._actions:
            if not action.option_strings and not isinstance(
                    action, argparse._SubParsersAction):
                assert action.help, (name, action.dest)
