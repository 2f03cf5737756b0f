"""LFM3-VL at tiny scale: the projector's output at the text width, not its merged width."""

import pytest
import torch

from ecwidth.engines import registry, releases
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import NoTokenRuleError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure_widths
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_and_videos_reach_the_lm_at_the_text_hidden_size():
    raw = tiny_config("lfm3_vl")
    vision = raw["vision_config"]
    width = raw["text_config"]["hidden_size"]
    assert width != vision["hidden_size"] * vision["spatial_merge_size"] ** 2  # the merged blocks
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {"image": width, "video": width}


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_no_vllm_release_loads_it_through_the_backend(release):
    adapter = adapter_for("lfm3_vl")
    assert registry.for_model_type(releases.release(release), adapter.model_types[0]).path == "backend"
    assert adapter.serving_for(release).serves is False  # the release's transformers pin predates the model type


def test_token_counts_are_left_to_the_checkpoints_processor():
    config = resolve_spec(tiny_config("lfm3_vl")).config
    with pytest.raises(NoTokenRuleError):
        adapter_for("lfm3_vl").embed_tokens(config, ItemSize("image", 448, 448))
