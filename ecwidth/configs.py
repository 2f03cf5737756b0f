"""Turn a catalog name, a ``config.json`` path or a dict into a checked config.

Checks happen on the raw published dict, before transformers fills in class
defaults: a default silently standing in for a missing field would give the
width of a model nobody published.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecwidth.adapter import find_adapter, supported_model_types
from ecwidth.catalog import catalog_entry, catalog_names
from ecwidth.errors import ConfigError, RemoteCodeError, UnknownModelTypeError

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


def _lookup(raw: Mapping[str, Any], dotted: str) -> Any:
    value: Any = raw
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def has_multimodal_encoder(raw: Mapping[str, Any]) -> bool:
    """Whether a raw config describes a model with a vision or audio encoder."""
    return any(key in raw for key in _ENCODER_KEYS)


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
    if "auto_map" in raw and not trust_remote_code:
        raise RemoteCodeError(
            f"{source}: the config asks for remote code (auto_map: {sorted(raw['auto_map'])}). "
            "ecwidth never runs model code from a hub by default; pass --trust-remote-code "
            "(trust_remote_code=True) if you trust it, or use the transformers-native config."
        )
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
        missing = [field for field in adapter.required_fields if _lookup(raw, field) is None]
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
        text = file.read_text()
    except OSError as error:
        raise ConfigError(
            f"cannot read {file}: {error.strerror or error}. Pass a config.json file or a folder holding one."
        ) from error
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{file} is not valid JSON: {error}") from error
    name = path.name if path.is_dir() else path.parent.name or file.stem
    return spec_from_dict(raw, name=name, source=str(file), trust_remote_code=trust_remote_code)


def resolve_spec(model: str | Path | Mapping[str, Any] | ModelSpec, *, trust_remote_code: bool = False) -> ModelSpec:
    """A catalog name, a path to a config, a raw dict, or a spec already made.

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
    looks_like_name = isinstance(model, str) and "/" not in model and not model.endswith(".json")
    if looks_like_name and not Path(model).exists():
        catalog_entry(model)  # raises, suggesting close catalog names
    return spec_from_path(model, trust_remote_code=trust_remote_code)
