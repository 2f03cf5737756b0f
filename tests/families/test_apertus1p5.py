"""Apertus 1.5: image and audio features are LM token embeddings; predicted at the text width, never measured."""

import pytest
from tiny_configs import tiny_config

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths


def test_images_and_audio_are_predicted_at_the_text_hidden_size_and_not_measured():
    raw = tiny_config("apertus1p5")
    hidden = raw["text_config"]["hidden_size"]
    assert predict_widths(raw) == {"image": hidden, "audio": hidden}
    with pytest.raises(UnmeasurableError, match="embedding table"):
        ecwidth.measure(raw, device="cpu")
