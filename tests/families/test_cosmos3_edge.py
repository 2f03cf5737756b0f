"""Cosmos3-Edge: transformers' merger ends at the text hidden size, not projector_hidden_size or the SigLIP width."""

from __future__ import annotations

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_width_is_the_text_hidden_size():
    raw = tiny_config("cosmos3_edge")
    expected = raw["text_config"]["hidden_size"]
    assert expected != raw["vision_config"]["hidden_size"] * 4  # the merged patches, before the projector
    result = measure(raw, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}


def test_both_vllm_releases_predict_the_same_width():
    raw = tiny_config("cosmos3_edge")
    assert predict_widths(raw, engine=VLLM_0_32) == predict_widths(raw, engine=VLLM_0_33)


def test_image_tokens_follow_the_pixel_budget():
    config = resolve_spec(tiny_config("cosmos3_edge")).config  # patch 16, merge 2: a token per 32×32
    adapter = adapter_for("cosmos3_edge")
    assert adapter.embed_tokens(config, ItemSize("image", 512, 512)) == 16 * 16
    assert adapter.embed_tokens(config, ItemSize("image", 64, 64)) == 8 * 8  # raised to 256² pixels
    assert adapter.profile_tokens(config, "image") == 16777216 // 32**2
