"""Mistral-Large-4's port at tiny scale: the projector's output at the text width, as Mistral 3 ships."""

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure_widths
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_reach_the_lm_at_the_text_hidden_size():
    raw = tiny_config("mistral_large4")
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {"image": raw["text_config"]["hidden_size"]}


def test_tokens_are_merged_patches_of_the_image():
    raw = tiny_config("mistral_large4")
    merged = raw["vision_config"]["patch_size"] * raw["spatial_merge_size"]
    config = resolve_spec(raw).config
    assert adapter_for("mistral_large4").embed_tokens(config, ItemSize("image", 2 * merged, 3 * merged)) == 6
