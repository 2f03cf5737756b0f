"""LFM3-VL at tiny scale: the projector's output at the text width, not its inner or merged widths."""

import pytest
from tiny_configs import tiny_config

import ecwidth
from ecwidth.errors import NoTokenRuleError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec


def test_images_and_videos_ship_at_the_text_hidden_size():
    raw = tiny_config("lfm3_vl")
    vision = raw["vision_config"]
    inner = (
        raw["projector_hidden_size"],
        vision["hidden_size"],
        vision["hidden_size"] * vision["spatial_merge_size"] ** 2,
    )
    width = raw["text_config"]["hidden_size"]
    assert width not in inner
    assert ecwidth.measure(raw, device="cpu").widths == {"image": width, "video": width}


def test_token_counts_are_left_to_the_checkpoints_processor():
    config = resolve_spec(tiny_config("lfm3_vl")).config
    with pytest.raises(NoTokenRuleError):
        adapter_for("lfm3_vl").embed_tokens(config, ItemSize("image", 448, 448))
