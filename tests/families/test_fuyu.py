"""Fuyu at tiny scale: one row per patch at the text width, from last_hidden_state (its pooler_output is None)."""

import torch
from building import built
from tiny_configs import tiny_config

import ecwidth
from ecwidth.families.adapter import adapter_for


def test_patches_ship_at_the_text_hidden_size_not_the_patch_size():
    raw = tiny_config("fuyu")
    assert raw["patch_size"] ** 2 * raw["num_channels"] != raw["text_config"]["hidden_size"]
    assert ecwidth.measure(raw, device="cpu").widths == {"image": raw["text_config"]["hidden_size"]}


def test_the_feature_method_has_no_pooler_output_for_the_backend_to_ship():
    adapter, model = built(tiny_config("fuyu"))
    with torch.inference_mode():
        output = model.get_image_features(**adapter.dummy_item(model, "image", "minimal"))
    assert output.pooler_output is None
    assert "cannot ship" in adapter_for("fuyu").engine
