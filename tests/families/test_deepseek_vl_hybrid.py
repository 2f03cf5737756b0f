"""DeepSeek-VL hybrid at tiny scale: the aligner joins both towers' halves at the text width."""

import ecwidth
from ecwidth.measuring.encode import dummy_shapes
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_a_half_or_the_sam_projection():
    raw = tiny_config("deepseek_vl_hybrid")
    width = raw["text_config"]["hidden_size"]
    assert width not in (raw["high_res_vision_config"]["output_channels"] * 4, width // 2)
    assert ecwidth.measure(raw, device="cpu").widths == {"image": width}


def test_the_high_res_map_is_brought_to_the_siglip_grid():
    raw = tiny_config("deepseek_vl_hybrid")
    grid = (raw["vision_config"]["image_size"] // raw["vision_config"]["patch_size"]) ** 2
    assert dummy_shapes(build_on_cpu(raw), dummy="minimal")["image"][0] == grid
