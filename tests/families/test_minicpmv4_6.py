"""MiniCPM-V 4.6 / 4.7 at tiny scale: NaViT slices, a ViT window merger and a merger, at the text width."""

import pytest
import torch

import ecwidth
from ecwidth.families.adapter import adapter_for
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["minicpmv4_6", "minicpmv4_7"])
@pytest.mark.parametrize("mode", ["16x", "4x"])
def test_images_and_videos_ship_at_the_text_hidden_size(model_type, mode):
    raw = {**tiny_config(model_type), "downsample_mode": mode}
    result = ecwidth.measure(raw, device="cpu")
    width = raw["text_config"]["hidden_size"]
    assert result.widths == {"image": width, "video": width}


@pytest.mark.parametrize(("mode", "merge"), [("16x", 4), ("4x", 2)])
def test_minimal_is_one_token_and_the_profile_image_ten_slices(mode, merge):
    adapter = adapter_for("minicpmv4_6")
    model = build_on_cpu({**tiny_config("minicpmv4_6"), "downsample_mode": mode})
    per_slice = (112 // 14 // merge) ** 2
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
        video = adapter.encode(model, "video", adapter.dummy_item(model, "video", "profile"))
    assert minimal.shape[0] == 1
    assert profile.shape[0] == (9 + 1) * per_slice  # max_slice_nums slices plus the source image
    assert video.shape[0] == min(16, 64 // per_slice) * per_slice  # frames within max_model_len, at most 16
