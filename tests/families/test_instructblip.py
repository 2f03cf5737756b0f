"""InstructBLIP and InstructBLIP-Video at tiny scale: the projected queries at the text width, per crop or frame."""

import pytest
from building import build_on_cpu
from tiny_configs import tiny_config

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.instructblip import PROFILE_FRAMES
from ecwidth.measuring.measure import dummy_shapes


@pytest.mark.parametrize(("model_type", "modality"), [("instructblip", "image"), ("instructblipvideo", "video")])
def test_items_ship_at_the_text_hidden_size_not_the_qformer_width(model_type, modality):
    raw = tiny_config(model_type)
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {modality: raw["text_config"]["hidden_size"]}
    assert result.widths[modality] not in (raw["qformer_config"]["hidden_size"], raw["vision_config"]["hidden_size"])
    assert "cannot ship" in adapter_for(model_type).engine


def test_a_video_yields_the_queries_once_per_frame():
    raw = tiny_config("instructblipvideo")
    shapes = dummy_shapes(build_on_cpu(raw), dummy="profile")
    assert shapes["video"][0] == PROFILE_FRAMES * raw["num_query_tokens"]
