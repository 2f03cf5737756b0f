"""Inkling2 and Inkling2-Loop at tiny scale: the merger's text_hidden_size, not its inner or merged widths."""

import pytest
import torch

import ecwidth
from ecwidth.errors import ConfigError
from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["inkling2", "inkling2_loop"])
def test_images_ship_at_the_mergers_text_hidden_size(model_type):
    raw = tiny_config(model_type)
    vision = raw["vision_config"]
    assert vision["text_hidden_size"] != vision["hidden_size"] * vision["spatial_merge_size"] ** 2
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {"image": vision["text_hidden_size"]}


def test_a_merger_width_other_than_the_text_width_is_refused_by_the_config():
    raw = tiny_config("inkling2")
    raw["vision_config"]["text_hidden_size"] += 8
    with pytest.raises((ConfigError, ValueError), match="text_hidden_size"):
        ecwidth.measure(raw, device="cpu")  # transformers' config check runs before any release's
