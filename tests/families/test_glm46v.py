"""GLM-4.6V's transformers port through vLLM's Transformers backend: the GLM-4V merger's width, no pruning option."""

import pytest
from tiny_configs import tiny_config

from ecwidth.errors import UnsupportedOptionError
from ecwidth.measuring.measure import measure


@pytest.mark.parametrize("model_type", ["glm46v", "glmga"])
def test_width_is_the_merger_output_not_the_tower_or_the_lm(model_type):
    raw = tiny_config(model_type)
    expected = raw["vision_config"]["out_hidden_size"]
    assert expected not in (raw["vision_config"]["hidden_size"], raw["text_config"]["hidden_size"])
    assert measure(raw, device="cpu").widths == {"image": expected, "video": expected}


def test_the_backend_takes_no_video_pruning():
    with pytest.raises(UnsupportedOptionError, match="video_pruning_rate"):
        measure(tiny_config("glm46v"), device="cpu", video_pruning_rate=0.5)
