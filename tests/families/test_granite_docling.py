"""Granite-Docling at tiny scale: the Transformers backend's ``pooler_output``, its DeepStack levels dropped."""

import torch
from building import built
from tiny_configs import tiny_config

import ecwidth
from ecwidth.families.adapter import adapter_for


def test_images_ship_at_out_hidden_size_without_the_deepstack_levels():
    raw = tiny_config("granite_docling")
    levels = len(raw["vision_config"]["deepstack_visual_indexes"])
    assert levels > 0
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["vision_config"]["out_hidden_size"]}
    assert result.widths["image"] != raw["vision_config"]["out_hidden_size"] * (1 + levels)
    assert result.deepstack_levels == {"image": 0}


def test_transformers_returns_the_levels_the_backend_drops():
    raw = tiny_config("granite_docling")
    adapter, model = built(raw)
    with torch.inference_mode():
        output = model.get_image_features(**adapter.dummy_item(model, "image", "minimal"))
    assert len(output.deepstack_features) == len(raw["vision_config"]["deepstack_visual_indexes"])
    assert "dropped" in adapter_for("granite_docling").engine
