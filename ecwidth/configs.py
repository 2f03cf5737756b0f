"""Turn a catalog name, a ``config.json`` path, a dict or a transformers config into a checked config.

``resolve_spec`` is the one place that coerces "name, path, dict or config":
everything that takes a model by any of those goes through it.

Checks happen on the raw published dict, before transformers fills in class
defaults: a default silently standing in for a missing field would give the
width of a model nobody published.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecwidth.adapter import find_adapter, supported_model_types
from ecwidth.catalog import catalog_entry, catalog_names
from ecwidth.errors import ConfigError, RemoteCodeError, UnknownModelTypeError
from ecwidth.strict_json import StrictJSONError, loads_strict
from ecwidth.validate import check_values

#: Sub-config keys that only multimodal architectures carry.
_ENCODER_KEYS = ("vision_config", "audio_config", "thinker_config", "vision_tower", "mm_vision_tower")


@dataclass(frozen=True)
class ModelSpec:
    """A model to measure: its name, the raw dict, the transformers config, and provenance."""

    name: str
    raw: dict[str, Any]
    config: Any
    source: str

    @property
    def model_type(self) -> str:
        return self.raw["model_type"]

    @property
    def config_sha256(self) -> str:
        """Digest of the architecture config, so a table row can be traced to its input."""
        canonical = json.dumps(self.raw, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()


def has_multimodal_encoder(raw: Mapping[str, Any]) -> bool:
    """Whether a raw config describes a model with a vision or audio encoder."""
    return any(key in raw for key in _ENCODER_KEYS)


class NativeClassesWarning(UserWarning):
    """A config carries ``auto_map``, but transformers serves its ``model_type`` natively: no remote code runs."""


def _check_remote_code(raw: Mapping[str, Any], model_type: str, *, source: str, trust_remote_code: bool) -> None:
    """Refuse remote code, unless the user allows it or transformers serves the ``model_type`` itself.

    Published configs (Kimi-K2.5, MiniMax-M3) often keep the ``auto_map`` of
    their remote-code days after transformers gained native classes. As in
    transformers, the native classes then win and no remote code runs, so the
    config is accepted with one line saying so.

    Raises:
        ConfigError: ``auto_map`` is not an object.
        RemoteCodeError: Only remote code serves the model_type and ``trust_remote_code`` is off.
    """
    import warnings

    from transformers import CONFIG_MAPPING

    auto_map = raw["auto_map"]
    if not isinstance(auto_map, Mapping):
        raise ConfigError(
            f"{source}: field 'auto_map' must be an object mapping auto classes to code, got {type(auto_map).__name__}"
        )
    if model_type in CONFIG_MAPPING:
        warnings.warn(
            f"{source}: ignoring auto_map; transformers serves model_type {model_type!r} natively, "
            "so ecwidth uses its native classes and runs no remote code",
            NativeClassesWarning,
            stacklevel=3,
        )
        return
    if not trust_remote_code:
        raise RemoteCodeError(
            f"{source}: the config asks for remote code (auto_map: {sorted(auto_map)}). "
            "ecwidth never runs model code from a hub by default; pass --trust-remote-code "
            "(trust_remote_code=True) if you trust it, or use the transformers-native config."
        )


def spec_from_dict(
    raw: Mapping[str, Any], *, name: str, source: str, trust_remote_code: bool = False
) -> ModelSpec:
    """Validate a raw config dict and build its transformers config.

    Raises:
        ConfigError: Not an object, no ``model_type``, a field the family needs is
            missing, or transformers rejects the values.
        RemoteCodeError: The config asks for remote code and ``trust_remote_code`` is off.
        UnknownModelTypeError: A multimodal ``model_type`` no adapter serves.
    """
    from transformers import CONFIG_MAPPING

    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: a config must be a JSON object, got {type(raw).__name__}")
    raw = dict(raw)
    model_type = raw.get("model_type")
    if not isinstance(model_type, str):
        raise ConfigError(f"{source}: no 'model_type' field; is this a transformers config.json?")
    check_values(raw, source=source)
    if "auto_map" in raw:
        _check_remote_code(raw, model_type, source=source, trust_remote_code=trust_remote_code)
    adapter = find_adapter(model_type)
    if adapter is None and has_multimodal_encoder(raw):
        raise UnknownModelTypeError(
            f"{source}: no ecwidth adapter for model_type {model_type!r}; "
            f"supported: {', '.join(supported_model_types())}"
        )
    if model_type not in CONFIG_MAPPING:
        raise UnknownModelTypeError(
            f"{source}: transformers does not know model_type {model_type!r}; "
            f"ecwidth supports: {', '.join(supported_model_types())}"
        )
    if adapter is not None:
        missing = adapter.missing_fields(raw)
        if missing:
            raise ConfigError(
                f"{source}: model_type {model_type!r} needs {', '.join(repr(f) for f in missing)}, "
                "which the config lacks; copy it from the model's published config.json"
            )
    try:
        config = CONFIG_MAPPING[model_type].from_dict(raw)
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise ConfigError(f"{source}: transformers rejects this {model_type} config: {error}") from error
    return ModelSpec(name=name, raw=raw, config=config, source=source)


def spec_from_path(path: str | Path, *, trust_remote_code: bool = False) -> ModelSpec:
    """Read a ``config.json`` file, or a folder that holds one.

    Raises:
        ConfigError: The path is missing, unreadable, or not valid JSON; see ``spec_from_dict``.
    """
    path = Path(path)
    file = path / "config.json" if path.is_dir() else path
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(
            f"cannot read {file}: {error.strerror or error}. Pass a config.json file or a folder holding one."
        ) from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{file} is not UTF-8 text ({error.reason}); a config.json is JSON text") from error
    try:
        raw = loads_strict(text)
    except StrictJSONError as error:
        raise ConfigError(f"{file}: {error}") from error
    name = path.name if path.is_dir() else path.parent.name or file.stem
    return spec_from_dict(raw, name=name, source=str(file), trust_remote_code=trust_remote_code)


def resolve_spec(
    model: str | Path | Mapping[str, Any] | ModelSpec | Any, *, trust_remote_code: bool = False
) -> ModelSpec:
    """A catalog name, a path to a config, a raw dict, a transformers config, or a spec already made.

    A transformers config object is taken as it is (its fields are not checked
    again); its ``raw`` is ``config.to_dict()``, defaults included.

    Raises:
        ConfigError: Neither a catalog name nor a readable path; see ``spec_from_dict``.
    """
    if isinstance(model, ModelSpec):
        return model
    if isinstance(model, Mapping):
        name = str(model.get("model_type", "config"))
        return spec_from_dict(model, name=name, source="config dict", trust_remote_code=trust_remote_code)
    if isinstance(model, str) and model in catalog_names():
        entry = catalog_entry(model)
        return spec_from_dict(entry.config, name=entry.name, source=f"catalog:{entry.name}")
    if not isinstance(model, (str, os.PathLike)):
        return _spec_from_config(model)
    looks_like_name = isinstance(model, str) and "/" not in model and not model.endswith(".json")
    if looks_like_name and not Path(model).exists():
        catalog_entry(model)  # raises, suggesting close catalog names
    return spec_from_path(model, trust_remote_code=trust_remote_code)


def _spec_from_config(config: Any) -> ModelSpec:
    """A spec around a transformers config object.

    Raises:
        ConfigError: ``config`` is not a transformers config.
    """
    from transformers import PretrainedConfig

    if not isinstance(config, PretrainedConfig):
        raise ConfigError(
            f"cannot use a {type(config).__name__} as a model: pass a catalog name, a config.json path, "
            "a raw config dict, a ModelSpec or a transformers config"
        )
    name = getattr(config, "name_or_path", "") or config.model_type
    return ModelSpec(name=name, raw=config.to_dict(), config=config, source=f"{type(config).__name__} object")
