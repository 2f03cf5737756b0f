"""Fuyu at tiny scale: one row per patch at the text width, from last_hidden_state (its pooler_output is None)."""

import torch

from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu, built
from tests.tiny_configs import tiny_config


def test_patches_reach_the_lm_at_the_text_hidden_size_not_the_patch_size():
    raw = tiny_config("fuyu")
    assert raw["patch_size"] ** 2 * raw["num_channels"] != raw["text_config"]["hidden_size"]
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {"image": raw["text_config"]["hidden_size"]}


def test_the_feature_method_has_no_pooler_output_for_the_backend_to_ship():
    adapter, model = built(tiny_config("fuyu"))
    with torch.inference_mode():
        output = model.get_image_features(**adapter.dummy_item(model, "image", "minimal"))
    assert output.pooler_output is None
