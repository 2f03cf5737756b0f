"""HunYuan-VL at tiny scale: the merger ships the text hidden size, whatever out_hidden_size or a stale text_hidden_size say."""

import ecwidth
from ecwidth.measuring.encode import dummy_shapes
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size():
    raw = tiny_config("hunyuan_vl")
    vision = raw["vision_config"]
    width = raw["text_config"]["hidden_size"]
    assert width != vision["text_hidden_size"]  # stale: the config overwrites it with the text hidden size
    assert ecwidth.measure(raw, device="cpu").widths == {"image": width}


def test_a_flat_config_reads_the_width_from_its_top_level():
    raw = tiny_config("hunyuan_vl")
    flat = {**raw.pop("text_config"), **raw}
    assert ecwidth.measure(flat, device="cpu").widths == {"image": flat["hidden_size"]}


def test_rows_are_the_merged_grid_with_a_newline_per_row_and_two_boundaries():
    shapes = dummy_shapes(build_on_cpu(tiny_config("hunyuan_vl")), dummy="minimal")
    assert shapes["image"][0] == 1 * (1 + 1) + 2  # one merged patch, its newline, begin and end
