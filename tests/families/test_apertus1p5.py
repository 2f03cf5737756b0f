"""Apertus 1.5: image and audio features are LM token embeddings; predicted at the text width, never measured."""

import pytest

from ecwidth.engines import registry, releases
from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.families.adapter import adapter_for
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_and_audio_are_predicted_at_the_text_hidden_size_and_not_measured():
    raw = tiny_config("apertus1p5")
    config = resolve_spec(raw).config
    adapter = adapter_for("apertus1p5")
    hidden = raw["text_config"]["hidden_size"]
    assert adapter.predict(config) == {"image": hidden, "audio": hidden}
    assert adapter.config_modalities(config) == ()  # both are rows of the LM's embedding table
    assert "embedding table" in adapter.predicted_only["image"]


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_no_vllm_release_loads_it_through_the_backend(release):
    adapter = adapter_for("apertus1p5")
    assert registry.for_model_type(releases.release(release), adapter.model_types[0]).path == "backend"
    assert adapter.serving_for(release).serves is False  # the release's transformers pin predates the model type
