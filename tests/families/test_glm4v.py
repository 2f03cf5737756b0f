"""GLM-4.1V/4.5V, GLM-OCR and GLM-5-Next at tiny scale.

vLLM's Glm4v-style towers ship the patch merger's output per item:
``vision_config.out_hidden_size`` wide, neither the tower's ``hidden_size``
nor the LM's.
"""

from __future__ import annotations

import pytest

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

MODEL_TYPES = ("glm4v", "glm4v_moe", "glm_ocr", "glm5_next")


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_width_is_the_merger_output(model_type: str) -> None:
    cfg = tiny_config(model_type)
    expected = cfg["vision_config"]["out_hidden_size"]
    result = measure(cfg, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}
    assert result.deepstack_levels == {"image": 0, "video": 0}


def test_video_pruning_adds_no_channels() -> None:
    cfg = tiny_config("glm4v")
    result = measure(cfg, device="cpu", dtype="float32", video_pruning_rate=0.5)
    width = cfg["vision_config"]["out_hidden_size"]  # the merger output, no channels added
    assert result.widths == result.predicted == {"image": width, "video": width}


def test_token_counts_follow_glm_smart_resize() -> None:
    config = resolve_spec(tiny_config("glm4v")).config  # patch 14, merge 2: a token per 28×28 pixels
    adapter = adapter_for("glm4v")
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16 * 16
    # The image budget counts the temporal pair: 2·h·w ≤ 11760000, so 4000² becomes 2408² (86² tokens).
    assert adapter.embed_tokens(config, ItemSize("image", 4000, 4000)) == 86 * 86
    assert adapter.profile_tokens(config, "image") == 86 * 86
    # 8 frames are 4 temporal groups, 7 frames too.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 4 * 16 * 16
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=7)) == 4 * 16 * 16
