"""MiniMax-M3-VL: the patch-merge MLP ends at the text hidden size, not projector_hidden_size or text hidden × merge²."""

from __future__ import annotations

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_token_counts():
    config = resolve_spec(tiny_config("minimax_m3_vl")).config  # patch 14, merge 2
    adapter = adapter_for("minimax_m3_vl")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    assert adapter.profile_tokens(config, "image") == (672 // 28) ** 2  # largest square within 451584 pixels
    assert adapter.profile_tokens(config, "video") == 768  # one frame group at 768 tokens a frame


def test_the_published_remote_code_schema_is_translated():
    published = tiny_config("minimax_m3_vl")
    vision = published["vision_config"]
    merge = vision.pop("spatial_merge_size")
    vision["img_token_compression_config"] = {
        "spatial_merge_size": merge,
        "temporal_patch_size": vision.pop("temporal_patch_size", 2),
    }
    vision["model_type"] = "clip_vision_model"
    assert resolve_spec(published).config.vision_config.spatial_merge_size == merge
