"""SGLang 0.5.23's config formula, restated: what it allocates, read against the config's own fields."""

import pytest

from ecwidth.engines.releases import SGLANG_0_5_23, VLLM_0_33, release
from ecwidth.engines.sizers import engine_sizes, sglang_sizes
from ecwidth.reading.catalog import catalog_entry
from ecwidth.reading.configs import resolve_spec


def test_a_deepstack_config_is_sized_with_its_levels_and_audio_by_d_model():
    raw = catalog_entry("qwen3-omni-30b-a3b-instruct").config["thinker_config"]
    vision, audio = raw["vision_config"], raw["audio_config"]
    sizes = sglang_sizes(resolve_spec("qwen3-omni-30b-a3b-instruct").config)
    packed = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    assert sizes["image"] == sizes["video"] == packed
    assert sizes["audio"] == (audio.get("output_dim") or audio["d_model"])


def test_qwen2_audio_is_sized_from_the_towers_d_model_not_the_projector():
    raw = catalog_entry("qwen2-audio-7b-instruct").config
    sizes = sglang_sizes(resolve_spec("qwen2-audio-7b-instruct").config)
    assert sizes["audio"] == raw["audio_config"]["d_model"]


def test_without_an_out_hidden_size_vision_falls_back_to_the_lm_hidden_size():
    spec = resolve_spec("qwen2-vl-7b-instruct")  # Qwen2-VL's vision config has no out_hidden_size
    assert sglang_sizes(spec.config)["image"] == spec.config.get_text_config().hidden_size


@pytest.mark.parametrize("name", [VLLM_0_33])
def test_an_engine_that_measures_allocates_what_it_measures(name):
    assert engine_sizes(release(name), resolve_spec("qwen2-audio-7b-instruct").config, ["audio"]) == {}


def test_engine_sizes_keeps_only_the_keys_asked_for():
    sizes = engine_sizes(release(SGLANG_0_5_23), resolve_spec("qwen2-audio-7b-instruct").config, ["audio"])
    assert set(sizes) == {"audio"}
