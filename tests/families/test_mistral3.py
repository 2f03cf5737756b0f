"""Mistral 3 at tiny scale: Pixtral patches merged 2 x 2 and projected to the text width."""

import pytest

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config


def test_image_ships_at_the_text_hidden_size():
    cfg = tiny_config("mistral3")
    cfg["text_config"]["hidden_size"] = 80
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == result.predicted == {"image": 80}  # the projector's second linear


def test_profile_item_is_the_longest_edge_square_capped_in_merged_patches():
    cfg = tiny_config("mistral3")
    adapter, model = built(cfg)
    minimal = encoded(adapter, model, "image", "minimal")
    profile = encoded(adapter, model, "image", "profile")
    capped = encoded(adapter, model, "image", "profile", max_tokens=10)
    floor = encoded(adapter, model, "image", "profile", max_tokens=1)
    text_hidden = cfg["text_config"]["hidden_size"]
    merged_side = cfg["vision_config"]["image_size"] // (cfg["vision_config"]["patch_size"] * cfg["spatial_merge_size"])
    assert minimal.shape == (2, text_hidden)  # a 1 x 2 strip of merged patches
    assert profile.shape == (merged_side**2, text_hidden)  # the 112 px longest edge: 4 x 4 merged patches of 28 px
    assert adapter.profile_tokens(model.config, "image") == profile.shape[0]
    assert capped.shape == (3 * 3, text_hidden)
    assert floor.shape == minimal.shape


@pytest.mark.parametrize(
    "height, width, tokens",
    [
        (56, 84, 2 * 3),  # whole merged patches of 28 px
        (30, 30, 2 * 2),  # a partial merged patch counts as one
        (448, 224, 4 * 2),  # shrunk to the 112 px longest edge first
    ],
)
def test_image_tokens_follow_the_engine(height, width, tokens):
    config = resolve_spec(tiny_config("mistral3")).config
    adapter = adapter_for("mistral3")
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tokens
