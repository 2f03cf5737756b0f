"""Command-A Vision at tiny scale: SigLIP tiles, pixel shuffle and a SwiGLU projector, at the text width."""

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_a_projector_width():
    raw = tiny_config("cohere2_vision")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    half_swiglu = raw["alignment_intermediate_size"] // 2
    assert result.widths["image"] not in (raw["vision_config"]["hidden_size"] * 4, half_swiglu)


def test_tokens_are_shuffled_tiles_of_the_canvas_plus_a_thumbnail():
    config = resolve_spec(tiny_config("cohere2_vision")).config
    adapter = adapter_for("cohere2_vision")
    per_tile = (64 // 16 // 2) ** 2
    assert adapter.embed_tokens(config, ItemSize("image", height=64, width=64)) == per_tile  # one tile, no thumbnail
    assert adapter.embed_tokens(config, ItemSize("image", height=64, width=128)) == (2 + 1) * per_tile
    assert adapter.embed_tokens(config, ItemSize("image", height=100, width=100)) == (4 + 1) * per_tile  # 2x2 fits
    # vLLM's profile image is max_patches tiles tall: a 1x12 canvas plus the thumbnail.
    assert adapter.profile_tokens(config, "image") == (12 + 1) * per_tile
