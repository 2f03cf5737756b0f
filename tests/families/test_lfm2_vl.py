"""LFM2-VL at tiny scale: SigLIP2 NaFlex patches, pixel unshuffle and a two-layer projector, at the text width."""

import torch

import ecwidth
from ecwidth.families.adapter import adapter_for
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_the_unshuffled_width():
    raw = tiny_config("lfm2_vl")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    assert result.widths["image"] != raw["vision_config"]["hidden_size"] * raw["downsample_factor"] ** 2


def test_profile_is_max_image_tokens_untiled_and_minimal_one_window():
    adapter = adapter_for("lfm2_vl")
    model = build_on_cpu(tiny_config("lfm2_vl"))
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    assert minimal.shape[0] == 1
    assert profile.shape[0] == 256  # vLLM's square profile image of the processor's max_image_tokens
    assert adapter.dummy_item(model, "image", "profile")["spatial_shapes"].tolist() == [[32, 32]]
