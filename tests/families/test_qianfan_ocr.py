"""Qianfan-OCR at tiny scale: InternViT tiles, pixel shuffle and mlp1, images only, at the text width."""

import ecwidth
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_the_shuffled_vit_width():
    raw = tiny_config("qianfan_ocr")
    result = ecwidth.measure(raw, device="cpu")
    shuffled = raw["vision_config"]["hidden_size"] * int(1 / raw["downsample_ratio"]) ** 2
    assert result.widths == {"image": raw["text_config"]["hidden_size"]} != {"image": shuffled}


def test_both_vllm_releases_predict_the_same_width():
    raw = tiny_config("qianfan_ocr")
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


def test_tokens_are_a_pixel_shuffled_tile_each_plus_a_thumbnail():
    config = resolve_spec(tiny_config("qianfan_ocr")).config
    adapter = adapter_for("qianfan_ocr")
    per_tile = (56 // 14) ** 2 // 4
    assert adapter.embed_tokens(config, ItemSize("image", height=56, width=56)) == per_tile
    assert adapter.embed_tokens(config, ItemSize("image", height=56, width=168)) == (3 + 1) * per_tile
    assert adapter.profile_tokens(config, "image") == (12 + 1) * per_tile
