"""Every model family of the model-families issue has a registered adapter and a tiny config, so the contract runs."""

from ecwidth.families.adapter import supported_model_types
from tests.tiny_configs import tiny_model_types

# The issue's table, one config model_type per row entry.
ISSUE_MODEL_TYPES = (
    "qwen3_vl", "qwen3_vl_moe", "qwen3_omni_moe", "qwen2_5_omni", "qwen2_vl", "qwen2_5_vl", "qwen2_audio",
    "llava", "llava_next", "llava_onevision", "gemma3", "idefics3", "smolvlm", "mistral3", "llama4", "internvl",
    "qwen3_5", "qwen3_5_moe", "cohere_compass", "granite4_vision",
)  # fmt: skip


def test_every_issue_family_has_a_registered_adapter_and_a_tiny_config():
    assert not set(ISSUE_MODEL_TYPES) - set(supported_model_types()), "no adapter"
    assert not set(ISSUE_MODEL_TYPES) - set(tiny_model_types()), "no tiny config: the family contract skips it"
