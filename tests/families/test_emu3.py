"""Emu3: image features are LM token embeddings; predicted at the text width, never measured."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from tests.tiny_configs import tiny_config


def test_images_are_predicted_at_the_text_hidden_size_and_not_measured():
    raw = tiny_config("emu3")
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    with pytest.raises(UnmeasurableError, match="embedding table"):
        ecwidth.measure(raw, device="cpu")
