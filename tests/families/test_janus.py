"""Janus at tiny scale: the aligner's projection_dim is the width, whatever the text hidden size."""

import ecwidth
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_aligner_projection_dim():
    raw = tiny_config("janus")
    expected = raw["vision_config"]["projection_dim"]
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": expected}
    assert result.predicted == result.widths
