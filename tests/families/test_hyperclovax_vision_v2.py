"""HyperCLOVAX Vision V2: vLLM ships mm_projector output (text hidden), not the Qwen2.5-VL merger's out_hidden_size."""

from __future__ import annotations

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_profile_is_vllms_448_image_and_16_frame_video():
    config = resolve_spec(tiny_config("hyperclovax_vision_v2")).config  # patch 14, merge 2, temporal 2
    adapter = adapter_for("hyperclovax_vision_v2")
    assert adapter.profile_tokens(config, "image") == (448 // 28) ** 2
    assert adapter.profile_tokens(config, "video") == 8 * (448 // 28) ** 2
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 256
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=4)) == 2 * 256
