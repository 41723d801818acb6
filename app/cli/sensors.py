"""``tabletop sensors record|replay|calibrate``: capture raw sensor readings, replay
them, and calibrate a board of hall sensors.

``record PROFILE`` scans the board a profile describes and writes a sensor log; with a
simulated profile, ``--play SEED`` has a scripted hand play a seeded random game with
realistic noise instead; ``--port PATH`` records any sensor board speaking the wire
protocol on that port (hardware/protocol.md), the profile naming its channels' holes.
``replay LOG`` runs a log through the board's own session headless and prints one JSON
line per thing the board did (moves, takebacks, corrections, sync mode, quarantined
sensors), with the holes lit by role. ``calibrate PROFILE`` walks a maker through
readings of a hole of a hall-sensor board (empty, a piece of each colour on it, a
neighbour's piece of each colour beside it), proposes the thresholds that tell them
apart (:func:`propose`) and writes them into a copy of the profile, which the serial
driver then sends to the sensor board.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from statistics import median_low

from app.cli import number_type, per_second, seconds
from app.errors import CalibrationError, describe
from app.hardware.profile import (MEASURED_KEYS, PROFILE_DIR, READING_MAX, HallReadings,
                                  HallThresholds, Profile, ProfileError, load_profile,
                                  with_thresholds)
from app.hardware.devices import open_source
from app.hardware.sensors import SimulatedSensors
from app.sensing.inference import Inference
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S
from app.sensing.script import Hand
from app.table.sensorlog import Header, LogWriter, Reading, SensorLogError, read_log_file
from app.table.replay import replay
from app.games import GAMES, new_game
from app.textfile import read_text
from engines import EngineError
from firmware.tt_hw import RAIL


def register(subparsers) -> None:
    parser = subparsers.add_parser("sensors", help="record and replay raw sensor logs")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    record = actions.add_parser(
        "record", help="write raw readings as JSON lines",
        description="Record what a board's sensors say, one JSON line per change of a "
                    "hole after a header line, for 'tabletop sensors replay' to play "
                    "back at a desk.")
    record.add_argument("profile", help="profile name (shipped) or .toml path")
    record.add_argument("options", nargs="*", metavar="key=value", help="game options")
    record.add_argument("--out", help="log file (default: standard output)")
    record.add_argument("--seconds", type=seconds,
                        help="stop after this long (default: Ctrl-C)")
    record.add_argument("--scan-hz", type=per_second, default=200.0,
                        help="scans per second, above 0 (default 200)")
    record.add_argument("--play", type=int, metavar="SEED",
                        help="simulated profiles: a scripted hand plays a seeded random game")
    record.add_argument("--port", metavar="PATH",
                        help="record the sensor board on this port (a path, auto, "
                             "usb:VID:PID or a pyserial URL), whatever the profile's driver")
    record.set_defaults(run=run_record)

    play = actions.add_parser(
        "replay", help="feed a log through the pipeline, print events",
        description="Play a sensor log through the same debouncing and move reading a "
                    "board uses, and print what it makes of it: moves, lifts, what to "
                    "fix.")
    play.add_argument("log", help="a log written by 'tabletop sensors record'")
    play.add_argument("--profile", help="the board's profile (name or .toml path) when it "
                                        "is a maker's own, not the shipped one the log names")
    play.add_argument("--debounce", type=seconds, default=DEBOUNCE_S, metavar="SECONDS",
                      help=f"seconds a reading must hold (default {DEBOUNCE_S:g})")
    play.add_argument("--settle", type=seconds, default=SETTLE_S, metavar="SECONDS",
                      help=f"seconds of quiet before a move is read (default {SETTLE_S:g})")
    play.set_defaults(run=run_replay)

    calibrate = actions.add_parser(
        "calibrate", help="measure a hall-sensor board and write its thresholds into a "
                          "copy of its profile",
        description="Measure a hall-sensor board: you are asked to put each player's "
                    "piece in a hole and beside it, the sensors are read, and the "
                    "thresholds that tell the pieces apart are written into a copy of "
                    "the profile.")
    calibrate.add_argument("profile", help="profile name (shipped) or .toml path")
    calibrate.add_argument("holes", nargs="*", metavar="HOLE[:NEIGHBOUR]",
                           help="the holes to measure, each with the hole beside it "
                                "(default: the first hole with the most neighbours, and "
                                "its first neighbour)")
    calibrate.add_argument("--readings", type=reading_count, default=READINGS,
                           metavar="N", help=f"raw readings each time, 1 to 1000 "
                                             f"(default {READINGS})")
    calibrate.add_argument("--out", metavar="PATH",
                           help="the calibrated copy, a .toml file (default: "
                                "PROFILE-calibrated.toml, beside a profile file or in "
                                "the current folder for a shipped one)")
    calibrate.add_argument("--port", metavar="PATH",
                           help="the sensor board's port, if not the profile's (a path, "
                                "auto, usb:VID:PID or a pyserial URL)")
    calibrate.set_defaults(run=run_calibrate)


def run_record(args) -> int:
    """Profile, game and sensors are all opened before the log file, so a mistake in
    any of them leaves an existing file untouched."""
    from app.cli import split_options
    profile = load_profile(args.profile)
    options = split_options(args.options)
    board = new_game(profile.game, **options)
    header = Header(profile.game, options, profile.name, profile.sensors.colour)
    if args.play is not None and profile.sensors.driver != "simulated":
        raise ProfileError("--play needs a simulated profile")
    if args.port is not None:
        if args.play is not None:
            raise ProfileError("--play and --port: a scripted hand plays simulated "
                               "sensors, not a sensor board")
        return record_port(args, profile, header)
    with (open_source(profile) if args.play is None else nullcontext()) as source:
        try:
            out = open(args.out, "w", encoding="utf-8") if args.out else nullcontext(sys.stdout)
        except OSError as error:
            raise SensorLogError(f"{args.out}: cannot write: {error.strerror}") from error
        with out as stream:
            writer = LogWriter(stream, header, profile)
            if args.play is not None:
                play_scripted(board, profile, writer, args.play)
                return 0
            try:
                scan_until(source, writer, args.seconds, 1 / args.scan_hz)
            except KeyboardInterrupt:
                pass  # Ctrl-C is how a recording without --seconds ends
    return 0


def record_port(args, profile, header: Header) -> int:
    """Record what the device on ``--port`` reports, each change at the host time the
    device first saw it (seconds from the start), until Ctrl-C or ``--seconds``.

    Channels the profile maps are readings of their holes, with their channel; a
    channel the profile does not map is said on stderr (a log names holes, so that it
    replays), and so is a disconnection, after which recording goes on."""
    from app.errors import DisconnectError
    from app.hardware.serial_board import SerialSensors, open_link
    profile = replace(profile, sensors=replace(profile.sensors, driver="serial",
                                               port=args.port))
    label = f"sensor board on {args.port}"
    link = open_link(profile)
    link.label = label
    rows, cols = link.hello[:2]
    mapped = profile.channels()
    channels = {**{ch: f"#{ch}" for ch in range(rows * cols)}, **mapped}
    # (a board that cannot sense colour for a profile that does is refused, link released)
    source = SerialSensors(link, channels, colour=profile.sensors.colour, label=label)
    try:
        try:
            out = open(args.out, "w", encoding="utf-8") if args.out else nullcontext(sys.stdout)
        except OSError as error:
            raise SensorLogError(f"{args.out}: cannot write: {error.strerror}") from error
        with out as stream:
            stream.write(header.to_json() + "\n")
            start, last, away = time.monotonic(), 0.0, False
            end = None if args.seconds is None else start + args.seconds
            try:
                while end is None or time.monotonic() < end:
                    try:
                        source.read()
                    except DisconnectError as error:
                        if not away:
                            print(f"tabletop sensors: {error}", file=sys.stderr, flush=True)
                        away = True
                    else:
                        away = False
                    for t, hole, on, colour in source.drain():
                        last = max(last, round(t - start, 4))
                        if hole in profile.holes:
                            stream.write(Reading(last, hole, on, profile.holes[hole].channel,
                                                 colour).to_json() + "\n")
                        else:
                            print(f"tabletop sensors: at {last:g} s channel {hole[1:]} "
                                  f"(no hole of {profile.name}) went {'on' if on else 'off'}",
                                  file=sys.stderr, flush=True)
                    stream.flush()
                    time.sleep(1 / args.scan_hz)
            except KeyboardInterrupt:
                pass  # Ctrl-C is how a recording without --seconds ends
    finally:
        source.close()
    return 0


#: Moves a scripted game makes at most (an Akron game at random may wander for ever).
SCRIPTED_MOVES = 300


def play_scripted(board, profile, writer: LogWriter, seed: int) -> None:
    """A seeded random game acted out by a scripted hand on simulated sensors: each move
    one the sensors read by themselves, since nobody is there to confirm one."""
    rng = random.Random(seed)
    moves, probe = [], board.copy()
    while not probe.is_game_over() and len(moves) < SCRIPTED_MOVES:
        readable = Inference(probe, colour_sensing=profile.sensors.colour).readable_moves()
        if not readable:
            break
        moves.append(rng.choice(readable))
        probe.push(moves[-1])
    sensors = SimulatedSensors(profile.holes, colour_sensing=profile.sensors.colour)
    hand = Hand(sensors.holes, rng)
    hand.play(board, moves)
    for reading in hand.readings:
        if reading.on:
            sensors.place(reading.hole, reading.colour)
        else:
            sensors.lift(reading.hole)
        writer.scan(reading.t, sensors.read())


def scan_until(source, writer: LogWriter, seconds: float | None, period: float) -> None:
    start = time.monotonic()
    while seconds is None or time.monotonic() - start < seconds:
        writer.scan(time.monotonic() - start, source.read())
        writer.stream.flush()
        time.sleep(period)


def run_replay(args) -> int:
    profile = load_profile(args.profile) if args.profile else None
    header, readings = read_log_file(args.log, profile)  # each error one line, its path
    try:
        for record in replay(header, readings, debounce=args.debounce, settle=args.settle):
            print(json.dumps(record))
    except BrokenPipeError:
        raise  # the reader stopped reading our output: app.cli.main ends quietly
    except (SensorLogError, EngineError) as error:
        raise SensorLogError(f"{args.log}: {describe(error)}") from error
    return 0


# --- calibrate ----------------------------------------------------------------------------

#: Raw readings taken of a hole in each situation by default, and the pause between two
#: (a sensor's noise is fast; a hand still moving away is not, and the maker has
#: pressed Enter by then).
READINGS = 8
READ_GAP_S = 0.02


#: How many readings each time (``calibrate --readings``).
reading_count = number_type("a number of readings", "1 to 1000", lambda n: 1 <= n <= 1000,
                            int)


#: Each situation a hole is measured in: the key its readings are kept under (the
#: profile's measured readings), what the maker is asked to do, and what the readings
#: are of. ``{hole}``, ``{near}``, ``{first}``, ``{second}`` are filled in (the pieces,
#: with their magnets' poles where the maker is asked to put one down).
STEPS = (
    ("empty", "take every piece off {hole} and {near}", "empty"),
    ("first_piece", "put {first} on {hole}", "with {first}"),
    ("second_piece", "take it off and put {second} on {hole}", "with {second}"),
    ("first_beside", "take it off {hole} and put {first} on {near}", "beside {first}"),
    ("second_beside", "take it off {near} and put {second} there", "beside {second}"),
)


def run_calibrate(args) -> int:
    """Everything that can be found wrong without the board (the profile, the holes,
    the copy's place) is, before the maker is asked to put down a single piece; and
    nothing is written until every reading is in and the thresholds are proposed."""
    from app.hardware.serial_board import open_link, release
    from firmware import wire
    profile = load_profile(args.profile)
    sensors = profile.sensors
    if sensors.driver != "serial" or not sensors.colour:
        raise CalibrationError(
            f"profile {profile.name}: not a board of hall sensors: calibrate needs a "
            f"sensor board (sensors.driver = \"serial\") that senses colour (colour = "
            f"true); this one's sensors are {sensors.driver}"
            f"{'' if sensors.colour else ', colour-blind'}")
    pairs = calibration_holes(profile, args.holes)
    out = calibrated_path(profile, args.out)
    pieces = player_pieces(profile)
    board = profile if args.port is None else replace(
        profile, sensors=replace(sensors, port=args.port))
    link = open_link(board)
    try:
        if not link.hello[2] & wire.FLAG_POLARITY:
            raise CalibrationError(f"the sensor board on {link.path} does not sense "
                                   f"polarity: it is no board of hall sensors")
        rows, cols, _, version = link.hello
        print(f"Calibrating the hall sensors of profile {profile.name} on {link.path} "
              f"({version or 'a sensor board'}, {rows} x {cols} channels): "
              f"{args.readings} readings each time.\nPress Enter after each step; Ctrl-C "
              f"stops, and nothing is written before the end.", flush=True)
        readings = measure(link, profile, pairs, pieces, args.readings)
    finally:
        release(link)
    crowd = max(map(len, profile.neighbours().values()), default=0) or 1
    thresholds, lines = propose(readings, crowd, (pieces[0][0], pieces[1][0]))
    for line in lines:
        print(line)
    holes = ", ".join(f"{hole} (beside {near})" for hole, near in pairs)
    write_calibrated(profile, out, thresholds,
                     f"Written by tabletop sensors calibrate from {args.readings} readings "
                     f"each of {holes}:\nthresholds midway between what pieces and empty "
                     f"holes read, as hardware/README.md explains.")
    print(f"Wrote {out}. Play with it: tabletop run --profile {out} (the Pi sends the "
          f"thresholds to the sensor board whenever it connects).")
    return 0


def calibration_holes(profile: Profile, specs: list[str]) -> list[tuple[str, str]]:
    """``(hole, neighbour)`` for each ``HOLE[:NEIGHBOUR]`` given; a hole alone goes with
    its first neighbour on the grid. With none given, the first hole (in channel order)
    of those with the most neighbours: a hole amid others, as most are."""
    neighbours = profile.neighbours()
    if not specs:
        channel = {name: hole.channel for name, hole in profile.holes.items()}
        specs = [max(profile.holes, key=lambda h: (len(neighbours[h]), -channel[h]))]
    pairs = []
    for spec in specs:
        hole, _, near = spec.partition(":")
        for name in (hole, near) if near else (hole,):
            if name not in profile.holes:
                raise CalibrationError(f"profile {profile.name} has no hole {name!r}")
        if not near:
            if not neighbours[hole]:
                raise CalibrationError(f"{hole} has no neighbour on a grid: name the hole "
                                       f"beside it, as {hole}:HOLE")
            near = neighbours[hole][0]
        if near == hole:
            raise CalibrationError(f"{spec}: a hole's neighbour is another hole")
        if hole in dict(pairs):
            raise CalibrationError(f"{hole} is named twice")
        pairs.append((hole, near))
    return pairs


def calibrated_path(profile: Profile, out: str | None) -> Path:
    """Where the copy goes, checked now so that a long calibration is never lost to a
    folder that is not there: never the profile itself, never among the shipped ones."""
    source = Path(str(profile.path)).resolve()
    shipped = Path(str(PROFILE_DIR)).resolve()
    if out is None:
        folder = Path.cwd() if source.parent == shipped else source.parent
        path = folder / f"{profile.name}-calibrated.toml"
    else:
        path = Path(out)
    if path.suffix != ".toml":
        raise CalibrationError(f"--out {out}: a profile is a .toml file")
    full = path.resolve()
    if full == source:
        raise CalibrationError(f"{path}: that is the profile being calibrated; its copy "
                               f"goes elsewhere (--out)")
    if full.parent == shipped:
        raise CalibrationError(f"{path}: the shipped profiles stay as they are; write the "
                               f"copy elsewhere (--out)")
    if not full.parent.is_dir():
        raise CalibrationError(f"{path}: cannot write: no folder {full.parent}")
    if full.is_dir() or not os.access(full if full.exists() else full.parent, os.W_OK):
        raise CalibrationError(f"{path}: cannot write: "
                               f"{'a folder' if full.is_dir() else 'permission denied'}")
    return path


def player_pieces(profile: Profile) -> tuple[tuple[str, str], tuple[str, str]]:
    """Each player's piece in words, short (``a purple piece``) and as the maker is
    asked to put one down: with the pole its magnet has down, as the build guides glue
    them (a calibration finds out which way they really read)."""
    info = GAMES.get(profile.game.lower())
    pieces = []
    for player, which, pole in (("b", "first", "north"), ("w", "second", "south")):
        if info is None:
            short, whose = f"a {which} player's piece", ""
        else:
            name = info.players[player].name
            short = f"{'an' if name[0] in 'aeiou' else 'a'} {name} piece"
            whose = f"the {which} player's, "
        pieces.append((short, f"{short} ({whose}magnet {pole} pole down)"))
    return pieces[0], pieces[1]


def measure(link, profile: Profile, pairs: list[tuple[str, str]],
            pieces: tuple[tuple[str, str], tuple[str, str]],
            count: int) -> dict[str, dict[str, list[int]]]:
    """Each hole's readings in each situation (:data:`STEPS`): the maker is asked on
    standard output and answers with Enter on standard input."""
    readings: dict[str, dict[str, list[int]]] = {}
    total = len(pairs) * len(STEPS)
    for number, (hole, near) in enumerate(pairs):
        channel = profile.holes[hole].channel
        taken = readings[hole] = {}
        for step, (key, ask, what) in enumerate(STEPS, number * len(STEPS) + 1):
            task = ask.format(hole=hole, near=near, first=pieces[0][1], second=pieces[1][1])
            print(f"{step}/{total}: {task}, then press Enter.", flush=True)
            if not sys.stdin.readline():
                raise CalibrationError(f"standard input ended at step {step} of {total}: "
                                       f"nothing written")
            values = []
            for i in range(count):
                if i:
                    time.sleep(READ_GAP_S)
                values.append(link.read_raw([channel])[0])
            taken[key] = values
            label = what.format(first=pieces[0][0], second=pieces[1][0])
            print(f"    {hole} {label}: median {median_low(values)} ({min(values)} to "
                  f"{max(values)})", flush=True)
        print(f"Take the piece off {near}.", flush=True)
    return readings


def propose(readings: dict[str, dict[str, list[int]]], crowd: int,
            names: tuple[str, str]) -> tuple[HallThresholds, list[str]]:
    """Thresholds that read every measured situation right, and lines that say so.

    The rule: the readings fall in three clusters, the pieces of one player, empty
    holes (alone, and beside a neighbour's piece of either player) and the pieces of
    the other. Which player's are below the empty holes and which above is measured,
    not assumed (magnets glued the other way round read the other way round). A
    neighbour's piece moves a hole's reading; a hole may have ``crowd`` neighbours (the
    most any hole of the board has) all with a piece, so every cluster is widened, both
    ways, by ``crowd`` times the largest move a neighbour's piece made (diagonal
    neighbours, further away, are left out). Each threshold goes midway between the
    clusters on either side of it, so that it has the same margin both ways. Where two
    clusters touch or overlap, no threshold reads both right and nothing is proposed:
    the line says which, and what to look at. A reading within the firmware's rail of
    either end of the range is refused too: the firmware reads it as a dead sensor."""
    labels = {"empty": "an empty hole", "first_piece": names[0], "second_piece": names[1],
              "first_beside": f"an empty hole beside {names[0]}",
              "second_beside": f"an empty hole beside {names[1]}"}
    for hole, taken in readings.items():
        for key, values in taken.items():
            worst = max(values, key=lambda v: abs(v - READING_MAX / 2))
            if not RAIL <= worst <= READING_MAX - RAIL:
                raise CalibrationError(
                    f"{hole}, {labels[key]}, read {worst}, within {RAIL} of the end of the "
                    f"range, where the firmware reads a dead sensor: check its wiring (or "
                    f"its magnet is so close it saturates the sensor)")
    pooled = {key: [v for taken in readings.values() for v in taken[key]]
              for key in MEASURED_KEYS}
    medians = {key: median_low(values) for key, values in pooled.items()}
    # A piece that reads as an empty hole reads neither below nor above it: no magnet was
    # sensed (none in the piece, the piece off its sensor, a sensor that does not sense),
    # which no turning of the magnets mends.
    quiet = (min(pooled["empty"]), max(pooled["empty"]))
    unsensed = [key for key in ("first_piece", "second_piece")
                if quiet[0] <= medians[key] <= quiet[1]]
    if unsensed:
        raise CalibrationError(
            f"{' and '.join(labels[key] for key in unsensed)} read"
            f"{'s' if len(unsensed) == 1 else ''} as an empty hole does "
            f"({', '.join(str(medians[key]) for key in unsensed)}; empty {quiet[0]} to "
            f"{quiet[1]}): no magnet was sensed. Check that the piece has its magnet and "
            f"sits over the sensor, and the sensor's wiring and supply")
    first_low = medians["first_piece"] < medians["empty"]
    if first_low == (medians["second_piece"] < medians["empty"]):
        raise CalibrationError(
            f"{labels['first_piece']} and {labels['second_piece']} both read "
            f"{'below' if first_low else 'above'} an empty hole ({medians['first_piece']}, "
            f"{medians['second_piece']}, empty {medians['empty']}): one player's magnets "
            f"must face the other way (the build guide says which pole goes down)")
    moves = [median_low(taken[key]) - median_low(taken["empty"])
             for taken in readings.values() for key in ("first_beside", "second_beside")]
    down, up = crowd * min(0, *moves), crowd * max(0, *moves)

    def cluster(*keys: str) -> tuple[int, int]:
        values = [v for key in keys for v in pooled[key]]
        return min(values) + down, max(values) + up

    low_key, high_key = (("first_piece", "second_piece") if first_low
                         else ("second_piece", "first_piece"))
    below, empty, above = (cluster(low_key), cluster("empty", "first_beside", "second_beside"),
                           cluster(high_key))
    for lower, upper, (a, b) in ((labels[low_key], "an empty hole", (below, empty)),
                                 ("an empty hole", labels[high_key], (empty, above))):
        if b[0] - a[1] < 1:
            raise CalibrationError(
                f"{lower} and {upper} read alike: {lower} up to {a[1]}, {upper} down to "
                f"{b[0]}, counting {crowd} neighbours' pieces (which move a reading by "
                f"{down} to +{up}): no threshold tells them apart. Check the sensor's "
                f"wiring and the magnets; if neighbours move a reading that much, the "
                f"magnets are too strong or too near the sensors")
    low = below[1] + (empty[0] - below[1] + 1) // 2
    high = empty[1] + (above[0] - empty[1]) // 2
    thresholds = HallThresholds(low, high, "low" if first_low else "high",
                                HallReadings(*(medians[key] for key in MEASURED_KEYS)))
    spread = max(max(values) - min(values) for taken in readings.values()
                 for values in taken.values())
    margin = min(low - below[1], empty[0] - low, high - empty[1], above[0] - high)
    lines = [f"Proposed: below {low} {labels[low_key]}, above {high} {labels[high_key]}, "
             f"in between an empty hole.",
             f"    {labels[low_key]} reads {below[0]} to {below[1]}, an empty hole "
             f"{empty[0]} to {empty[1]}, {labels[high_key]} {above[0]} to {above[1]}, "
             f"counting what {crowd} neighbours' pieces can add ({down} to +{up}); each "
             f"threshold is midway between.",
             f"    margin: at least {margin} either side of each threshold; one hole's "
             f"readings in one place varied by up to {spread}."]
    if margin <= spread:
        lines.append("    The margin is no wider than the readings' own noise: expect "
                     "misreads. Steadier power for the sensors, or magnets nearer them, "
                     "widen it.")
    return thresholds, lines


def write_calibrated(profile: Profile, path: Path, thresholds: HallThresholds,
                     comment: str) -> None:
    """The profile's own text with the thresholds, written beside ``path`` first and
    loaded back, then put in its place: a copy that would not load (a profile that
    gives its thresholds inline, which a table cannot replace) is never left there."""
    text = with_thresholds(read_text(profile.path, ProfileError), profile.sensors,
                           thresholds, comment)
    folder = path.resolve().parent
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder,
                                         prefix=".calibrating-", suffix=".toml",
                                         delete=False) as stream:
            temporary = stream.name
            stream.write(text)
        try:
            load_profile(temporary)
        except ProfileError as error:
            raise CalibrationError(f"{path}: the copy of {profile.name} would not load: "
                                   f"{describe(error)}") from error
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise CalibrationError(f"{path}: cannot write: {error.strerror}") from error
    finally:
        if temporary is not None:
            os.unlink(temporary)
