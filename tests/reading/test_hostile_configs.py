"""Hand-edited configs: each bad value is one error line naming the file and the field, never a traceback."""

from __future__ import annotations

import json
import os

import pytest

from ecwidth.cli.commands import main
from tests.tiny_configs import tiny_config


def _write(tmp_path, text: str):
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    return path


def _vision(**changes) -> dict:
    config = tiny_config("qwen3_vl")
    config["vision_config"].update(changes)
    return config


@pytest.mark.parametrize(
    "config, field, expected",
    [
        (_vision(out_hidden_size="48"), "vision_config.out_hidden_size", "without quotes"),
        (_vision(out_hidden_size=48.0), "vision_config.out_hidden_size", "positive integer"),
        (_vision(out_hidden_size=True), "vision_config.out_hidden_size", "boolean"),
        (_vision(out_hidden_size=0), "vision_config.out_hidden_size", "positive integer"),
        (_vision(patch_size=-16), "vision_config.patch_size", "positive integer"),
        (_vision(spatial_merge_size=0), "vision_config.spatial_merge_size", "positive integer"),
        (_vision(deepstack_visual_indexes=2), "vision_config.deepstack_visual_indexes", "list of layer indexes"),
        (_vision(hidden_size=float("nan")), "vision_config.hidden_size", "finite"),
        (_vision(depth=float("inf")), "vision_config.depth", "finite"),
        (_vision(hidden_size=10**30), "vision_config.hidden_size", "past any real config"),
        (_vision(hidden_size=33, num_heads=2), "vision_config.hidden_size", "does not divide"),
        (_vision(deepstack_visual_indexes=["0", "2"]), "vision_config.deepstack_visual_indexes", "integers"),
        (_vision(deepstack_visual_indexes=[0.0]), "vision_config.deepstack_visual_indexes", "integers"),
        (_vision(deepstack_visual_indexes=[0, 99]), "vision_config.deepstack_visual_indexes", "vision_config.depth=3"),
        (_vision(deepstack_visual_indexes=[-1]), "vision_config.deepstack_visual_indexes", "vision_config.depth=3"),
        (_vision(deepstack_visual_indexes=[0, 0]), "vision_config.deepstack_visual_indexes", "distinct"),
        ({**tiny_config("qwen3_vl"), "auto_map": {"AutoConfig": {"x": ["y"]}}}, "auto_map.AutoConfig", "module.Class"),
        ({**tiny_config("llava"), "vision_feature_layer": -99}, "vision_feature_layer", "[-3, 2]"),
        ({**tiny_config("llava"), "vision_feature_layer": "last"}, "vision_feature_layer", "the string 'last'"),
        (
            {**tiny_config("llava"), "vision_feature_select_strategy": "odd"},
            "vision_feature_select_strategy",
            "rejects",
        ),
    ],
    ids=[
        "quoted",
        "float",
        "bool",
        "zero",
        "negative",
        "zero-merge",
        "non-list-index",
        "nan",
        "infinity",
        "huge",
        "heads-do-not-divide",
        "index-strings",
        "index-floats",
        "index-past-depth",
        "index-negative",
        "index-twice",
        "auto_map-nested",
        "feature-layer-past-depth",
        "feature-layer-string",
        "transformers-field-check",
    ],
)
@pytest.mark.parametrize("command", ["predict", "measure"])
def test_bad_values_are_one_error_naming_file_and_field(tmp_path, capsys, command, config, field, expected):
    path = _write(tmp_path, json.dumps(config))  # json writes NaN and Infinity as their JavaScript names
    assert main([command, "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ecwidth: error: ")
    assert str(path) in err and field in err and expected in err


def test_duplicate_keys_are_refused_rather_than_guessed(tmp_path, capsys):
    text = json.dumps(tiny_config("qwen3_vl")).replace(
        '"model_type": "qwen3_vl"', '"model_type": "qwen3_vl", "model_type": "qwen3_vl"'
    )
    assert main(["predict", "--config", str(_write(tmp_path, text))]) == 2
    assert "duplicate key 'model_type'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"model_type": "qwen3_vl", "vision_config": ' + '{"a": ' * 50 + "1" + "}" * 51],
    ids=["past-the-stack", "past-any-real-config"],
)
def test_absurd_nesting_is_one_error(tmp_path, capsys, text):
    assert main(["predict", "--config", str(_write(tmp_path, text))]) == 2
    assert "nested" in capsys.readouterr().err


def test_binary_junk_is_one_error(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_bytes(b"\xff\xfe\x00junk")
    assert main(["predict", "--config", str(path)]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_a_fifo_is_refused_rather_than_read_forever(tmp_path, capsys):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)  # nobody writes to it: reading would block for ever
    assert main(["predict", "--config", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


# --- bounded reading: linear in the file, and nothing past a size no real config reaches ---


def _with_big_object(keys: int, *, duplicate: bool = False) -> str:
    """A tiny Qwen3-VL config whose quantization_config holds one ``keys``-key object, as a quantized export's does."""
    text = json.dumps({**tiny_config("qwen3_vl"), "quantization_config": {"quant_method": "modelopt", "ignore": {}}})
    entries = ", ".join(f'"model.layers.{i}.mlp": 4' for i in range(keys))
    if duplicate:
        entries += ', "model.layers.0.mlp": 8'
    return text.replace('"ignore": {}', '"ignore": {' + entries + "}")


def test_a_config_with_a_60000_key_object_is_read(tmp_path, capsys):
    import time

    assert main(["predict", "--config", str(_write(tmp_path, _with_big_object(1)))]) == 0  # imports, caches
    path = _write(tmp_path, _with_big_object(60_000))
    started = time.perf_counter()
    assert main(["predict", "--config", str(path)]) == 0
    assert time.perf_counter() - started < 30  # about 1 s; the quadratic duplicate check took minutes
    assert capsys.readouterr().out.count("image") == 2


def test_a_duplicate_key_in_a_200000_key_object_is_one_error_at_once(tmp_path, capsys):
    import time

    assert main(["predict", "--config", str(_write(tmp_path, _with_big_object(1)))]) == 0  # imports, caches
    path = _write(tmp_path, _with_big_object(200_000, duplicate=True))
    started = time.perf_counter()
    assert main(["predict", "--config", str(path)]) == 2
    assert time.perf_counter() - started < 10  # about 0.5 s; the quadratic check: hours
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "duplicate key 'model.layers.0.mlp' in one object" in err


def test_a_config_past_the_size_limit_is_refused_unread(tmp_path, capsys):
    from ecwidth.reading.configs import MAX_CONFIG_BYTES

    path = tmp_path / "config.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)  # sparse: reading it would take the time the limit saves
    assert main(["predict", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"ecwidth: error: {path}: {MAX_CONFIG_BYTES + 1} bytes, past the 32 MiB that any real config.json "
        "stays under; ecwidth refuses it rather than reading it\n"
    )


def test_the_config_limit_is_far_above_the_largest_published_config():
    from ecwidth.reading.catalog import catalog_entry
    from ecwidth.reading.configs import MAX_CONFIG_BYTES

    largest = len(json.dumps(catalog_entry("minimax-m3-nvfp4").config, indent=2))  # 22,422 quantized layers
    assert largest * 8 < MAX_CONFIG_BYTES


def test_a_number_past_pythons_digits_is_one_error_naming_the_file(tmp_path, capsys):
    path = _write(
        tmp_path, json.dumps(tiny_config("qwen3_vl")).replace('"model_type"', '"x": ' + "9" * 5000 + ', "model_type"')
    )
    assert main(["predict", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "more digits than any real value" in err


@pytest.mark.parametrize(
    "name",
    ["a" * 5000, "org/" + "a" * 300, "acme/x--y", "a\x00b", "x/" * 3000 + "config.json"],
    ids=["long-name", "long-hub-id", "double-dash-hub-id", "nul", "deep-path"],
)
def test_a_name_no_path_or_hub_id_can_be_is_one_short_error(capsys, name):
    from ecwidth.errors import ConfigError
    from ecwidth.reading.configs import resolve_spec

    with pytest.raises(ConfigError) as caught:
        resolve_spec(name)
    assert len(str(caught.value)) < 600
    assert main(["predict", "--model", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ecwidth: error: ") and len(err) < 600
