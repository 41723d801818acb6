"""Game options in the configuration: checked by the game's typed options at load, one
line naming the key and the allowed values; then carried through the session into the
record and back, and never applied to a game under way."""

import re
from pathlib import Path

import pytest

from app.table.config import ConfigError, load_config
from app.table.seats import words_of
from app.table.session import Session
from app.table.store import RecordStore

def config_file(tmp_path, text, name="tabletop.toml"):
    path = tmp_path / name
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n' + text)
    return path


@pytest.mark.parametrize("game, options, message", [
    ("conhex", "handicap = 2.0", "options.conhex.handicap: must be 0, 2 or 3, not 2.0"),
    ("conhex", "handicap = true", "options.conhex.handicap: must be 0, 2 or 3, not True"),
    ("conhex", "pie = 1", "options.conhex.pie: must be true or false, not 1"),
    ("kulami", "scoring = 1.5", "options.kulami.scoring: must be 0, 1 or 2, not 1.5"),
    ("kulami", "scoring = inf", "options.kulami.scoring: must be 0, 1 or 2, not inf"),
    ("kulami", "scoring = []", "options.kulami.scoring: must be 0, 1 or 2, not []"),
    ("kulami", "chain_lines = 'rows'", "options.kulami.chain_lines: must be diagonal or all"),
    ("kulami", "layout = 3", "options.kulami.layout: must be text, not 3"),
    ("kulami", "layout = 'square-9'", "options.kulami: unknown layout 'square-9'"),
    ("conhex", "layout = 'square-1'",
     "options.conhex.layout: conhex has no such option (options: pie, handicap)"),
])
def test_a_wrong_option_is_one_line_naming_the_key_and_the_allowed_values(
        tmp_path, game, options, message):
    path = config_file(tmp_path, f"[options.{game}]\n{options}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value).startswith(f"{path}: {message}")
    assert "\n" not in str(error.value)


def test_options_are_converted_to_the_game_s_types(tmp_path):
    path = config_file(tmp_path, '[options.conhex]\npie = "off"\nhandicap = 3\n')
    config = load_config(path)
    assert config.options_for("conhex") == {"pie": False, "handicap": 3}
    assert config.options_for("kulami") == {}  # none given: the game's defaults


def test_a_byte_that_is_not_utf8_is_one_line_with_its_offset(tmp_path):
    path = tmp_path / "tabletop.toml"
    path.write_bytes(b'[game]\nfirst = "p\xe9rson"\n')
    with pytest.raises(ConfigError, match=rf"^{path}: not UTF-8 text: byte 0xe9 at offset 17$"):
        load_config(path)


def test_options_travel_from_the_configuration_into_the_record_and_back(tmp_path):
    path = config_file(tmp_path, '[game]\nfirst = "engine"\nsecond = "person"\nlevel = 1\n'
                                 '[options.conhex]\npie = false\nhandicap = 2\n')
    config = load_config(path)

    def start(config):
        store = RecordStore(config.data_dir, profile="conhex")
        return Session.resume_or_start(store, "conhex", config.options_for("conhex"), seats=config.seats,
                                       level=config.level)

    first = start(config)
    assert first.pending is not None  # the engine, as b, lit its first handicap gem
    text = first.store.current.read_text()
    assert "HA[2]PIE[false]" in text and "SEATB[engine]SEATW[person]LEVEL[1]" in text
    changed = config_file(tmp_path, "[options.conhex]\npie = true\n", "changed.toml")
    again = start(load_config(changed))
    assert again.board.options == {"pie": False, "handicap": 2}
    assert words_of(again.seats) == {"b": "engine", "w": "person"} and again.level == 1
    assert again.store.current == first.store.current


def test_a_configuration_error_leaves_the_game_in_progress_alone(tmp_path):
    good = config_file(tmp_path, "[options.kulami]\nscoring = 2\n")
    config = load_config(good)
    store = RecordStore(config.data_dir, profile="kulami")
    session = Session.resume_or_start(store, "kulami", config.options_for("kulami"))
    session.confirm()  # the panels are laid out
    session.confirm("d4")
    record = session.store.current.read_text()
    bad = config_file(tmp_path, "[options.kulami]\nscoring = 2.0\n", "bad.toml")
    with pytest.raises(ConfigError, match="options.kulami.scoring"):
        load_config(bad)
    assert session.store.current.read_text() == record
    again = Session.resume_or_start(RecordStore(config.data_dir, profile="kulami"), "kulami",
                                    load_config(good).options_for("kulami"))
    assert [str(m) for m in again.board.move_stack] == ["d4"]


def test_one_file_serves_every_board_each_game_its_own_table(tmp_path):
    """The example installed on a Pi names options for Kulami and ConHex: a Kulami board
    takes its table, a ConHex board its own, and an unknown game is one line."""
    from app.table.config import Config
    example = Path(__file__).resolve().parents[1] / "app" / "table" / "tabletop.example.toml"
    text = example.read_text(encoding="utf-8").replace("[buttons]\nconfirm = 27", "")
    path = config_file(tmp_path, text.split("[buttons]")[0])
    config = load_config(path)
    assert isinstance(config, Config)
    assert config.options_for("kulami") == {"layout": "square-1", "scoring": 0}
    assert config.options_for("conhex") == {"pie": True, "handicap": 0}
    wrong = config_file(tmp_path, "[options.chess]\nclock = 5\n", "wrong.toml")
    with pytest.raises(ConfigError, match=r"options.chess: unknown key \(known: kulami, conhex"):
        load_config(wrong)


# --- [leds] brightness -------------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "0.0", "-0.2", "1.5", "2", "inf", "nan", "true",
                                   '"half"', "[0.5]"])
def test_a_wrong_led_brightness_is_one_line_naming_the_key(tmp_path, value):
    path = config_file(tmp_path, f"[leds]\nbrightness = {value}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(f"{path}: leds.brightness: must be a number above 0 and at "
                              f"most 1, not ")
    assert "\n" not in message


def test_an_unknown_led_key_is_named(tmp_path):
    path = config_file(tmp_path, "[leds]\nbrightnes = 0.5\n")
    with pytest.raises(ConfigError, match=r"leds.brightnes: unknown key \(known: brightness\)"):
        load_config(path)


def test_the_led_brightness_overrides_the_profile_s_and_nothing_else(tmp_path):
    from app.hardware.profile import load_profile
    profile = load_profile("kulami")
    assert profile.brightness == 0.5
    config = load_config(config_file(tmp_path, "[leds]\nbrightness = 0.2\n"))
    assert config.brightness == 0.2
    dimmer = config.leds(profile)
    assert dimmer.brightness == 0.2 and dimmer.max_ma == profile.max_ma
    assert dimmer.holes == profile.holes and dimmer.leds.driver == profile.leds.driver
    assert load_config(config_file(tmp_path, "[leds]\nbrightness = 1\n")).brightness == 1.0
    unset = load_config(config_file(tmp_path, "[leds]\n", "unset.toml"))
    assert unset.brightness is None and unset.leds(profile) is profile


def test_tabletop_run_opens_the_strip_at_the_configured_brightness(tmp_path, monkeypatch,
                                                                   capsys):
    """The one place the strip is opened takes the configuration's brightness; without
    the key it keeps the profile's."""
    from app.cli import main
    from app.errors import DeviceError
    from app.hardware.devices import open_strip
    from app.table import assembly

    opened = []

    def strip_then_stop(profile):
        opened.append(open_strip(profile))
        raise DeviceError("stop here")

    monkeypatch.setattr(assembly, "open_strip", strip_then_stop)
    dim = config_file(tmp_path, "[leds]\nbrightness = 0.25\n")
    assert main(["run", "--profile", "kulami-sim", "--config", str(dim)]) == 1
    plain = config_file(tmp_path, "", "plain.toml")
    assert main(["run", "--profile", "kulami-sim", "--config", str(plain)]) == 1
    assert [strip.brightness for strip in opened] == [0.25, 1.0]
    opened[0].show([(255, 255, 255)] * opened[0].count)
    assert opened[0].frames[-1][0] == (63, 63, 63)
    bad = config_file(tmp_path, "[leds]\nbrightness = 1.5\n", "bad.toml")
    capsys.readouterr()
    assert main(["run", "--profile", "kulami-sim", "--config", str(bad)]) == 2
    assert capsys.readouterr().err == (f"tabletop run: {bad}: leds.brightness: must be a "
                                       f"number above 0 and at most 1, not 1.5\n")
    assert len(opened) == 2


def test_the_example_configuration_documents_the_led_brightness():
    example = Path(__file__).resolve().parents[1] / "app" / "table" / "tabletop.example.toml"
    text = example.read_text(encoding="utf-8")
    assert "[leds]\n" in text and "# brightness = " in text


# --- data_dir ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", ['"\\u0000"', '"/var/lib/tabletop\\u0000/games"'])
def test_a_data_dir_with_a_nul_character_is_one_line_naming_the_key(tmp_path, value):
    """TOML can spell a NUL (``\\u0000``), which no path holds: the record store's mkdir
    ended ``tabletop run`` in a traceback (ValueError: embedded null byte)."""
    path = tmp_path / "tabletop.toml"
    path.write_text(f"data_dir = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert message.startswith(f"{path}: data_dir: must be a directory's path, which holds "
                              f"no NUL character, not '")
    assert "\\x00" in message and "\x00" not in message and "\n" not in message


def test_the_web_page_is_on_by_default_and_its_keys_are_checked(tmp_path, monkeypatch):
    monkeypatch.undo()  # the tests' own default (conftest.py) is no page
    assert load_config(config_file(tmp_path, "")).web == "lan:80"
    assert load_config(config_file(tmp_path, "[web]\n", "empty.toml")).web == "lan:80"
    off = load_config(config_file(tmp_path, "[web]\nenabled = false\n", "off.toml"))
    assert off.web is None
    fixed = load_config(config_file(tmp_path, '[web]\nhost = "127.0.0.1"\nport = 8080\n'
                                              'pairing_code = "123456"\n', "fixed.toml"))
    assert fixed.web == "127.0.0.1:8080" and fixed.pairing_code == "123456"
    for text, line in (('[web]\nport = 0\n', "web.port: must be a port, 1 to 65535"),
                       ('[web]\nport = "80"\n', "web.port: must be a whole number, not '80'"),
                       ('[web]\npairing_code = "12ab56"\n', "web.pairing_code: must be 6 "
                                                            "digits"),
                       ('[web]\nhost = "a b"\n', "web.host: must be \"lan\" or an address"),
                       ('[web]\nexposed = true\n', "web.exposed: unknown key")):
        with pytest.raises(ConfigError, match=re.escape(line)):
            load_config(config_file(tmp_path, text, "bad.toml"))


def test_the_remote_table_is_kept_as_written_for_the_remote_layer_to_check(tmp_path):
    """``[remote]`` was an unknown key; the table layer keeps it unread (it may not import
    app.remote), and ``tabletop run`` has it checked (tests/test_remote_run.py)."""
    assert load_config(config_file(tmp_path, "")).remote is None
    config = load_config(config_file(tmp_path, '[remote]\nbroker = "mqtt.example.org"\n'
                                               'club = "riverside"\n', "remote.toml"))
    assert config.remote == {"broker": "mqtt.example.org", "club": "riverside"}


def test_the_example_configuration_documents_every_remote_key():
    from app.remote.config import KEYS
    text = (Path(__file__).resolve().parents[1] / "app/table/tabletop.example.toml").read_text()
    block = text[text.index("# [remote]"):]
    keys = re.findall(r"^# (\w+) = ", block, re.MULTILINE)
    assert sorted(keys) == sorted(KEYS)
