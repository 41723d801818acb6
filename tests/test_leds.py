"""LED strips: every frame goes through the gamma table, the current cap holds for every
frame, brightness and chain order reach the wire, and both NeoPixel drivers run their
real library code with the hardware faked."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.hardware.devices import open_strip
from app.hardware.leds import (GAMMA_TABLE, NeoPixelSpiStrip, NeoPixelStrip, SimulatedStrip,
                               cap_frame, frame_ma, gamma_frame)
from app.hardware.profile import load_profile

WHITE, RED = (255, 255, 255), (255, 0, 0)
colours = st.tuples(*[st.integers(0, 255)] * 3)


def test_a_full_white_led_draws_60_ma():
    assert frame_ma([WHITE]) == 60
    assert frame_ma([RED, (0, 0, 0)]) == 20


def test_a_frame_within_the_budget_is_unchanged():
    assert cap_frame([WHITE, RED], max_ma=80) == [WHITE, RED]


def test_a_frame_over_the_budget_is_dimmed_evenly_to_fit():
    frame = [WHITE] * 100  # 6 A asked of a 2.5 A supply
    capped = cap_frame(frame, max_ma=2500)
    assert frame_ma(capped) <= 2500
    assert capped[0] == (106, 106, 106)  # 255 * 2500 / 6000, rounded down
    assert frame_ma(capped) > 2500 - 100 * 3 * 20 / 255  # no more than rounding lost


@given(st.lists(colours, min_size=1, max_size=60), st.integers(1, 4000))
def test_no_capped_frame_exceeds_its_budget_or_brightens_a_channel(frame, max_ma):
    capped = cap_frame(frame, max_ma)
    assert frame_ma(capped) <= max_ma
    assert all(c <= o for new, old in zip(capped, frame) for c, o in zip(new, old))


@given(st.lists(colours, min_size=1, max_size=30), st.integers(1, 2000))
def test_capping_keeps_the_order_of_channel_values(frame, max_ma):
    capped = cap_frame(frame, max_ma)
    for new, old in zip(capped, frame):
        for i in range(3):
            for j in range(3):
                if old[i] <= old[j]:
                    assert new[i] <= new[j]


def gamma(value: float) -> int:
    """The gamma curve, worked out again here: the light a value should give."""
    return round(255 * (value / 255) ** 2.8)


def test_a_strip_applies_gamma_then_brightness_then_the_cap_and_records_frames():
    strip = SimulatedStrip(2, brightness=0.5, max_ma=30)
    strip.show([WHITE, (0, 0, 0)])  # 127 per channel: 29.9 mA, within 30
    assert strip.frames[-1] == [(127, 127, 127), (0, 0, 0)]
    strip.show([(128, 64, 32), (0, 0, 0)])
    assert strip.frames[-1][0] == tuple(int(gamma(c) * 0.5) for c in (128, 64, 32)) \
        == (18, 2, 0)
    assert strip.lit[0] == tuple(round(c * 0.5 ** (1 / 2.8)) for c in (128, 64, 32))
    strip.show([WHITE, WHITE])  # 59.8 mA at half brightness: capped
    assert frame_ma(strip.frames[-1]) <= 30
    assert strip.dimming == pytest.approx(0.5 * 30 / frame_ma([(127, 127, 127)] * 2))
    strip.close()
    assert strip.lit == [(0, 0, 0)] * 2 and len(strip.frames) == 4


def test_the_gamma_table_keeps_black_and_full_and_dims_the_middle():
    assert GAMMA_TABLE[0] == 0 and GAMMA_TABLE[255] == 255 and len(GAMMA_TABLE) == 256
    assert all(a <= b for a, b in zip(GAMMA_TABLE, GAMMA_TABLE[1:]))
    assert list(GAMMA_TABLE) == [gamma(v) for v in range(256)]
    assert GAMMA_TABLE[128] == 37  # half the value looks half as bright at a seventh of the light
    assert gamma_frame([(255, 128, 0)]) == [(255, 37, 0)]


def test_every_frame_sent_is_gamma_corrected_and_looks_like_the_scene():
    """A dim colour sent as it is looks far too bright and changes hue on a WS2812 (dark
    amber 160, 112, 0 would glow nearly yellow); through the table its channels keep the
    proportions of light a screen gives them, and undoing the table (within the
    rounding to whole values) gives the colour back."""
    amber, dim_red, dim_blue, grey, sky = (160, 112, 0), (114, 0, 0), (0, 0, 114), \
        (120, 120, 120), (96, 176, 224)
    colours = [amber, dim_red, dim_blue, grey, sky, (0, 255, 128), (0, 200, 200), WHITE, RED]
    strip = SimulatedStrip(len(colours))
    strip.show(colours)
    assert strip.frames[-1] == [tuple(gamma(c) for c in colour) for colour in colours]
    assert strip.frames[-1] != colours
    undone = [tuple(round(255 * (c / 255) ** (1 / 2.8)) for c in sent)
              for sent in strip.frames[-1]]
    for back, colour in zip(undone, colours):
        assert all(abs(a - b) <= 3 for a, b in zip(back, colour)), (back, colour)
    sent = strip.frames[-1][colours.index(amber)]
    assert sent[1] / sent[0] < 0.5 < 112 / 160  # green well under red, as on a screen
    assert strip.frames[-1][colours.index(dim_red)] == (27, 0, 0)  # 45 % looks, a ninth of light


def test_the_simulated_strip_looks_like_the_scene_darkened_in_the_same_hue():
    frame = [(255, 0, 0), (0, 255, 128), (120, 120, 120), (160, 112, 0)]
    strip = SimulatedStrip(4)
    strip.show(frame)
    assert strip.lit == frame  # full brightness, within the cap: the scene's own colours
    strip = SimulatedStrip(4, brightness=0.05, max_ma=5)
    strip.show(frame)
    assert frame_ma(strip.frames[-1]) <= 5
    for shown, colour in zip(strip.lit, frame):
        scale = max(shown) / max(colour)
        assert 0 < scale < 0.5
        assert all(abs(s - c * scale) <= 0.5 for s, c in zip(shown, colour))


@given(st.lists(colours, min_size=1, max_size=40), st.floats(0.01, 1.0), st.integers(1, 3000))
def test_no_frame_sent_exceeds_the_cap_or_the_gamma_corrected_colour(frame, brightness,
                                                                     max_ma):
    strip = SimulatedStrip(len(frame), brightness=brightness, max_ma=max_ma)
    strip.show(frame)
    sent = strip.frames[-1]
    assert frame_ma(sent) <= max_ma
    assert all(s <= gamma(c) * brightness for new, old in zip(sent, frame)
               for s, c in zip(new, old))


def test_a_strip_refuses_frames_that_do_not_fit_it():
    strip = SimulatedStrip(2)
    with pytest.raises(ValueError, match="frame has 1 colours for 2 LEDs"):
        strip.show([RED])
    with pytest.raises(ValueError, match=r"LED 1: \(256, 0, 0\) is not an \(r, g, b\)"):
        strip.show([RED, (256, 0, 0)])
    with pytest.raises(ValueError, match="brightness must be above 0"):
        SimulatedStrip(2, brightness=0)
    with pytest.raises(ValueError, match="at least one LED"):
        SimulatedStrip(0)
    assert strip.frames == []


def test_the_default_budget_allows_full_white():
    strip = SimulatedStrip(3)
    strip.show([WHITE] * 3)
    assert strip.lit == [WHITE] * 3


def test_a_simulated_profile_opens_a_capped_simulated_strip():
    profile = load_profile("kulami-sim")
    strip = open_strip(profile)
    assert isinstance(strip, SimulatedStrip) and strip.count == 100
    strip.show([WHITE] * 100)
    assert frame_ma(strip.frames[-1]) <= profile.max_ma


def test_a_profile_led_index_lights_the_right_place_in_the_chain():
    profile = load_profile("kulami-sim")
    strip = open_strip(profile)
    frame = [(0, 0, 0)] * strip.count
    frame[profile.holes["a2"].leds[0]] = RED
    strip.show(frame)
    assert strip.lit.index(RED) == 19  # the serpentine comes back along row 2


@pytest.fixture
def blinka(monkeypatch):
    """Blinka on a PC: the OS-agnostic board, with neopixel_write captured."""
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    import neopixel
    written = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: written.append(bytes(buf)))
    return written


def test_neopixel_strip_sends_grb_bytes_gamma_corrected_dimmed_and_capped(blinka):
    strip = NeoPixelStrip(2, pin="Dx_OUTPUT", brightness=0.5, max_ma=1000)
    strip.show([(200, 100, 0), (0, 0, 50)])
    assert blinka[-1] == bytes(int(gamma(c) * 0.5) for c in (100, 200, 0, 0, 0, 50)) \
        == bytes([9, 64, 0, 0, 0, 1])
    strip.close()
    assert blinka[-1] == bytes(6)


def test_neopixel_strip_names_a_pin_the_board_lacks(blinka):
    with pytest.raises(ValueError, match="this board has no pin D99"):
        NeoPixelStrip(2, pin="D99")


class FakeSpiBus:
    """The busio.SPI calls adafruit_bus_device makes, recording what is written."""

    def __init__(self):
        self.writes, self.settings = [], {}

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def configure(self, **settings):
        self.settings = settings

    def write(self, buffer, **_):
        self.writes.append(bytes(buffer))


def decode_spi(data: bytes) -> bytes:
    """Each NeoPixel bit is one SPI byte: 0b11110000 for 1, 0b11000000 for 0."""
    bits = [{0b11110000: 1, 0b11000000: 0}[b] for b in data.strip(b"\0")]
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def test_neopixel_spi_strip_encodes_each_bit_as_an_spi_byte_at_6_4_mhz():
    bus = FakeSpiBus()
    strip = NeoPixelSpiStrip(2, spi=bus, max_ma=20)
    strip.show([(255, 0, 0), (0, 255, 0)])  # 40 mA asked, 20 allowed: half of each
    assert bus.settings["baudrate"] == 6_400_000
    assert decode_spi(bus.writes[-1]) == bytes([0, 127, 0, 127, 0, 0])
    strip.close()
    assert decode_spi(bus.writes[-1]) == bytes(6)


#: How far over its cap a frame may ask in the test below: frames up to 10% over are
#: the ones a cap with slack would let through, and a supply sized to the cap browns out.
JUST_OVER = st.floats(1.0, 1.1, exclude_min=True)


@given(st.lists(colours, min_size=1, max_size=60).filter(lambda f: frame_ma(f) > 0), JUST_OVER)
def test_a_frame_just_over_the_cap_is_dimmed_under_it(frame, over):
    """Random frames and caps seldom land between the cap and 10% over it; here every
    frame asks for ``over`` times its cap, and none may reach the LEDs above the cap."""
    max_ma = frame_ma(frame) / over
    assert frame_ma(cap_frame(frame, max_ma)) <= max_ma


@given(st.lists(colours, min_size=1, max_size=60).filter(
    lambda f: frame_ma(gamma_frame(f)) > 0), JUST_OVER)
def test_a_strip_sends_no_frame_just_over_its_cap(frame, over):
    max_ma = frame_ma(gamma_frame(frame)) / over  # the draw the strip would send uncapped
    strip = SimulatedStrip(len(frame), max_ma=max_ma)
    strip.show(frame)
    assert frame_ma(strip.frames[-1]) <= max_ma


@pytest.mark.parametrize("brightness", [True, 0, -0.5, 1.5, "1", None])
def test_a_strip_takes_a_brightness_by_the_one_rule(brightness):
    """The strip, the profile and the configuration refuse the same values: ``True`` is
    not a brightness though Python counts it as 1."""
    from app.hardware.brightness import is_brightness
    assert not is_brightness(brightness)
    with pytest.raises(ValueError, match="brightness must be above 0 and at most 1"):
        SimulatedStrip(2, brightness=brightness)
    assert SimulatedStrip(2, brightness=0.25).brightness == 0.25
