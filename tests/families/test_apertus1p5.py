"""Apertus 1.5: image and audio features are LM token embeddings; predicted at the text width, never measured."""

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
