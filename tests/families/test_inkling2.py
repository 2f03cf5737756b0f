"""Inkling2 and Inkling2-Loop at tiny scale: the merger's text_hidden_size, not its inner or merged widths."""

import pytest
import torch

import ecwidth
from ecwidth.engines import registry, releases
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import ConfigError
from ecwidth.families.adapter import adapter_for
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


@pytest.mark.parametrize(("model_type", "first"), [("inkling2", "5.23.0"), ("inkling2_loop", "5.24.0")])
def test_no_vllm_release_can_load_them_through_its_backend(model_type, first):
    adapter = adapter_for(model_type)
    for release in (VLLM_0_32, VLLM_0_33):
        assert (
            registry.for_model_type(releases.release(release), adapter.model_types[0]).path == "backend"
            and registry.for_model_type(releases.release(release), adapter.model_types[0]).transformers == first
        )
        assert not adapter.serving_for(release).serves  # the release's transformers pin ends before it


def test_a_merger_width_other_than_the_text_width_is_refused_by_the_config():
    raw = tiny_config("inkling2")
    raw["vision_config"]["text_hidden_size"] += 8
    with pytest.raises((ConfigError, ValueError), match="text_hidden_size"):
        ecwidth.measure(raw, device="cpu")  # transformers' config check runs before any release's
