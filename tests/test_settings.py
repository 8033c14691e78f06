import pytest

from rawrag_tui.errors import UserError
from rawrag_tui.settings import load_settings


def test_defaults_are_the_papers_recipe(home):
    s = load_settings(home)
    assert (s.window.tokens, s.window.stride, s.window.encoding) == (256, 224, "cl100k_base")
    assert (s.retrieval.candidates, s.retrieval.top_k) == (128, 15)
    assert s.db_path == home / "rawrag.db"


def test_precedence_config_then_env_then_caller(home, monkeypatch):
    home.mkdir(parents=True)
    (home / "config.toml").write_text('[retrieval]\ntop_k = 7\nmode = "dense"\n[keymap]\nsearch = "ctrl+f"\n')
    s = load_settings(home)
    assert s.retrieval.top_k == 7 and s.retrieval.mode == "dense" and s.keymap == {"search": "ctrl+f"}
    monkeypatch.setenv("RAWRAG_RETRIEVAL_TOP_K", "9")
    assert load_settings(home).retrieval.top_k == 9
    assert load_settings(home, retrieval={"top_k": 3, "mode": None}).retrieval.top_k == 3
    assert load_settings(home, retrieval={"top_k": 3, "mode": None}).retrieval.mode == "dense"


def test_env_home_is_used_when_no_home_given(tmp_path, monkeypatch):
    monkeypatch.setenv("RAWRAG_HOME", str(tmp_path / "elsewhere"))
    assert load_settings().home == tmp_path / "elsewhere"


@pytest.mark.parametrize(
    "config, message",
    [
        ("[retrieval]\ntop_k = 'many'\n", "retrieval.top_k"),
        ("[retreival]\ntop_k = 1\n", "unknown section"),
        ("[retrieval]\ntopk = 1\n", "unknown setting"),
        ("[retrieval\n", "not valid TOML"),
    ],
)
def test_bad_config_is_one_clear_error(home, config, message):
    home.mkdir(parents=True)
    (home / "config.toml").write_text(config)
    with pytest.raises(UserError, match=message):
        load_settings(home)
