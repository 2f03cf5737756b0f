"""Step3p7 at tiny scale: a ViT, two conv downsamplers (channels ×4) and one linear to the text width."""

import torch

import ecwidth
from ecwidth.families.adapter import adapter_for
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_the_downsampled_vit_width():
    raw = tiny_config("step3p7")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    assert result.widths["image"] != raw["vision_config"]["hidden_size"] * 4


def test_profile_is_local_crops_then_the_global_view():
    adapter = adapter_for("step3p7")
    model = build_on_cpu(tiny_config("step3p7"))
    global_tokens, crop_tokens = (56 // 14 // 4) ** 2, (504 // 14 // 4) ** 2  # two stride-2 convs
    assert adapter.dummy_item(model, "image", "profile")["pixel_values_local"].shape == (36, 3, 504, 504)
    item = adapter.dummy_item(model, "image", "profile", max_tokens=global_tokens + 2 * crop_tokens)
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
    assert packed.shape == (2 * crop_tokens + global_tokens, 40)
