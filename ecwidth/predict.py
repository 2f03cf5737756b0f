"""Predict widths from a config alone, to be checked against the measurement."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ecwidth.adapter import find_adapter
from ecwidth.configs import ModelSpec, resolve_spec


def predict_widths(config: Any) -> dict[str, int]:
    """``{modality: width}`` from config fields; ``{}`` for a model with no multimodal encoder.

    ``config`` is a transformers config, a raw dict, a catalog name or a path.

    Raises:
        ConfigError, UnknownModelTypeError: The config cannot be used.
    """
    if isinstance(config, (str, Path, Mapping, ModelSpec)):
        config = resolve_spec(config).config
    adapter = find_adapter(config.model_type)
    return {} if adapter is None else adapter.predict(config)
