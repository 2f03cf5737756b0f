"""Molmo2 at tiny scale: pooled multi-layer crop features projected to adapter_config.text_hidden_size."""

import torch

from ecwidth.families.adapter import adapter_for
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_profile_image_is_max_crops_plus_low_res_pooled_2x2():
    adapter = adapter_for("molmo2")
    model = build_on_cpu(tiny_config("molmo2"))
    with torch.inference_mode():
        image = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
        video = adapter.encode(model, "video", adapter.dummy_item(model, "video", "profile"))
    assert image.shape[0] == (8 + 1) * (4 // 2) ** 2  # 4x4-patch crops
    assert video.shape[0] == 64 // 4 * 4  # frames of ceil(4 / 3)² tokens filling max_model_len (64)
