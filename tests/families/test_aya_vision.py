"""Aya Vision at tiny scale: the pixel-shuffle SwiGLU projector's output, at the text width."""

import ecwidth
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size_not_a_projector_width():
    raw = tiny_config("aya_vision")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    shuffled = raw["vision_config"]["hidden_size"] * raw["downsample_factor"] ** 2
    half_swiglu = raw["text_config"]["hidden_size"] // 2  # alignment_intermediate_size defaults to the text width
    assert result.widths["image"] not in (shuffled, half_swiglu)
