"""Gemma 4 Unified at tiny scale: encoder-free embedders, every modality at the text width."""

from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_every_modality_is_the_text_width_not_the_embedder_inputs():
    config = tiny_config("gemma4_unified")
    expected = config["text_config"]["hidden_size"]
    result = measure(config, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected, "audio": expected}
    assert result.predicted == result.widths


def test_the_audio_output_proj_dims_is_the_embedders_input_under_another_name():
    raw = tiny_config("gemma4_unified")
    audio = resolve_spec(raw).config.audio_config
    assert audio.output_proj_dims == audio.audio_embed_dim == raw["audio_config"]["audio_embed_dim"]
    look_alikes = set(adapter_for("gemma4_unified").look_alikes)
    assert {"audio_config.output_proj_dims", "audio_config.audio_embed_dim"} <= look_alikes
