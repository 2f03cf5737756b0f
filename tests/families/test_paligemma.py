"""PaliGemma at tiny scale: the top-level projection_dim is the width, not the nested one nor the text width."""

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_one_crop_is_its_patch_grid():
    config = resolve_spec(tiny_config("paligemma")).config  # 56 px crops, 14 px patches
    adapter = adapter_for("paligemma")
    assert adapter.embed_tokens(config, ItemSize("image", 1000, 300)) == 4 * 4
    assert adapter.profile_tokens(config, "image") == 16
