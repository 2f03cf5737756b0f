"""Granite-Docling at tiny scale: the Transformers backend's ``pooler_output``, its DeepStack levels dropped."""

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.measure import measure_widths
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu, built
from tests.tiny_configs import tiny_config


def test_images_ship_at_out_hidden_size_without_the_deepstack_levels():
    raw = tiny_config("granite_docling")
    levels = len(raw["vision_config"]["deepstack_visual_indexes"])
    assert levels > 0
    with torch.inference_mode():
        widths = measure_widths(build_on_cpu(raw))
    assert widths == {"image": raw["vision_config"]["out_hidden_size"]}
    assert widths["image"] != raw["vision_config"]["out_hidden_size"] * (1 + levels)
    assert adapter_for("granite_docling").deepstack_levels(resolve_spec(raw).config, "image") == 0


def test_transformers_returns_the_levels_the_backend_drops():
    raw = tiny_config("granite_docling")
    adapter, model = built(raw)
    with torch.inference_mode():
        output = model.get_image_features(**adapter.dummy_item(model, "image", "minimal"))
    assert len(output.deepstack_features) == len(raw["vision_config"]["deepstack_visual_indexes"])
