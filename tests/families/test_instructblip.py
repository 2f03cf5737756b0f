"""InstructBLIP and InstructBLIP-Video at tiny scale: the projected queries at the text width, per crop or frame."""

import pytest
import torch

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import NotServedError
from ecwidth.families.instructblip import PROFILE_FRAMES
from ecwidth.measuring.encode import dummy_shapes
from ecwidth.measuring.measure import measure, measure_widths
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize(("model_type", "modality"), [("instructblip", "image"), ("instructblipvideo", "video")])
def test_items_are_built_at_the_text_hidden_size_and_no_release_measures_them(model_type, modality):
    raw = tiny_config(model_type)
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(raw)) == {modality: raw["text_config"]["hidden_size"]}
    for release in (VLLM_0_32, VLLM_0_33):
        with pytest.raises(NotServedError):
            measure(raw, device="cpu", engine=release)


def test_a_video_yields_the_queries_once_per_frame():
    raw = tiny_config("instructblipvideo")
    shapes = dummy_shapes(build_on_cpu(raw), dummy="profile")
    assert shapes["video"][0] == PROFILE_FRAMES * raw["num_query_tokens"]
