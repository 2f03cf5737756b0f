"""Predict widths from a config alone, to be checked against the measurement."""

from __future__ import annotations

from typing import Any

from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import ConfigError
from ecwidth.families.adapter import find_adapter
from ecwidth.reading.configs import resolve_spec


def predict_widths(config: Any, *, video_pruning_rate: float = 0.0) -> dict[str, int]:
    """``{modality: width}`` from config fields and runtime options; ``{}`` for a model with no multimodal encoder.

    ``config`` is anything ``resolve_spec`` takes: a catalog name, a path, a raw
    dict, a ModelSpec or a transformers config. ``video_pruning_rate`` is the
    engine's option (0: off); the channels it adds come from the family's rule.

    Raises:
        ConfigError, UnknownModelTypeError: The config cannot be used, or its fields give a width
            that is not a positive integer.
        UnsupportedOptionError: The family does not take an option that is set.
    """
    spec = resolve_spec(config)
    config = spec.config
    adapter = find_adapter(config.model_type)
    if adapter is None:
        return {}
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    adapter.check_options(config, options)
    predicted = adapter.predict(config)
    if options.set_options():
        predicted = {m: w + adapter.option_channels(config, m, options) for m, w in predicted.items()}
    for modality, width in predicted.items():
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ConfigError(
                f"{spec.source}: its fields give a {modality} width of {width!r}, not a positive integer; "
                "check the fields the family's width comes from"
            )
    return predicted
