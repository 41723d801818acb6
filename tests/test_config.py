"""Game options in the configuration: checked by the game's typed options at load, one
line naming the key and the allowed values; then carried through the session into the
record and back, and never applied to a game under way."""

import pytest

from app.table.config import ConfigError, load_config
from app.table.session import Session
from app.table.store import RecordStore

def config_file(tmp_path, text, name="tabletop.toml"):
    path = tmp_path / name
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n' + text)
    return path


@pytest.mark.parametrize("game, options, message", [
    ("conhex", "handicap = 2.0", "game.options.handicap: must be 0, 2 or 3, not 2.0"),
    ("conhex", "handicap = true", "game.options.handicap: must be 0, 2 or 3, not True"),
    ("conhex", "pie = 1", "game.options.pie: must be true or false, not 1"),
    ("kulami", "scoring = 1.5", "game.options.scoring: must be 0, 1 or 2, not 1.5"),
    ("kulami", "scoring = inf", "game.options.scoring: must be 0, 1 or 2, not inf"),
    ("kulami", "scoring = []", "game.options.scoring: must be 0, 1 or 2, not []"),
    ("kulami", "chain_lines = 'rows'", "game.options.chain_lines: must be diagonal or all"),
    ("kulami", "layout = 3", "game.options.layout: must be text, not 3"),
    ("kulami", "layout = 'square-9'", "game.options: unknown layout 'square-9'"),
    ("conhex", "layout = 'square-1'",
     "game.options.layout: conhex has no such option (options: pie, handicap)"),
])
def test_a_wrong_option_is_one_line_naming_the_key_and_the_allowed_values(
        tmp_path, game, options, message):
    path = config_file(tmp_path, f"[game.options]\n{options}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path, game=game)
    assert str(error.value).startswith(f"{path}: {message}")
    assert "\n" not in str(error.value)


def test_options_are_converted_to_the_game_s_types(tmp_path):
    path = config_file(tmp_path, '[game.options]\npie = "off"\nhandicap = 3\n')
    assert load_config(path, game="conhex").options == {"pie": False, "handicap": 3}
    assert load_config(path).options == {"pie": "off", "handicap": 3}  # no game: as given


def test_a_byte_that_is_not_utf8_is_one_line_with_its_offset(tmp_path):
    path = tmp_path / "tabletop.toml"
    path.write_bytes(b'[game]\nfirst = "p\xe9rson"\n')
    with pytest.raises(ConfigError, match=rf"^{path}: not UTF-8 text: byte 0xe9 at offset 17$"):
        load_config(path)


def test_options_travel_from_the_configuration_into_the_record_and_back(tmp_path):
    path = config_file(tmp_path, '[game]\nfirst = "engine"\nsecond = "person"\nlevel = 1\n'
                                 '[game.options]\npie = false\nhandicap = 2\n')
    config = load_config(path, game="conhex")

    def start(config):
        store = RecordStore(config.data_dir, profile="conhex")
        return Session.resume_or_start(store, "conhex", config.options, seats=config.seats,
                                       level=config.level)

    first = start(config)
    assert first.pending is not None  # the engine, as b, lit its first handicap gem
    text = first.store.current.read_text()
    assert "HA[2]PIE[false]" in text and "SEATB[engine]SEATW[person]LEVEL[1]" in text
    changed = config_file(tmp_path, "[game.options]\npie = true\n", "changed.toml")
    again = start(load_config(changed, game="conhex"))
    assert again.board.options == {"pie": False, "handicap": 2}
    assert again.seats == {"b": "engine", "w": "person"} and again.level == 1
    assert again.store.current == first.store.current


def test_a_configuration_error_leaves_the_game_in_progress_alone(tmp_path):
    good = config_file(tmp_path, "[game.options]\nscoring = 2\n")
    config = load_config(good, game="kulami")
    store = RecordStore(config.data_dir, profile="kulami")
    session = Session.resume_or_start(store, "kulami", config.options)
    session.confirm()  # the panels are laid out
    session.confirm("d4")
    record = session.store.current.read_text()
    bad = config_file(tmp_path, "[game.options]\nscoring = 2.0\n", "bad.toml")
    with pytest.raises(ConfigError, match="game.options.scoring"):
        load_config(bad, game="kulami")
    assert session.store.current.read_text() == record
    again = Session.resume_or_start(RecordStore(config.data_dir, profile="kulami"), "kulami",
                                    load_config(good, game="kulami").options)
    assert [str(m) for m in again.board.move_stack] == ["d4"]
