"""MOSS-Audio: engine only; the width is predicted from vLLM's DeepStack formula and never measured."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def expected_width(raw: dict) -> int:
    """``MossAudioModel``'s packing: the main map plus one per DeepStack merger, each the text hidden size."""
    layers = len(raw["audio_config"]["deepstack_encoder_layer_indexes"] or [])
    cap = raw.get("deepstack_num_inject_layers")
    return raw["language_config"]["hidden_size"] * (1 + (layers if cap is None else min(layers, cap)))


@pytest.mark.parametrize("cap", [2, 5, None, 0])
def test_audio_width_is_the_text_hidden_size_times_one_plus_the_injected_levels(cap):
    raw = tiny_config("moss_audio")
    raw["deepstack_num_inject_layers"] = cap
    assert predict_widths(raw) == {"audio": expected_width(raw)}


def test_no_deepstack_layers_ship_the_text_hidden_size_and_absent_ones_the_engine_default():
    raw = tiny_config("moss_audio")
    raw["audio_config"]["deepstack_encoder_layer_indexes"] = None
    assert predict_widths(raw) == {"audio": raw["language_config"]["hidden_size"]}
    del raw["audio_config"]["deepstack_encoder_layer_indexes"], raw["deepstack_num_inject_layers"]
    assert predict_widths(raw) == {"audio": raw["language_config"]["hidden_size"] * (1 + 3)}  # [8, 16, 24]


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("moss_audio"), device="cpu")


def test_a_published_auto_map_is_read_without_running_code():
    raw = {**tiny_config("moss_audio"), "auto_map": {"AutoModel": "modeling_moss_audio.MossAudioModel"}}
    spec = resolve_spec(raw)
    assert spec.config.language_config.hidden_size == raw["language_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "qwen3"
