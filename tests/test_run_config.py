"""The configuration file: the shipped example loads, defaults, and one-line errors."""

from pathlib import Path

import pytest

from app.table.config import Config, ConfigError, load_config
from app.hardware.profile import load_profile

EXAMPLE = Path(__file__).resolve().parents[1] / "app" / "table" / "tabletop.example.toml"


def test_the_example_loads_and_fits_the_kulami_board():
    config = load_config(EXAMPLE, environ={"XDG_DATA_HOME": "/x"})
    assert config.seats == {"b": "person", "w": "engine"} and config.level == 2
    assert config.options == {"kulami": {"layout": "square-1", "scoring": 0},
                              "conhex": {"pie": True, "handicap": 0}}
    assert config.buttons == {} and config.poll_s == 0.01
    assert config.data_dir == Path("/x/tabletop")
    config.check_buttons(load_profile("kulami"))


def test_the_example_works_on_a_desktop_profile():
    """The example's ``[buttons] confirm = 27`` stopped every desktop board with "no GPIO
    on this machine": its devices open on a -sim profile now."""
    from app.table.assembly import open_devices
    config = load_config(EXAMPLE, environ={"XDG_DATA_HOME": "/x"})
    profile = load_profile("kulami-sim")
    config.check_buttons(profile)
    open_devices(config.leds(profile), buttons=config.buttons).close()
    uncommented = EXAMPLE.read_text().replace("# confirm = 27", "confirm = 27")
    assert 'confirm = 27' in uncommented  # the Pi's line is there to uncomment


def test_defaults_without_a_file(tmp_path):
    (tmp_path / "empty.toml").write_text("")
    config = load_config(tmp_path / "empty.toml", environ={"STATE_DIRECTORY": "/var/lib/t"})
    assert config.data_dir == Path("/var/lib/t") and config.buttons == {}
    assert config.show_legal and config.seed is None


@pytest.mark.parametrize("text, message", [
    ("colour = 1", "colour: unknown key"),
    ("[game]\nfirst = 'robot'", "game.first: must be person or engine, not 'robot'"),
    ("[game]\nlevel = 0", 'game.level: must be 1, 2, 3, 4 or "max", not 0'),
    ("[game]\nlevel = 2.0", 'game.level: must be 1, 2, 3, 4 or "max", not 2.0'),
    ("[game]\nlevel = 'best'", "game.level: must be 1, 2, 3, 4 or \"max\", not 'best'"),
    ("[game]\nshow_legal = 1", "game.show_legal: must be true or false, not 1"),
    ("[buttons]\nhint = 40", "buttons.hint: must be a BCM GPIO number 2-27"),
    ("[buttons]\nhint = 5\nundo = 5", "buttons.undo: GPIO5 is also hint"),
    ("[buttons]\nrestart = 5", "buttons.restart: unknown key"),
    ("[loop]\npoll_ms = 0", "loop.poll_ms: must be 1 to 1000"),
    ("game = 3", "game: must be a table"),
    ("[game", "not valid TOML"),
])
def test_bad_configuration_is_one_line_naming_the_key(tmp_path, text, message):
    path = tmp_path / "tabletop.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert message in str(error.value) and str(path) in str(error.value)
    assert "\n" not in str(error.value)


def test_a_button_on_a_sensor_pin_is_refused(tmp_path):
    config = Config(tmp_path / "t.toml", tmp_path, buttons={"undo": 17})
    with pytest.raises(ConfigError, match="buttons.undo: GPIO17 is used by profile kulami"):
        config.check_buttons(load_profile("kulami"))
    spi = Config(tmp_path / "t.toml", tmp_path, buttons={"hint": 10})
    with pytest.raises(ConfigError, match="GPIO10"):
        spi.check_buttons(load_profile("kulami"))


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "none.toml")
