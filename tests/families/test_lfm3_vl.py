"""LFM3-VL at tiny scale: the projector's output at the text width, not its merged width."""

import pytest
import torch

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


def test_token_counts_are_left_to_the_checkpoints_processor():
    config = resolve_spec(tiny_config("lfm3_vl")).config
    with pytest.raises(NoTokenRuleError):
        adapter_for("lfm3_vl").embed_tokens(config, ItemSize("image", 448, 448))
