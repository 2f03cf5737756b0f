"""GLM-4.6V's transformers port through vLLM's Transformers backend: the GLM-4V merger's width, no pruning option."""

import pytest

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import UnsupportedOptionError
from ecwidth.measuring.measure import measure
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["glm46v", "glmga"])
def test_width_is_the_merger_output(model_type):
    raw = tiny_config(model_type)
    expected = raw["vision_config"]["out_hidden_size"]
    assert measure(raw, device="cpu").widths == {"image": expected, "video": expected}


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_the_backend_takes_no_video_pruning(release):
    with pytest.raises(UnsupportedOptionError, match="video_pruning_rate"):
        measure(tiny_config("glm46v"), device="cpu", video_pruning_rate=0.5, engine=release)
