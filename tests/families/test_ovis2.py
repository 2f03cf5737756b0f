"""Ovis2's port at tiny scale: the visual embedding table's hidden_size, not the text model's or the tower's."""

import ecwidth
from ecwidth.measuring.encode import dummy_shapes
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_top_level_hidden_size_not_the_stacked_patches():
    raw = tiny_config("ovis2")
    vision = raw["vision_config"]
    assert raw["hidden_size"] != vision["hidden_size"] * vision["hidden_stride"] ** 2
    assert ecwidth.measure(raw, device="cpu").widths == {"image": raw["hidden_size"]}


def test_a_tile_is_its_patch_grid_stacked_by_hidden_stride():
    raw = tiny_config("ovis2")
    vision = raw["vision_config"]
    rows = (vision["image_size"] // vision["patch_size"] // vision["hidden_stride"]) ** 2
    assert dummy_shapes(build_on_cpu(raw), dummy="minimal")["image"][0] == rows
