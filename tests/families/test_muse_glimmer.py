"""Muse Glimmer: vLLM ships vision_projection output (text hidden), not out_hidden_size or projector_hidden_size."""

from __future__ import annotations

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.measuring.predict import predict_widths
from tests.building import built
from tests.tiny_configs import tiny_config


def test_both_vllm_releases_predict_the_same_width():
    raw = tiny_config("muse_glimmer")
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


def test_profile_items_are_vllms_dummies():
    adapter, model = built(tiny_config("muse_glimmer"))  # merge 2
    image = adapter.dummy_item(model, "image", "profile")
    video = adapter.dummy_item(model, "video", "profile")
    assert image["image_grid_thw"].tolist() == [[1, 128, 128]]  # 64² = 4096 tokens
    assert video["video_grid_thw"].tolist() == [[48, 24, 24]]  # 96 frames in pairs, 12² = 144 tokens each
