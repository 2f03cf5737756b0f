"""Every model family of the model-families issue has a registered adapter."""

import pytest

from ecwidth.adapter import supported_model_types

# The issue's table, one config model_type per row entry.
ISSUE_MODEL_TYPES = (
    "qwen3_vl", "qwen3_vl_moe", "qwen3_omni_moe", "qwen2_5_omni", "qwen2_vl", "qwen2_5_vl", "qwen2_audio",
    "llava", "llava_next", "llava_onevision", "gemma3", "idefics3", "smolvlm", "mistral3", "llama4", "internvl",
    "qwen3_5", "qwen3_5_moe", "cohere_compass", "granite4_vision",
)  # fmt: skip


@pytest.mark.parametrize("model_type", ISSUE_MODEL_TYPES)
def test_issue_family_has_a_registered_adapter(model_type):
    assert model_type in supported_model_types()
