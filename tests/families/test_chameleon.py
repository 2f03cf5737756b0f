"""Chameleon: image features are LM token embeddings; predicted at the text width, never measured."""

from ecwidth.families.adapter import adapter_for
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_images_are_predicted_at_the_hidden_size_and_not_measured():
    raw = tiny_config("chameleon")
    config = resolve_spec(raw).config
    adapter = adapter_for("chameleon")
    assert adapter.predict(config) == {"image": raw["hidden_size"]}
    assert adapter.config_modalities(config) == ()  # rows of the LM's embedding table
