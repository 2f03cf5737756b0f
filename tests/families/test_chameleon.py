"""Chameleon: image features are LM token embeddings; predicted at the text width, never measured."""

import pytest
from tiny_configs import tiny_config

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths


def test_images_are_predicted_at_the_hidden_size_not_the_vq_embedding_and_not_measured():
    raw = tiny_config("chameleon")
    assert predict_widths(raw) == {"image": raw["hidden_size"]}
    assert raw["hidden_size"] != raw["vq_config"]["embed_dim"]
    with pytest.raises(UnmeasurableError, match="embedding table"):
        ecwidth.measure(raw, device="cpu")
