"""DeepSeek-VL at tiny scale: the aligner's output, at the text width, not SigLIP's."""

import ecwidth
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size():
    raw = tiny_config("deepseek_vl")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
