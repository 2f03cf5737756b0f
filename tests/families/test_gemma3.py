"""Gemma 3 at tiny scale: SigLIP crops pooled to mm_tokens_per_image, shipped at the text width."""

import pytest

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("text_hidden", [None, 80])
def test_image_ships_at_the_text_hidden_size(text_hidden):
    cfg = tiny_config("gemma3")
    if text_hidden:
        cfg["text_config"]["hidden_size"] = text_hidden
    result = ecwidth.measure(cfg, device="cpu")
    assert result.widths == {"image": cfg["text_config"]["hidden_size"]}  # the projector maps to the text width
    assert result.predicted == result.widths


def test_minimal_item_is_one_pooling_window_and_profile_one_full_crop():
    cfg = tiny_config("gemma3")
    vision = cfg["vision_config"]
    adapter, model = built(cfg)
    text_hidden = cfg["text_config"]["hidden_size"]
    minimal = encoded(adapter, model, "image", "minimal")
    assert model.multi_modal_projector.patches_per_image == vision["image_size"] // vision["patch_size"]  # as built
    profile = encoded(adapter, model, "image", "profile")
    assert minimal.shape == (1, text_hidden)
    # 4 x 4 patches of a 56 px crop pooled in 2 x 2 windows: mm_tokens_per_image = 4.
    assert profile.shape == (2 * 2, text_hidden) == (cfg["mm_tokens_per_image"], text_hidden)
    assert adapter.profile_tokens(model.config, "image") == profile.shape[0]


@pytest.mark.parametrize("height, width", [(448, 448), (1024, 1024), (300, 1200)])
def test_every_image_is_one_crop_with_pan_and_scan_off(height, width):
    cfg = tiny_config("gemma3")
    config = resolve_spec(cfg).config
    adapter = adapter_for("gemma3")
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == cfg["mm_tokens_per_image"]
