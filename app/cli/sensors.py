"""``tabletop sensors record|replay``: capture raw sensor readings, and replay them.

``record PROFILE`` scans the board a profile describes and writes a sensor log; with a
simulated profile, ``--play SEED`` has a scripted hand play a seeded random game with
realistic noise instead; ``--port PATH`` records any sensor board speaking the wire
protocol on that port (hardware/protocol.md), the profile naming its channels' holes. ``replay LOG`` runs a log through the board's own session
headless and prints one JSON line per thing the board did (moves, takebacks,
corrections, sync mode, quarantined sensors), with the holes lit by role.
"""

from __future__ import annotations

import json
import random
import sys
import time
from contextlib import nullcontext

from app.cli import per_second, seconds
from app.errors import describe
from app.hardware.profile import ProfileError, load_profile
from app.hardware.devices import open_source
from app.hardware.sensors import SimulatedSensors
from app.sensing.inference import Inference
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S
from app.sensing.script import Hand
from app.table.sensorlog import Header, LogWriter, Reading, SensorLogError, read_log
from app.table.replay import replay
from app.games import new_game
from engines import EngineError


def register(subparsers) -> None:
    parser = subparsers.add_parser("sensors", help="record and replay raw sensor logs")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    record = actions.add_parser("record", help="write raw readings as JSON lines")
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

    play = actions.add_parser("replay", help="feed a log through the pipeline, print events")
    play.add_argument("log", help="a log written by 'tabletop sensors record'")
    play.add_argument("--profile", help="the board's profile (name or .toml path) when it "
                                        "is a maker's own, not the shipped one the log names")
    play.add_argument("--debounce", type=seconds, default=DEBOUNCE_S, metavar="SECONDS",
                      help=f"seconds a reading must hold (default {DEBOUNCE_S:g})")
    play.add_argument("--settle", type=seconds, default=SETTLE_S, metavar="SECONDS",
                      help=f"seconds of quiet before a move is read (default {SETTLE_S:g})")
    play.set_defaults(run=run_replay)



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
    from dataclasses import replace
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
    for touch in hand.touches:
        if touch.on:
            sensors.place(touch.hole, touch.colour)
        else:
            sensors.lift(touch.hole)
        writer.scan(touch.t, sensors.read())


def scan_until(source, writer: LogWriter, seconds: float | None, period: float) -> None:
    start = time.monotonic()
    while seconds is None or time.monotonic() - start < seconds:
        writer.scan(time.monotonic() - start, source.read())
        writer.stream.flush()
        time.sleep(period)


def run_replay(args) -> int:
    profile = load_profile(args.profile) if args.profile else None
    try:
        with open(args.log, "rb") as stream:
            header, readings = read_log(stream, profile)
        for record in replay(header, readings, debounce=args.debounce, settle=args.settle):
            print(json.dumps(record))
    except BrokenPipeError:
        raise  # the reader stopped reading our output: app.cli.main ends quietly
    except (OSError, SensorLogError, EngineError) as error:
        raise SensorLogError(f"{args.log}: {describe(error)}") from error
    return 0
