"""PaddleOCR-VL at tiny scale: the projector ends at the LM's hidden size; images only."""

from __future__ import annotations

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_width_is_the_text_hidden_size_not_the_stacked_patches() -> None:
    cfg = tiny_config("paddleocr_vl")
    expected = cfg["text_config"]["hidden_size"]
    assert expected != 4 * cfg["vision_config"]["hidden_size"]  # the projector's inside
    assert measure(cfg, device="cpu", dtype="float32").widths == {"image": expected}


def test_token_counts_and_vllm_s_profile_image() -> None:
    config = resolve_spec(tiny_config("paddleocr_vl")).config  # a token per 28×28 pixels
    adapter = adapter_for("paddleocr_vl")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    # 2359296 // 28² = 3009 tokens, cut to 54 × 55.
    assert adapter.profile_tokens(config, "image") == 54 * 55
