"""Chameleon: image features are LM token embeddings; predicted at the text width, never measured."""

import pytest

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.families.adapter import adapter_for
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_are_predicted_at_the_hidden_size_and_not_measured():
    raw = tiny_config("chameleon")
    config = resolve_spec(raw).config
    adapter = adapter_for("chameleon")
    assert adapter.predict(config) == {"image": raw["hidden_size"]}
    assert adapter.config_modalities(config) == ()  # rows of the LM's embedding table


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_no_vllm_release_serves_its_images(release):
    config = resolve_spec(tiny_config("chameleon")).config
    assert config.get_text_config() is config  # flat: vLLM's backend fallback for it is the text-only class
    assert adapter_for("chameleon").serving_for(release).serves is False
