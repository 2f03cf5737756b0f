"""Voxtral at tiny scale: the projector's output, text_config.hidden_size wide, never the merged channels."""

from __future__ import annotations

import pytest
import torch

from ecwidth.errors import NoTokenRuleError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_items_are_full_windows_with_the_kept_rows() -> None:
    adapter, model = built(tiny_config("voxtral"))
    minimal = adapter.dummy_item(model, "audio", "minimal")
    capped = adapter.dummy_item(model, "audio", "profile", max_tokens=10)
    assert minimal["input_features"].shape == (1, 8, 3000)
    with torch.inference_mode():
        assert adapter.encode(model, "audio", minimal).shape == (1, 24)
        assert adapter.encode(model, "audio", capped).shape == (10, 24)


def test_no_token_rule() -> None:
    config = resolve_spec(tiny_config("voxtral")).config
    with pytest.raises(NoTokenRuleError):
        adapter_for("voxtral").embed_tokens(config, ItemSize("audio", seconds=30))
