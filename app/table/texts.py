"""The table's own words: the session's messages, and the game facts in words (options,
seats, the end of a game in its two lengths, the score sheet) that the view carries to
the screen, the page, the terminal and the log.

Kept together so that the screen, the systemd status line and the journal say the same
thing in the same words. What is particular to a game (its title, its players' names,
its options, its goal, what its moves made by button do) is not here but in its entry in
:mod:`app.games`; what a front end alone says (the terminal's prompts, the page's
labels) stays with that front end.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterable, Mapping
from typing import Any

from app.games import game as game_info
from app.table.ending import End, Termination
from app.table.sureness import Sureness
from engines.core import Board, Outcome, Place


def title(game: str) -> str:
    return game_info(game).title


def player(game: str, colour: str) -> str:
    """The player's display name with a capital, e.g. ``Red``."""
    return game_info(game).players[colour].title


def options(game: str, values: Mapping[str, Any]) -> str:
    """The game's options as one line, e.g. ``layout square-1, scoring level 0``."""
    return ", ".join(game_info(game).describe(values))


def seats(game: str, seats: Mapping[str, Any], level: int) -> str:
    """Who plays which colour (each a :class:`~app.table.seats.Seat`), e.g. ``Red:
    person, Black: engine level 2``. A seat not given is left out: a record made
    elsewhere, or by hand, says nothing of who sat where."""
    return ", ".join(f"{player(game, c)}: {seats[c].words(level)}" for c in ("b", "w")
                     if c in seats)


def scores(game: str, values: Mapping[str, int]) -> str:
    """One figure per player, e.g. ``Red 12, Blue 10``."""
    return ", ".join(f"{player(game, p)} {values[p]}" for p in "bw")


# --- the end of a game, one wording a length ------------------------------------------
def end_short(game: str, end: End) -> str:
    """The end in a line, for the page, the log and the lists of games: who won and by
    how much (``Red wins by 8, 35 to 27``, ``A draw at 30``); a game won by a chain or a
    resignation has no margin (``Red wins``, ``Red wins: black resigned``)."""
    if end.winner is None:
        if end.termination is not Termination.POINTS:
            return "A draw"
        b, w = end.scores["b"], end.scores["w"]
        return f"A draw at {b}" if b == w else f"A draw, {scores(game, end.scores)}"
    name = player(game, end.winner)
    if end.termination is Termination.RESIGNATION:
        return f"{name} wins: {named(game, end.reason)}"
    if end.termination is not Termination.POINTS:
        return f"{name} wins"
    won, lost = end.scores[end.winner], end.scores[end.loser]
    return f"{name} wins by {won - lost}, {won} to {lost}"


def end_long(game: str, end: End) -> str:
    """The end as the screen and the terminal say it (and the session's message): why
    it ended, then :func:`end_short`; a chain is named by the sides it joins, in the
    players' colours. Never the result as records write it (``W+5``): its letters are
    GTP's first and second player, which read as white and black, and in Kulami W is
    black."""
    if end.termination is Termination.RESIGNATION:  # the short words say why
        return f"game over: {end_short(game, end)}."
    info = game_info(game)
    why = named(game, end.reason)
    if end.termination is Termination.CONNECTION and info.sides:
        why = (f"{info.players[end.winner].name} joins "
               f"{' and '.join(info.sides[end.winner])} with a chain of {info.chain}")
    return f"game over: {why}. {end_short(game, end)}."


def won_by(game: str, outcome: Outcome) -> str:
    """:func:`end_short` of an engine's ``outcome`` (a saved game's, in the lists)."""
    return end_short(game, End.of(outcome))


def score_sheet(board: Board) -> list[str]:
    """How a finished game's score came about, before the line that says who won: each
    part of the score the engine lists (``Board.score_parts``), then, in a game won by a
    chain, the chain from one side to the other. The end screen and the terminal show
    the same sheet."""
    outcome = board.outcome()
    if outcome is None:
        return []
    game = board.game
    lines = []
    for part in board.score_parts():
        if part.points is None:
            lines.append(f"{part.label}: {scores(game, part.counted)}")
        elif part.bonus:
            gainer = next((p for p in "bw" if part.points[p]), None)
            bonus = f"{player(game, gainer)} +{part.points[gainer]}" if gainer else "no bonus"
            lines.append(f"{part.label}: {scores(game, part.counted)}: {bonus}")
        else:
            lines.append(f"{part.label}: " + ", ".join(
                f"{player(game, p)} {part.counted[p]} ({part.points[p]} pts)" for p in "bw"))
    chain = board.winning_chain(outcome.winner) if outcome.winner else ()
    if chain and not outcome.resignation:
        info = game_info(game)
        start, end = info.sides[outcome.winner]
        lines.append(f"The winning chain, {start} to {end}: "
                     f"{chain_words(board, outcome.winner, chain, info.chain)}")
    return lines


def chain_words(board: Board, winner: str, chain: Iterable[str], made_of: str) -> str:
    """A winning chain as players see it: its pieces' holes (Akron's balls), or where
    it is made of areas (ConHex's cells, which players know by the holes around them and
    the engine by number), how many and the winner's holes in them, along the chain:
    ``6 cells, held by Red at f11 f10 e9 ...``."""
    chain = list(chain)
    areas = board.areas
    if not all(link in areas for link in chain):
        return f"{made_of} {' '.join(chain)}"
    held = board.sensor_view()
    places = {hole: board.place(hole) for hole in board.holes}
    holes = dict.fromkeys(hole for link in chain
                          for hole in in_board_order(areas[link], places)
                          if held.get(hole) == winner)
    return (f"{len(chain)} {made_of}, held by {player(board.game, winner)} at "
            f"{' '.join(holes)}")


#: A player's wire letter standing alone as a word (``w's first action``), never a hole
#: name's letter (``b2``) or part of a word.
_PLAYER_LETTER = re.compile(r"(?<![\w'-])([bw])(?![\w-])")


def named(game: str, text: str) -> str:
    """``text`` with the players' letters (``b``, ``w``) that stand alone as words replaced
    by their colour names: the engines word their reasons in letters, the table in colours
    (``swap is only legal as w's first action`` reads ``... as blue's first action``)."""
    players = game_info(game).players
    return _PLAYER_LETTER.sub(lambda match: players[match[1]].name, text)


def offered(game: str, mover: str, move: str) -> str:
    """What a move made by button does, while it is offered: the game's own words for
    it, else that the player may also play it."""
    info = game_info(game)
    other = "w" if mover == "b" else "b"
    text = info.button_moves.get(move, "{mover} may also play " + move)
    return text.format(mover=player(game, mover), other=player(game, other))


def sentence(text: str) -> str:
    """``text`` with a capital first letter, as a message on the screen reads."""
    return text[:1].upper() + text[1:]


def in_board_order(names: Iterable[str], places: Mapping[str, Place]) -> list[str]:
    """``names`` as a printed board is read, from where the board places them (a
    board's :meth:`~engines.core.Board.place`, a view's board's ``holes``), never by
    parsing a name: level by level, row by row from the bottom, each row from the left.
    Rows, not columns, as a hexagonal board's rows are straight where its columns slant.
    A name ``places`` does not hold is a ``KeyError``, never a name left out."""
    def order(name: str) -> tuple[int, float, float, str]:
        place = places[name]
        return place.level, round(place.y, 6), round(place.x, 6), name
    return sorted(names, key=order)


def holes(names: Iterable[str], places: Mapping[str, Place], most: int = 8) -> str:
    """Hole names in board order (:func:`in_board_order` by ``places``), at most
    ``most`` of them and a count of the rest."""
    ordered = in_board_order(names, places)
    shown = " ".join(ordered[:most])
    rest = len(ordered) - most
    return f"{shown} and {rest} more" if rest > 0 else shown


# --- the session's messages --------------------------------------------------------------
SYNC = "the board and the game differ: fill the green holes, empty the red"
CLEAR_BOARD = "clear the board: empty the red holes"
IN_SYNC = "the board matches the game"
UNDER_WAY = "a move under way"
WHICH_MOVE = "which move? hint picks the next, confirm takes it"
NOTHING_TO_TAKE_BACK = "nothing to take back"
READY = "ready: the first player may start"
RECONNECTED = "the sensors answer again"
SAVED_AGAIN = "saving works again: the game is on disk"


def saving_fails(reason: str) -> str:
    return f"saving fails ({reason}); the game goes on and is saved when it can be"


def not_saved(where: str, reason: str) -> str:
    """The end of a game that is not on disk: it is lost once the program ends."""
    return (f"this game could not be saved in {where} ({reason}) and is lost when this "
            f"ends")


#: What a quarantined sensor does wrong, and what brings it back.
FAULTS = {
    "chatter": "its sensor flickers; ignored until it is quiet",
    "stuck": "a piece where none can be: take it off (or check its sensor); "
             "ignored until it reads empty",
}


def fault(hole: str, problem: str) -> str:
    return f"{hole}: {FAULTS[problem]}"


def rejoined(hole: str) -> str:
    return f"{hole}: its sensor counts again"


def correction(game: str, player: str, undo: str, move: str) -> str:
    name = game_info(game).players[player].name
    return f"{name} moved {undo} to {move}? confirm takes {move}, or put it back on {undo}"


def disconnected(reason: str) -> str:
    return f"the board's sensors are disconnected ({reason}); the game is kept"


def played(game: str, player: str, move: str) -> str:
    return f"{game_info(game).players[player].name} played {move}"


def took_back(moves: Iterable[str]) -> str:
    return "took back " + ", ".join(moves)


def wrong_colour(game: str, colour: str, turn: str, hole: str) -> str:
    players = game_info(game).players
    return (f"a {players[colour].name} piece on {hole}, but {players[turn].name} is to "
            f"move: take it off")


def away_to_move(game: str, player: str, where: str) -> str:
    return f"{game_info(game).players[player].name}'s move comes from {where}"


def place_away_move(game: str, player: str, move: str, where: str) -> str:
    return f"{game_info(game).players[player].name} plays {move} from {where}: place it there"


def away_waits(game: str, player: str, where: str) -> str:
    return (f"{game_info(game).players[player].name} plays from {where}: take the "
            f"piece off and wait for the move")


def not_your_turn(game: str, player: str) -> str:
    return f"it is not {game_info(game).players[player].name}'s move to send now"


def handed_back(game: str, player: str, where: str) -> str:
    """A seat nobody away plays any more (a browser's, after a restart), given to a
    person at the table."""
    return (f"{game_info(game).players[player].name} played from {where}: a person at "
            f"the table plays {game_info(game).players[player].name} now")


def takeback_offered_to_table(game: str, by: str) -> str:
    """A takeback a player away (``by``, their colour) asked for: nothing is taken back
    until the table accepts."""
    return (f"{game_info(game).players[by].name} asks to take back the last move: "
            f"Confirm accepts, a move declines")


def takeback_offered_to_away(game: str, away: Iterable[str]) -> str:
    """A takeback the table asked for: nothing is taken back until a player away (each
    colour of ``away``) accepts on the page."""
    names = " or ".join(game_info(game).players[c].name for c in away) or "the other side"
    return (f"the table asks to take back the last move: waiting for {names} to accept "
            f"on the web page")


def takeback_not_yours(game: str, by: str) -> str:
    """Whoever offered a takeback pressed accept: it waits for the other side."""
    who = "the table" if by == "table" else game_info(game).players[by].name
    return f"{who} asked for this takeback: it waits for the other side to accept"


# --- resigning -------------------------------------------------------------------------
def cannot_resign(game: str, colour: str, why: str) -> str:
    """A resignation refused (:meth:`app.table.session.Session.resign`), and why."""
    return f"{game_info(game).players[colour].name} cannot resign: {why}"


def no_such_player(colour: str) -> str:
    return f"no player {str(colour)[:20]!r}: b or w"


GAME_IS_OVER = "the game is over"
#: Undo (or a takeback asked for) after a resignation.
RESIGNATION_IS_FINAL = "the game ended by resignation: New game starts another"


def own_turn(game: str, turn: str) -> str:
    return (f"it is {game_info(game).players[turn].name}'s turn, and a player resigns on "
            f"their own turn")


def not_the_tables(game: str, colour: str, seat: Any) -> str:
    """The table asked to resign a colour nobody at the table plays (``seat``'s)."""
    name = game_info(game).players[colour].name
    if seat.thinks:
        return f"the engine plays {name}, and the table does not resign for it"
    return f"{name} plays from {getattr(seat, 'where', seat.called)}, and only they resign"


def only_own_player(game: str, colour: str) -> str:
    name = game_info(game).players[colour].name
    return f"only {name}'s own player away resigns for {name}"


#: What the legend calls an engine's move waiting to be placed.
ENGINES_MOVE = "Engine's move"


def own_move(game: str, colour: str) -> str:
    """What the legend calls a player's own move waiting to be placed (a player away
    chose it): ``Black's move``."""
    return f"{game_info(game).players[colour].title}'s move"


def engine_plays(move: str) -> str:
    return f"the engine plays {move}"


def place_engine_move(move: str) -> str:
    return f"the engine plays {move}: place it there"


def engine_not(expected: str, placed: str) -> str:
    return f"the engine plays {expected}, not {placed}"


def not_legal(reason: str) -> str:
    return f"not a legal move: {reason}"


def hint(move: str, sure: Sureness | None = None) -> str:
    """The hint in a line, with how sure the engine is of it (an outside program's, which
    says nothing of that: the move alone)."""
    if sure is None:
        return f"hint: {move}"
    if sure.verdict == "alike":
        return f"hint: {move} or {sure.runner_up}, {_how_sure(sure)}"
    return f"hint: {move}, {_how_sure(sure)}"


def _how_sure(sure: Sureness) -> str:
    verdict = sure.verdict
    if verdict == "random":
        return f"picked at random: level {sure.level} does not look ahead"
    if verdict == "one_ply":
        return (f"the best score one move ahead: level {sure.level} looks only one move "
                "ahead")
    if verdict == "only":
        return "the only legal move"
    if verdict == "guess":
        return (f"a guess: the search had too little time ({sure.trials:,} of the "
                f"{sure.budget:,} trial games it plays)")
    mine, theirs = _percent(sure.share), _percent(sure.runner_up_share)
    if verdict == "alike":
        return f"they look as good (they won {mine} and {theirs} of their trial games)"
    said = f"won {mine} of the engine's trial games with it"
    if verdict == "clear":
        return f"clearly best: {said}"
    return f"probably best: {said}, {sure.runner_up} next with {theirs}"


def hint_legend(sure: Sureness | None) -> str:
    """The legend's words for a lit hint: how sure, in a few words."""
    if sure is None:
        return "Hint"
    verdict = sure.verdict
    if verdict == "clear":
        return f"Hint: clearly best ({_percent(sure.share)})"
    if verdict == "probable":
        return f"Hint: probably best ({_percent(sure.share)})"
    if verdict == "alike":
        return f"Hint: one of two alike ({_percent(sure.share)}, " \
               f"{_percent(sure.runner_up_share)})"
    return {"random": "Hint: a random move", "one_ply": "Hint: best one move ahead",
            "only": "Hint: the only move", "guess": "Hint: a guess, too little time"}[verdict]


def _percent(share: float) -> str:
    return f"{round(100 * share)}%"


def new_game(game: str) -> str:
    return f"new game of {game_info(game).title}"


def resumed(name: str, moves: int) -> str:
    return f"resumed {name} at move {moves}"


def kept_own(name: str, what: str) -> str:
    return f"{name} keeps its own {what}, not the configuration's"


def not_a_candidate(move: str) -> str:
    return f"{move} is not one of the moves on the board"


# --- an outside engine (a GTP program the configuration names for a game) --------------
def outside_engine_failed(program: str, why: str) -> str:
    """The one line said when an outside engine gives up; our own engine takes over."""
    return f"the outside engine {program} stopped: {why}; our own engine plays instead"


def outside_not_started(reason: str) -> str:
    return f"it did not start ({reason})"


def outside_exited(status: int, command: str) -> str:
    if status < 0:
        try:
            how = signal.Signals(-status).name
        except ValueError:
            how = f"signal {-status}"
        return f"it was killed by {how} at {command}"
    return f"it exited with status {status} at {command}"


def outside_closed_output(command: str) -> str:
    return f"it closed its output at {command}"


def outside_no_answer(command: str, seconds: float) -> str:
    return f"no answer to {command} within {seconds:g} s"


def outside_refused(command: str, reason: str) -> str:
    return f"it refused {command} ({reason or 'no reason given'})"


def outside_not_gtp(command: str, answer: str) -> str:
    return f"its answer to {command} is not GTP: {answer!r}"


def outside_wrong_id(command: str, sent: int, got: str) -> str:
    return f"its answer to {command} has the id {got}, not {sent}"


def outside_no_move(answer: str, reason: str) -> str:
    return f"it answered {answer!r}, which is no move ({reason})"


def outside_illegal(move: str, reason: str) -> str:
    return f"it played {move}, which is not legal ({reason})"


def outside_error(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"
