"""The real serial driver end to end, against the virtual device: the firmware's logic
behind a pseudo-terminal, with line noise, unplugged and plugged in again, through the
table loop and a session, in real time."""

import os
import random
import time

import pytest

from app.games import new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.devices import open_source
from app.hardware.sensors import Scan
from app.hardware.virtual_device import Noise, VirtualDevice
from app.table.loop import Table
from app.table.session import Session
from firmware import wire

STATE = {"b": wire.OCCUPIED, "w": wire.SOUTH}


pytestmark = pytest.mark.usefixtures("no_serial_links_left")


def serial_profile(tmp_path, port):
    """The Kulami board with its sensors on a sensor board at ``port``."""
    path = tmp_path / "kulami-serial.toml"
    path.write_text(f'base = "kulami"\ndescription = "kulami over the virtual device"\n'
                    f'[sensors]\ndriver = "serial"\nport = "{port}"\ncolour = true\n'
                    f'[leds]\ndriver = "simulated"\nbrightness = 1.0\nmax_ma = 3000\n')
    return load_profile(path)


class Game:
    """A session of Kulami played on the virtual device through the table loop."""

    def __init__(self, tmp_path, device, *, debounce=0.02, settle=0.06):
        self.device = device
        self.profile = serial_profile(tmp_path, device.path)
        self.source = open_source(self.profile)
        self.session = Session(new_game("kulami", layout="square-1"),
                               seats={"b": "person", "w": "person"}, debounce=debounce,
                               settle=settle, colour_sensing=True)
        self.table = Table(self.session, self.profile, SimulatedStrip(self.profile.led_count),
                           self.source)

    def turn_until(self, done, timeout=5.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.table.turn(time.monotonic())
            if done():
                return True
            time.sleep(0.002)
        return False

    def put(self, hole, state):
        """A hand putting a piece down (or lifting it): a bounce, then it stays."""
        channel = self.profile.holes[hole].channel
        for level in (state, 0, state):
            self.device.set(channel, level)
            time.sleep(0.003)

    def played(self):
        return [self.session.board.move_text(m) for m in self.session.board.move_stack]

    def close(self):
        self.source.close()


def reported(device, channel, state, timeout=5.0):
    """Wait until the virtual device has reported ``channel`` in ``state`` (seen, and
    held for its debounce): on a busy machine its thread may scan late."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if device.device.stable[channel] == state:
            return True
        time.sleep(0.001)
    return False


def moves_of_a_game(seed):
    """A whole random game of Kulami: each move with the holes it fills, by colour."""
    board = new_game("kulami", layout="square-1")
    rng = random.Random(seed)
    moves = []
    while board.outcome() is None:
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        before = board.sensor_view()
        text = board.move_text(move)
        board.push(move)
        after = board.sensor_view()
        moves.append((text, {h: c for h, c in after.items() if before.get(h) != c}))
    return moves


def test_a_whole_game_over_a_noisy_line_ends_in_exactly_the_moves_played(tmp_path):
    out = Noise(drop=0.002, corrupt=0.002, duplicate=0.002, seed=7)
    into = Noise(drop=0.001, corrupt=0.001, duplicate=0.001, seed=8)
    with VirtualDevice(10, 10, noise=out, noise_in=into, folder=tmp_path) as device:
        game = Game(tmp_path, device)
        moves = moves_of_a_game(seed=3)
        assert len(moves) > 40
        for count, (text, placed) in enumerate(moves, 1):
            for hole, colour in placed.items():
                game.put(hole, STATE[colour])
            assert game.turn_until(lambda: len(game.played()) >= count), \
                f"move {count} ({text}) not read; the board played {game.played()}"
        game.turn_until(lambda: False, timeout=0.3)  # nothing more comes
        assert game.played() == [text for text, _ in moves]
        assert game.session.board.outcome() is not None
        link = game.source.link
        damaged = link.decoder.drops + link.decoder.gaps
        assert out.damaged > 0 and damaged > 0, "the line was noisy"
        game.close()


def test_unplugged_and_plugged_in_again_through_the_pseudo_terminal(tmp_path):
    with VirtualDevice(10, 10, folder=tmp_path) as device:
        game = Game(tmp_path, device)
        moves = moves_of_a_game(seed=5)
        (first, placed1), (second, placed2) = moves[:2]
        for hole, colour in placed1.items():
            game.put(hole, STATE[colour])
        assert game.turn_until(lambda: game.played() == [first])
        device.unplug()
        assert game.turn_until(lambda: game.session.disconnected)
        assert "disconnected" in game.session.status().message
        assert not os.path.lexists(device.path)  # its name goes with it, as udev's does
        # while it is away, the next move is made on the board, and another board comes
        # up on the machine: the terminal the kernel gives it may have the number this
        # one had, and it is not taken for this one
        (tmp_path / "other").mkdir()
        with VirtualDevice(10, 10, folder=tmp_path / "other") as other:
            for hole, colour in placed2.items():
                game.put(hole, STATE[colour])
            game.turn_until(lambda: False, timeout=0.5)
            assert game.played() == [first] and game.session.disconnected
            assert other.device.decoder.frames == 0  # the host never spoke to it
        device.replug()
        assert game.turn_until(lambda: not game.session.disconnected, timeout=8)
        assert game.turn_until(lambda: game.played() == [first, second])
        assert device.resets == 2 and game.source.link.reconnects >= 1
        game.close()


def test_a_profile_whose_board_drives_the_leds_lights_them_over_the_same_port(tmp_path):
    """`leds.driver = "serial"`: open_strip gives a strip that sends LEDS frames down the
    sensor board's own link, and the board's chain shows them (G, R, B)."""
    from app.hardware.devices import open_strip
    from app.hardware.profile import ProfileError

    with VirtualDevice(10, 10, leds=100, folder=tmp_path) as device:
        path = tmp_path / "kulami-board-leds.toml"
        path.write_text(f'base = "kulami"\n[sensors]\ndriver = "serial"\n'
                        f'port = "{device.path}"\ncolour = true\n'
                        f'[leds]\ndriver = "serial"\nbrightness = 1.0\nmax_ma = 6000\n')
        profile = load_profile(path)
        source = open_source(profile)
        strip = open_strip(profile)
        assert strip.link is source.link  # one port for both
        strip.show([(255, 255, 255)] * 99 + [(0, 0, 255)])

        def shown():
            # The device writes a frame into the chain and shows it later in its turn:
            # a busy machine may stop its thread in between.
            return bytes(device.leds.buf[-3:]) == bytes([0, 0, 255]) and device.leds.shown

        end = time.monotonic() + 5
        while time.monotonic() < end and not shown():
            source.read()
            time.sleep(0.005)
        assert shown()
        strip.close()
        source.close()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('base = "kulami"\n[leds]\ndriver = "serial"\nbrightness = 1.0\n'
                     'max_ma = 6000\n')
    with pytest.raises(ProfileError, match=r"leds.driver: serial LEDs are driven by the "
                                           r"sensor board"):
        load_profile(wrong)


def test_the_pipeline_gets_the_time_the_device_saw_each_change(tmp_path):
    """The table loop stamps a sensor board's readings with the host time the device
    first saw each change, not the time of the loop's turn, and in the order they
    happened; a source without times is stamped with the turn's time as before."""
    from app.hardware.serial_board import TimedScan
    with VirtualDevice(10, 10, folder=tmp_path) as device:
        game = Game(tmp_path, device)
        fed = []
        real = game.session.on_reading
        game.session.on_reading = lambda hole, on, t, colour=None: (
            fed.append((hole, on, t, colour)), real(hole, on, t, colour))[1]
        game.turn_until(lambda: False, timeout=0.1)
        holes = [game.profile.channels()[33], game.profile.channels()[34]]
        put_at = time.monotonic()
        device.set(34, wire.OCCUPIED)
        assert reported(device, 34, wire.OCCUPIED)
        time.sleep(0.05)
        device.set(33, wire.SOUTH)
        assert reported(device, 33, wire.SOUTH)
        time.sleep(0.3)  # the loop does not turn meanwhile
        turned_at = time.monotonic()
        game.table.turn(turned_at)
        assert [(h, on, c) for h, on, _, c in fed] == [(holes[1], True, "b"),
                                                       (holes[0], True, "w")]
        first, second = fed[0][2], fed[1][2]
        # When the device first saw each, by its own clock: a busy machine may let its
        # thread scan late, and the stamps are still those moments, that far apart.
        seen_apart = (device.device.since[33] - device.device.since[34]) / 1000
        # (Within 20 ms: the host learns the device's clock from its quickest frame so
        # far, and a busy machine may have delivered the first frame some ms late.)
        assert seen_apart > 0.04 and abs((second - first) - seen_apart) < 0.02
        assert put_at - 0.005 <= first and second < turned_at - 0.2
        game.close()

    class Source:
        def __init__(self, scan):
            self.scan = scan

        def read(self):
            return self.scan

    profile = serial_profile(tmp_path, "unused")
    session = Session(new_game("kulami", layout="square-1"), colour_sensing=True)
    fed = []
    session.on_reading = lambda hole, on, t, colour=None: fed.append((hole, t))
    hole = profile.channels()[0]
    source = Source(None)
    table = Table(session, profile, SimulatedStrip(profile.led_count), source)
    for scan, expected in ((TimedScan({hole: True}, {hole: "b"}, {hole: 50.0}), 50.0),
                           (TimedScan({hole: False}, {}, {hole: 120.0}), 100.0),
                           (Scan({hole: True}, {hole: "b"}), 100.0)):
        source.scan = scan
        table.sense(100.0)
        assert fed.pop() == (hole, expected)  # never later than the turn
