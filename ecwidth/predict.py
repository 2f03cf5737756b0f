"""Predict widths from a config alone, to be checked against the measurement."""

from __future__ import annotations

from typing import Any

from ecwidth.adapter import find_adapter
from ecwidth.configs import resolve_spec


def predict_widths(config: Any) -> dict[str, int]:
    """``{modality: width}`` from config fields; ``{}`` for a model with no multimodal encoder.

    ``config`` is anything ``resolve_spec`` takes: a catalog name, a path, a raw
    dict, a ModelSpec or a transformers config.

    Raises:
        ConfigError, UnknownModelTypeError: The config cannot be used.
    """
    config = resolve_spec(config).config
    adapter = find_adapter(config.model_type)
    return {} if adapter is None else adapter.predict(config)
