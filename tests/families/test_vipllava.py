"""VipLLaVA at tiny scale: the projector's output, at the text width, not its multi-layer input."""

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_the_projectors_input():
    raw = tiny_config("vipllava")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    projector_input = raw["vision_config"]["hidden_size"] * len(raw["vision_feature_layer"])
    assert result.widths["image"] != projector_input


def test_one_tile_is_its_patch_grid():
    raw = tiny_config("vipllava")
    patches = (raw["vision_config"]["image_size"] // raw["vision_config"]["patch_size"]) ** 2
    assert adapter_for("vipllava").embed_tokens(resolve_spec(raw).config, ItemSize("image", 500, 300)) == patches
