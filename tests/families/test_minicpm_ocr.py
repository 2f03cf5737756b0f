"""MiniCPM-OCR at tiny scale: MiniCPM-V 4.6's merger at the text width, in its default 4x mode."""

import torch

from ecwidth.families.minicpm_ocr import SCALE_RESOLUTION
from ecwidth.measuring.encode import dummy_shapes
from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_and_videos_ship_at_the_text_hidden_size():
    raw = tiny_config("minicpm_ocr")
    width = raw["text_config"]["hidden_size"]
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {"image": width, "video": width}


def test_the_default_4x_mode_keeps_one_token_per_2x2_patches():
    raw = tiny_config("minicpm_ocr")
    assert "downsample_mode" not in raw  # the family's default, 4x
    model = build_on_cpu(raw)
    assert model.config.downsample_mode == "4x"
    unit = (SCALE_RESOLUTION // raw["vision_config"]["patch_size"] // 2) ** 2  # one merge of 2x2, no ViT merger
    assert dummy_shapes(model, dummy="profile", max_tokens=unit)["image"][0] == unit
