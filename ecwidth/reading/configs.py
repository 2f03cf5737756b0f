"""Turn a catalog name, a hub id, a config path, a dict or a transformers config into a checked config.

``resolve_spec`` is the one place that coerces "name, hub id, path, dict or
config": everything that takes a model by any of those goes through it; where a
string names one is ``ecwidth.reading.sources``.

Checks happen on the raw published dict, before transformers fills in class
defaults: a default silently standing in for a missing field would give the
width of a model nobody published.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ecwidth.engines import registry
from ecwidth.errors import ConfigError, NotServedError, RemoteCodeError, UnknownModelTypeError, one_line
from ecwidth.families.adapter import FamilyAdapter, family_key, find_adapter, no_adapter
from ecwidth.families.snapshot import snapshot_adapter
from ecwidth.reading.mistral import PARAMS_FILE, config_from_params
from ecwidth.reading.snapshot_code import snapshot_config
from ecwidth.reading.sources import checkpoint_config, locate, path_name
from ecwidth.reading.validate import check_values
from ecwidth.records.strict_json import StrictJSONError, TooLargeError, loads_strict, read_bounded

#: The largest config file ecwidth reads: 10x the largest published one it knows (MiniMax-M3-NVFP4's
#: config.json, 3.2 MB, which lists 22,422 quantized layers); a file past it is refused unread.
MAX_CONFIG_BYTES = 32 << 20

#: Sub-config keys that only multimodal architectures carry.
_ENCODER_KEYS = ("vision_config", "audio_config", "thinker_config", "vision_tower", "mm_vision_tower")


@dataclass(frozen=True)
class ModelSpec:
    """A model to measure: its name, the raw dict, the transformers config, and provenance."""

    name: str
    raw: dict[str, Any]
    config: Any
    source: str
    #: whether ``config`` comes from the checkpoint's own code (``--trust-remote-code``), to be built from it too.
    runs_snapshot_code: bool = False

    @property
    def model_type(self) -> str:
        """The config's ``model_type``, or the family's own key where a family is picked by architecture."""
        return family_key(self.raw)

    @property
    def adapter(self) -> FamilyAdapter | None:
        """The family that answers this spec, built from the checkpoint's own code where ``runs_snapshot_code``."""
        family = find_adapter(self.model_type)
        return snapshot_adapter(family) if family is not None and self.runs_snapshot_code else family

    @property
    def config_sha256(self) -> str:
        """Digest of the architecture config, so a table row can be traced to its input."""
        canonical = json.dumps(self.raw, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()


def has_multimodal_encoder(raw: Mapping[str, Any]) -> bool:
    """Whether a raw config describes a model with a vision or audio encoder."""
    return any(key in raw for key in _ENCODER_KEYS)


class EngineConfig:
    """The raw config of an ``engine_only`` family, read as attributes (nested objects too); read-only.

    transformers has no class for such a ``model_type``, so nothing fills in
    defaults: a field the config lacks is an ``AttributeError``, and the
    family's ``predict`` applies the engine's own defaults where it has them.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._fields[name]
        except KeyError:
            raise AttributeError(f"the {self._fields.get('model_type', 'sub-')}config has no field {name!r}") from None
        return EngineConfig(value) if isinstance(value, Mapping) else value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an engine-only config is read-only; cannot set {name!r}")

    def to_dict(self) -> dict[str, Any]:
        return _copied(self._fields)


def _copied(tree: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a config's dict with its nested dicts and lists: ``copy.deepcopy``'s result, 3x sooner on JSON.

    A published config can hold tens of thousands of quantized-layer entries,
    and a spec copies its dict three times. JSON's scalars are immutable and
    shared; any other value goes to ``deepcopy``.
    """
    return {key: _copied_value(value) for key, value in tree.items()}


_JSON_SCALARS = (str, int, float, bool, type(None))


def _copied_value(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copied_value(item) for key, item in value.items()}
    if kind is list:
        return [_copied_value(item) for item in value]
    return value if kind in _JSON_SCALARS else copy.deepcopy(value)


#: model_types whose ``auto_map`` this process has already said it ignores.
_NATIVE_NOTED: set[str] = set()


class NativeClassesWarning(UserWarning):
    """A config carries ``auto_map``, but transformers serves its ``model_type`` natively: no remote code runs."""


def _check_remote_code(raw: Mapping[str, Any], model_type: str, *, source: str, trust_remote_code: bool) -> None:
    """Refuse remote code, unless the user allows it or transformers serves the ``model_type`` itself.

    Published configs (Kimi-K2.5, MiniMax-M3) often keep the ``auto_map`` of
    their remote-code days after transformers gained native classes. As in
    transformers, the native classes then win and no remote code runs, so the
    config is accepted with one line saying so.

    Raises:
        ConfigError: ``auto_map`` is not an object of code names.
        RemoteCodeError: Only remote code serves the model_type and ``trust_remote_code`` is off.
    """
    import warnings

    from transformers import CONFIG_MAPPING

    auto_map = raw["auto_map"]
    if not isinstance(auto_map, Mapping):
        raise ConfigError(
            f"{source}: field 'auto_map' must be an object mapping auto classes to code, got {type(auto_map).__name__}"
        )
    for auto_class, code in auto_map.items():
        names = code if isinstance(code, list) else [code]  # a tokenizer maps to [slow, fast], either null
        if not all(name is None or isinstance(name, str) for name in names) or not any(names):
            raise ConfigError(
                f"{source}: field 'auto_map.{auto_class}' must name code as \"module.Class\" (or a list of them), "
                f"got {code!r}"
            )
    if model_type in CONFIG_MAPPING:
        if model_type in _NATIVE_NOTED:  # once per model_type and process: a survey of many says it once
            return
        _NATIVE_NOTED.add(model_type)
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


@contextmanager
def _sub_configs_unprinted() -> Iterator[None]:
    """For the block, a transformers config's ``repr`` is its class name, not its JSON.

    A typed sub-config field (``dict | VisionConfig | None``) checks the value
    against ``dict`` first, and huggingface_hub writes the failed check's
    message, with the value's ``repr``, before it tries the next type and drops
    the message: each sub-config set is serialized whole, its own sub-configs
    included. That was 11 of the 15 ms of reading Qwen3-Omni's config, and 30%
    of reading the catalog's. A message that is raised names the class instead.
    """
    from transformers import PretrainedConfig

    original = PretrainedConfig.__repr__
    PretrainedConfig.__repr__ = lambda config: f"<{type(config).__name__}>"
    try:
        yield
    finally:
        PretrainedConfig.__repr__ = original


def _refused_architecture(raw: Mapping[str, Any]) -> str | None:
    """Why no engine release serves the config's first architecture, where the registries say so and no family
    answers it (Whisper, an encoder-decoder language model); None otherwise."""
    names = raw.get("architectures")
    first = names[0] if isinstance(names, list) and names and isinstance(names[0], str) else ""
    entry = registry.for_architecture(first)
    if entry is None or entry.family or entry.serves:
        return None
    return f"no engine release ecwidth knows serves {first} through the EC path: {entry.why_not}"


def spec_from_dict(raw: Mapping[str, Any], *, name: str, source: str, trust_remote_code: bool = False) -> ModelSpec:
    """Validate a raw config dict and build its transformers config.

    Raises:
        ConfigError: Not an object, no ``model_type``, a field the family needs is
            missing, or transformers rejects the values.
        RemoteCodeError: The config asks for remote code and ``trust_remote_code`` is off.
        UnknownModelTypeError: A multimodal ``model_type`` no adapter serves.
        NotServedError: The config's architecture is one no engine release serves (the registries say why).
    """
    from huggingface_hub.errors import StrictDataclassError  # what transformers' typed config fields raise
    from transformers import CONFIG_MAPPING

    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: a config must be a JSON object, got {type(raw).__name__}")
    raw = _copied(raw)  # the caller's dict (a cached catalog entry) stays as given
    model_type = raw.get("model_type")
    if not isinstance(model_type, str):
        raise ConfigError(f"{source}: no 'model_type' field; is this a transformers config.json?")
    check_values(raw, source=source)
    model_type = family_key(raw)
    adapter = find_adapter(model_type)
    engine_only = adapter is not None and adapter.engine_only
    if "auto_map" in raw and not engine_only:  # an engine-only family is only read: no code of any kind runs
        _check_remote_code(raw, model_type, source=source, trust_remote_code=trust_remote_code)
    if adapter is None and (refused := _refused_architecture(raw)) is not None:
        raise NotServedError(f"{source}: {refused}")
    if adapter is None and has_multimodal_encoder(raw):
        raise UnknownModelTypeError(f"{source}: {no_adapter(model_type)}")
    if model_type not in CONFIG_MAPPING and not engine_only:
        if adapter is not None:  # a family ecwidth has, under a transformers older than its classes
            raise UnknownModelTypeError(f"{source}: {adapter.transformers_needed(model_type)}")
        raise UnknownModelTypeError(
            f"{source}: transformers does not know model_type {model_type!r}, and {no_adapter(model_type)}"
        )
    native = raw
    if adapter is not None:
        native = adapter.translate({**_copied(raw), "model_type": model_type})
        missing = adapter.missing_fields(native)
        if missing:
            raise ConfigError(
                f"{source}: model_type {model_type!r} needs {', '.join(repr(f) for f in missing)}, "
                "which the config lacks; copy it from the model's published config.json"
            )
    if engine_only:
        return ModelSpec(name=name, raw=raw, config=EngineConfig(native), source=source)
    try:
        # What ``from_dict`` does with no keywords, less its log line, whose f-string serializes the
        # whole config (and builds a default one to diff against) even with logging off.
        with _sub_configs_unprinted():
            config = CONFIG_MAPPING[model_type](**_copied(native))  # transformers fills nested dicts in place
    except (TypeError, ValueError, KeyError, AttributeError, StrictDataclassError) as error:
        raise ConfigError(f"{source}: transformers rejects this {model_type} config: {one_line(error)}") from error
    return ModelSpec(name=name, raw=raw, config=config, source=source)


def spec_from_path(path: str | Path, *, name: str | None = None, trust_remote_code: bool = False) -> ModelSpec:
    """Read a config file (``config.json`` or any ``*.json``), or a folder that holds ``config.json``; a
    Mistral-format ``params.json`` (the file, or a folder holding it and no ``config.json``) is read as vLLM reads it.

    The spec is called ``name``, else after the path (see ``ecwidth.reading.sources.path_name``).

    Raises:
        ConfigError: The path is missing, unreadable, past ``MAX_CONFIG_BYTES``, or not valid JSON; see
            ``spec_from_dict``.
    """
    path = Path(path)
    if "\0" in str(path):  # os.stat would raise a bare ValueError
        raise ConfigError(f"cannot read {str(path)[:200]!r}: a path never holds a NUL character")
    try:
        file = checkpoint_config(path) if path.is_dir() else path
        if file.exists() and not file.is_file():  # a FIFO or a device would be read until it ends, if ever
            raise ConfigError(f"{file} is not a regular file; pass a config.json file or a folder holding one")
    except OSError as error:  # a name past the filesystem's limits (ENAMETOOLONG)
        raise ConfigError(f"cannot read {str(path)[:200]}: {error.strerror or error}") from None
    try:
        text = read_bounded(file, MAX_CONFIG_BYTES, what="config.json").decode("utf-8")
    except TooLargeError as error:
        raise ConfigError(f"{file}: {error}") from None
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
    if file.name == PARAMS_FILE:
        raw = config_from_params(raw, source=str(file))
    spec = spec_from_dict(raw, name=name or path_name(path), source=str(file), trust_remote_code=trust_remote_code)
    code = getattr(find_adapter(spec.model_type), "snapshot_code", None)
    if trust_remote_code and code is not None and "auto_map" in spec.raw:
        config = snapshot_config(file.parent, spec.raw, auto_class=code.auto_class, source=str(file))
        spec = replace(spec, config=config, runs_snapshot_code=True)
    return spec


def resolve_spec(
    model: str | Path | Mapping[str, Any] | ModelSpec | Any,
    *,
    name: str | None = None,
    trust_remote_code: bool = False,
) -> ModelSpec:
    """A catalog name or hub id, a path to a config, a raw dict, a transformers config, or a spec already made.

    A string or path is located by ``ecwidth.reading.sources.locate``: a catalog name or
    catalog hub id, a checkpoint folder or config file, or a hub id in the local
    Hugging Face cache. The spec is called ``name`` when given, else after what
    was passed (the hub id, the folder's name, a config file's stem).

    A transformers config object is taken as it is (its fields are not checked
    again); its ``raw`` is ``config.to_dict()``, defaults included.

    Raises:
        ConfigError: Nothing by that name or path (says what to pass); see ``spec_from_dict``.
    """
    if isinstance(model, ModelSpec):
        return model if name is None else replace(model, name=name)
    if isinstance(model, Mapping):
        name = name or str(model.get("model_type", "config"))
        return spec_from_dict(model, name=name, source="config dict", trust_remote_code=trust_remote_code)
    if not isinstance(model, (str, os.PathLike)):
        spec = _spec_from_config(model)
        return spec if name is None else replace(spec, name=name)
    source = locate(model, name=name)
    if source.entry is not None:
        return spec_from_dict(source.entry.config, name=source.name, source=source.origin)
    return spec_from_path(source.path, name=source.name, trust_remote_code=trust_remote_code)


def name_models(models: Iterable[Any] | Mapping[str, Any]) -> dict[str, Any]:
    """``{row name: model}`` for anything ``resolve_spec`` takes: a mapping as it is, a list keyed by each model's name.

    Strings are only located (see ``ecwidth.reading.sources.locate``), not read, so a
    long list is checked before any work starts. A model listed twice counts once.

    Raises:
        ConfigError: A model cannot be found, or two models would get the same name.
    """
    if isinstance(models, Mapping):
        for model in models.values():
            if isinstance(model, (str, os.PathLike)):
                locate(model)
        return dict(models)
    named: dict[str, Any] = {}
    for model in models:
        if isinstance(model, (str, os.PathLike)):
            name = locate(model).name
        else:
            name = resolve_spec(model).name
        if name in named and named[name] != model:
            raise ConfigError(
                f"{named[name]!r} and {model!r} would both be named {name!r}; "
                "pass a mapping {name: model} to name them apart"
            )
        named[name] = model
    return named


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
