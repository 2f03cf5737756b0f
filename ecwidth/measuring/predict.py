"""Predict widths from a config alone, to be checked against the measurement."""

from __future__ import annotations

from typing import Any

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import ConfigError
from ecwidth.families.adapter import FamilyAdapter, find_adapter
from ecwidth.reading.configs import ModelSpec, resolve_spec


def predict_widths(
    config: Any, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
) -> dict[str, int]:
    """``{modality key: width}`` from config fields and runtime options, for an engine release;
    ``{}`` for a model with no multimodal encoder.

    ``config`` is anything ``resolve_spec`` takes: a catalog name, a path, a raw
    dict, a ModelSpec or a transformers config. ``video_pruning_rate`` is the
    engine's option (0: off); the channels it adds come from the family's rule.
    ``engine`` names the release (default: the newest vLLM); keys are its modality keys, and
    modalities it cannot ship with these options are left out.

    Raises:
        ConfigError, UnknownModelTypeError: The config cannot be used, or its fields give a width
            that is not a positive integer.
        NotServedError: The engine release does not serve the model type.
        UnsupportedOptionError: The family's engine class does not take an option that is set.
    """
    spec = resolve_spec(config)
    adapter = find_adapter(spec.config.model_type)
    if adapter is None:
        return {}
    release = releases.release(engine)
    adapter.check_served(spec.config, release)
    predicted = predict_for(spec, adapter, RuntimeOptions(video_pruning_rate=video_pruning_rate), release)
    return adapter.in_engine_keys(predicted, release)


def predict_for(spec: ModelSpec, adapter: FamilyAdapter, options: RuntimeOptions, release: Release) -> dict[str, int]:
    """``{modality: width}`` by the family's rule, in ecwidth's modality names, for a release it serves."""
    config = spec.config
    adapter.check_options(config, options, release)
    unserved = adapter.unserved(config, options, release)
    predicted = {
        modality: width + adapter.option_channels(config, modality, options)
        for modality, width in adapter.predict(config).items()
        if modality not in unserved
    }
    for modality, width in predicted.items():
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ConfigError(
                f"{spec.source}: its fields give a {modality} width of {width!r}, not a positive integer; "
                "check the fields the family's width comes from"
            )
    return predicted
