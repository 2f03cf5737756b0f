"""The family adapter contract, its defaults, and the registry keyed by config ``model_type``.

An adapter is the one place that knows a family. Most of what it needs,
transformers already knows: the model class (its auto mappings), the
modalities (the class's ``input_modalities``, less those whose sub-config is
absent), the feature method (``get_<modality>_features``) and, in
``pooler_output``, what the language model receives. The defaults below read
all of that, so a family that ships what transformers returns is a short
declaration: its ``model_types`` and the item kind of each modality
(``ecwidth.families.items``), and its facts as data: the width rule
(``width_fields``) and the fields that only look like the width
(``look_alikes``). How each engine release serves it is not the family's to
say: the release's registry holds that, keyed by architecture
(``ecwidth.engines.registry``). A family writes code only where the serving engine
differs: ``pack`` for DeepStack levels or a projector transformers stops
before, ``encode`` where the feature method does not fit, ``predict`` where
the width is not a config field.

Families live in ``ecwidth.families``, one module each, and register
themselves on import. torch and transformers are imported only where a model
is built or an item is made, so reading the registry's names stays cheap.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.engines import releases
from ecwidth.engines.text_config import text_config_of
from ecwidth.errors import NoTokenRuleError, UnknownModelTypeError, UnmeasurableError, one_line
from ecwidth.families._served import ServedByReleases
from ecwidth.families.items import DummySize, ItemKind, ItemSize

if TYPE_CHECKING:
    import torch
    from torch import nn

    from ecwidth.engines.runtime import RuntimeOptions
    from ecwidth.families.snapshot import SnapshotCode

#: Modalities in the order tables list them.
MODALITY_ORDER: tuple[str, ...] = ("image", "video", "audio")
#: Where a modality's encoder config sits; a config that sets it to null has no such encoder.
_SUB_CONFIGS = {"image": "vision_config", "video": "vision_config", "audio": "audio_config"}
#: Submodules of a transformers multimodal model that belong to the language model, never to the encoder.
#: The modules of ``ecwidth.families`` that define the contract, not a family.
CONTRACT_MODULES = frozenset({"adapter", "answers", "engine_rule", "items", "packing"})
LANGUAGE_MODEL_PARTS = frozenset({"language_model", "lm_head", "text_model"})


@dataclass(frozen=True)
class FieldWidth:
    """A width that is one config field, times (1 + DeepStack levels) where the family packs levels.

    ``field`` is a dotted attribute path on the loaded config
    (``"vision_config.out_hidden_size"``); ``deepstack`` the dotted path of the
    list whose length is the number of DeepStack levels (empty: none).
    """

    field: str
    deepstack: str = ""

    def levels(self, config: Any) -> int:
        return len(resolve(config, self.deepstack) or ()) if self.deepstack else 0

    def width(self, config: Any) -> int:
        return int(resolve(config, self.field)) * (1 + self.levels(config))

    def __str__(self) -> str:
        return f"{self.field} x (1 + len({self.deepstack}))" if self.deepstack else self.field


class FamilyAdapter(ServedByReleases):
    """How ecwidth builds, feeds and reads one model family; every method has a default.

    Override the class attributes first; override a method only where the
    family differs from what transformers' own classes say.
    """

    #: config ``model_type`` values this adapter serves.
    model_types: ClassVar[tuple[str, ...]] = ()
    #: transformers class (by name) that owns the encoder; empty: transformers' auto mapping for the model_type.
    model_class: ClassVar[str] = ""
    #: dotted paths of the submodules the encoder runs through; empty: every submodule but the language model.
    encoder_attributes: ClassVar[tuple[str, ...]] = ()
    #: dotted paths in the raw config dict the family cannot do without.
    required_fields: ClassVar[tuple[str, ...]] = ()
    #: the dummy item kind of each modality (``ecwidth.families.items``).
    items: ClassVar[Mapping[str, ItemKind]] = {}
    #: the modalities a family that makes its own items (``dummy_item`` overridden) takes, where ``items`` is empty:
    #: what a listing that builds nothing reads.
    takes: ClassVar[tuple[str, ...]] = ()
    #: modality -> the config field its width is (``"*"``: every modality); a modality absent: the text hidden size.
    width_fields: ClassVar[Mapping[str, FieldWidth]] = {}
    #: dotted config fields that look like the width but are not; the family contract checks each one differs.
    look_alikes: ClassVar[tuple[str, ...]] = ()
    #: modalities the engine ships that cannot be measured here, each with why (items holding LM token
    #: embeddings need real weights): ``predict`` answers for them, a measurement leaves them out.
    predicted_only: ClassVar[Mapping[str, str]] = {}
    #: a package ecwidth does not install that transformers builds the family's towers through (Gemma 3n's
    #: vision tower is timm's): ``predicted_only`` says what holds without it; where it imports, this process
    #: measures those modalities after all (``predicted_here``).
    measured_with: ClassVar[str] = ""
    #: whether the build must lay out the language model's layers (``ecwidth.measuring.build.without_language_layers``);
    #: set it, saying why, only for a family whose encoder reads them.
    needs_language_layers: ClassVar[bool] = False
    #: the oldest transformers release whose classes ecwidth builds this family from (empty: any the ``measure``
    #: extra allows); under an older one, measuring refuses in one line that names it.
    transformers_since: ClassVar[str] = ""
    #: the family exists only in the serving engine: transformers has no config class for its ``model_type``, so
    #: the spec's config is the raw dict read as attributes (``ecwidth.reading.configs.EngineConfig``). By default
    #: nothing is built and ``predict`` answers from the engine's formula (``predicted_only``); a family whose
    #: tower transformers has under another name builds it itself (Alpamayo 2's Qwen3-VL).
    engine_only: ClassVar[bool] = False
    #: engine architectures whose published configs carry another model's ``model_type`` (FunASR's says
    #: ``qwen3``): vLLM picks the class by ``architectures``, so a config whose first architecture is one of these
    #: is this family's, filed under ``model_types[0]`` (``family_key``). Only an ``engine_only`` family has them.
    architectures: ClassVar[tuple[str, ...]] = ()
    #: how the checkpoint's own remote code encodes (``ecwidth.families.snapshot``), for an ``engine_only``
    #: family measured that way when the user passes ``--trust-remote-code``; None: always the engine's rule.
    snapshot_code: ClassVar[SnapshotCode | None] = None

    # -- from the config alone -------------------------------------------------

    def claims(self, raw: Mapping[str, Any]) -> bool:
        """Whether a raw config naming one of ``architectures`` first is this family's (``family_key``): always,
        unless the engine too picks the class by a field (DeepSeek-V4's vision tower, by ``vision_n_layers``)."""
        return True

    def model_class_for(self, config: Any) -> str:
        """Name of the transformers class to build for this config.

        Raises:
            UnknownModelTypeError: transformers maps no model class to the model_type.
        """
        return self.model_class or auto_model_class(config.model_type)

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        """Modalities a measurement encodes, in table order: what the model class declares, less those
        whose encoder sub-config the config sets to null, and less ``predicted_here``; none for ``engine_only``."""
        if self.engine_only:
            return ()
        import transformers

        declared = getattr(getattr(transformers, self.model_class_for(config)), "input_modalities", ())
        if isinstance(declared, str) or set(declared) <= {"text"}:  # transformers before 5.20 left most classes
            declared = tuple(self.items)  # at the default "text": the family's item kinds say what it takes
        unmeasurable = self.predicted_here()
        return tuple(
            modality
            for modality in MODALITY_ORDER
            if modality in declared
            and getattr(config, _SUB_CONFIGS[modality], True) is not None
            and modality not in unmeasurable
        )

    def predicted_here(self) -> Mapping[str, str]:
        """``predicted_only``, less what this process can measure after all: a family ``measured_with`` a
        package that imports here is measured; where it does not import, why joins each reason."""
        if not self.measured_with:
            return self.predicted_only
        problem = import_problem(self.measured_with)
        return {modality: f"{why} ({problem})" for modality, why in self.predicted_only.items()} if problem else {}

    def check_measurable(self, config: Any, name: str) -> None:
        """Refuse, before anything is built, a model whose every shipped modality is ``predicted_here``.

        Raises:
            UnmeasurableError: Says why for each modality, and that ``ecwidth predict`` answers.
        """
        unmeasurable = self.predicted_here()
        if unmeasurable and not self.config_modalities(config):
            whys = "; ".join(f"{modality}: {why}" for modality, why in unmeasurable.items())
            raise UnmeasurableError(
                f"{name} ({config.model_type}) is predicted only ({whys}); `ecwidth predict` gives its width"
            )

    def transformers_needed(self, model_type: str) -> str:
        """Why the installed transformers cannot build ``model_type``: the one line a refusal says."""
        import transformers

        needed = (
            f"transformers {self.transformers_since} or newer" if self.transformers_since else "a newer transformers"
        )
        return (
            f"transformers {transformers.__version__} lacks the classes ecwidth builds model_type {model_type!r} from; "
            f"measuring it needs {needed} (pip install 'transformers>={self.transformers_since or transformers.__version__}')"
        )

    def check_transformers(self, model_type: str) -> None:
        """Refuse, before anything is built, a family whose classes the installed transformers predates.

        Raises:
            UnknownModelTypeError: Names the installed release and the one the family needs.
        """
        import transformers

        installed = releases.version_tuple(transformers.__version__.split("+")[0].split(".dev")[0])
        if self.transformers_since and installed < releases.version_tuple(self.transformers_since):
            raise UnknownModelTypeError(self.transformers_needed(model_type))

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The raw config in the schema transformers' classes read (``raw`` is the adapter's own copy).

        Override where published checkpoints keep the original (remote-code)
        schema that the engine reads and transformers' port renamed: fields
        transformers does not know are ignored silently, and its defaults
        would stand in for the published values.
        """
        return raw

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        """The ``required_fields`` as paths into this raw config dict (and into the config loaded from it)."""
        return self.required_fields

    def missing_fields(self, raw: Mapping[str, Any]) -> list[str]:
        """The required fields that neither the raw config dict nor transformers' config class supplies.

        A diff-style hub file holds only what differs from its class's defaults (BLIP-2's have no
        ``vision_config.patch_size``); transformers fills in the rest and the engine reads the loaded
        config, so a class default stands for a field the file leaves out. A family whose engine reads
        the raw file with a config class of its own (a remote-code schema), whose defaults are not
        transformers', overrides this to check the file alone, and says why.
        """
        absent = [path for path in self.required_paths(raw) if lookup(raw, path) is None]
        if not absent or self.engine_only:
            return absent
        import copy

        from huggingface_hub.errors import StrictDataclassError
        from transformers import CONFIG_MAPPING

        try:
            loaded = CONFIG_MAPPING[raw["model_type"]](**copy.deepcopy(dict(raw)))
        except (TypeError, ValueError, KeyError, AttributeError, StrictDataclassError):
            return absent  # the config's own build says what transformers rejects; the gaps are named first
        return [path for path in absent if resolve(loaded, path) is None]

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        """Instantiate the model; ``ecwidth.measuring.build`` calls this with parameters on meta.

        Override where the encoder lives in a sub-config (an omni thinker, say).
        """
        import transformers

        return getattr(transformers, self.model_class_for(config))._from_config(config, dtype=dtype)

    def lm_hidden_size(self, config: Any) -> int:
        """Hidden size of the language model that consumes the embeddings."""
        return int(text_config_of(config).hidden_size)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        """Number of DeepStack feature maps packed after the main features."""
        return 0

    def predict(self, config: Any) -> dict[str, int]:
        """Width per modality from config fields, without building anything: by default the text hidden size,
        for the measured modalities and the ``predicted_only`` ones."""
        return {
            modality: self.field_width(config, modality)
            for modality in (*self.config_modalities(config), *self.predicted_only)
        }

    def field_width(self, config: Any, modality: str) -> int:
        """The width ``width_fields`` gives ``modality``, or the text hidden size where it names none."""
        rule = self.width_fields.get(modality) or self.width_fields.get("*")
        return rule.width(config) if rule is not None else self.lm_hidden_size(config)

    def item_kind(self, config: Any, modality: str) -> ItemKind:
        """The dummy item kind of ``modality``.

        Raises:
            ValueError: The family declares no item kind for it.
        """
        kind = self.items.get(modality)
        if kind is None:
            raise ValueError(f"{config.model_type} has no {modality!r} items; it takes {list(self.items)}")
        return kind

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        """Embedding tokens one real item produces, by the family's own processor rules.

        Raises:
            NoTokenRuleError: The family has no token rule for this modality.
        """
        return self._token_rule(config, item.modality).tokens(config, item)

    def profile_tokens(self, config: Any, modality: str) -> int:
        """Embedding tokens of the profile-sized item a serving engine encodes at startup.

        Raises:
            NoTokenRuleError: The family has no token rule for this modality.
        """
        return self._token_rule(config, modality).profile_tokens(config, modality)

    def _token_rule(self, config: Any, modality: str) -> ItemKind:
        kind = self.item_kind(config, modality)
        if not kind.counts_tokens:
            raise NoTokenRuleError(f"no token rule for {config.model_type} {modality} items; its width still measures")
        return kind

    def option_channels(self, config: Any, modality: str, options: RuntimeOptions) -> int:
        """Channels the engine appends to a ``modality`` item with ``options`` set, by the family's rule.

        For ``predict`` only: a measurement reads them from the tensor ``apply_options`` builds.
        """
        return 0

    # -- on a built model ------------------------------------------------------

    def modalities(self, model: nn.Module) -> tuple[str, ...]:
        """Modalities this built model accepts."""
        return self.config_modalities(model.config)

    def encoder_paths(self, model: nn.Module) -> tuple[str, ...]:
        """Dotted paths of the encoder's submodules: ``encoder_attributes``, or every submodule but the LM's.

        A pipeline stage that drops a tower keeps its name with ``None``, so it still counts here.
        """
        if self.encoder_attributes:
            return self.encoder_attributes
        return tuple(name for name in model._modules if name not in LANGUAGE_MODEL_PARTS)

    def has_encoder(self, model: nn.Module) -> bool:
        """Whether this model (or pipeline stage) holds every encoder submodule."""
        paths = self.encoder_paths(model)
        return bool(paths) and all(resolve(model, path) is not None for path in paths)

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        """Keyword inputs for ``encode``: one item, ``minimal`` or ``profile``-sized, made by its item kind.

        ``max_tokens`` caps a profile item (benchmarks on slow machines).
        """
        dtype, device = self.encoder_dtype_device(model)
        kind = self.item_kind(model.config, modality)
        return kind.make(model.config, modality, size, max_tokens=max_tokens, dtype=dtype, device=device)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        """Encode one item through ``get_<modality>_features`` and return it packed as the EC producer ships it."""
        return self.pack(model, modality, getattr(model, f"get_{modality}_features")(**item))

    def pack(self, model: nn.Module, modality: str, output: Any) -> torch.Tensor:
        """The feature method's output as the producer ships one item: ``pooler_output`` as ``[tokens, width]``.

        Override for what transformers does not do: DeepStack concatenation, a
        projector its feature method stops before, layer maps.
        """
        return rows(output.pooler_output)

    def apply_options(
        self, model: nn.Module, modality: str, item: dict[str, Any], packed: torch.Tensor, options: RuntimeOptions
    ) -> torch.Tensor:
        """The packed item as the engine ships it with ``options`` set (called only when one is).

        Families whose records take an option build here what the engine adds,
        such as video pruning's position channels, from the item itself.
        """
        return packed

    # -- helpers for subclasses ------------------------------------------------

    def encoder_dtype_device(self, model: nn.Module) -> tuple[torch.dtype, torch.device]:
        """Dtype and device of the encoder's first parameter (where inputs must go)."""
        for path in self.encoder_paths(model):
            module = resolve(model, path)
            for param in module.parameters() if module is not None else ():
                return param.dtype, param.device
        raise ValueError(f"{type(model).__name__} has no encoder parameters to place inputs next to")


def rows(features: Any) -> torch.Tensor:
    """One item's features as ``[tokens, width]``, whatever layout the family returns.

    Feature methods return a batched tensor, a tuple of per-item (or per-tile)
    tensors, or one flat tensor; the producer ships the rows of one item.
    """
    import torch

    if isinstance(features, (tuple, list)):
        return torch.cat([rows(part) for part in features])
    return features.reshape(-1, features.shape[-1])


@functools.cache
def import_problem(package: str) -> str:
    """Why ``package`` does not import in this process (``""`` where it does), tried once.

    Not installed is found without importing anything; an installed package is imported, since one that is
    there may still fail (PyPI's torchvision beside a CPU torch build).
    """
    if importlib.util.find_spec(package) is None:
        return f"{package} is not installed"
    try:
        importlib.import_module(package)
    except Exception as error:  # whatever the package raises on import: it cannot be used here
        return f"{package} does not import here: {type(error).__name__}: {one_line(error)}"
    return ""


def auto_model_class(model_type: str) -> str:
    """transformers' base model class for a ``model_type``, by its own auto mappings.

    Raises:
        UnknownModelTypeError: No transformers model class serves it.
    """
    from transformers.models.auto import modeling_auto

    for mapping in (modeling_auto.MODEL_MAPPING_NAMES, modeling_auto.MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES):
        name = mapping.get(model_type)
        if isinstance(name, str):
            return name
    raise UnknownModelTypeError(f"transformers has no model class for model_type {model_type!r}")


def lookup(raw: Mapping[str, Any], dotted: str) -> Any:
    """A value at a dotted path in a raw config dict; ``None`` where any step is missing."""
    value: Any = raw
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def resolve(obj: Any, dotted: str) -> Any:
    """Follow a dotted attribute path; ``None`` where any step is missing."""
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


_REGISTRY: dict[str, FamilyAdapter] = {}
_BY_ARCHITECTURE: dict[str, FamilyAdapter] = {}
_discovered = False


def register(cls: type[FamilyAdapter]) -> type[FamilyAdapter]:
    """Class decorator: register an adapter for each of its ``model_types`` and ``architectures``."""
    adapter = cls()
    if cls.architectures and not (cls.engine_only and cls.model_types):
        raise ValueError(f"{cls.__name__}: only an engine_only family with a model type of its own takes architectures")
    for key, registry in [
        *((t, _REGISTRY) for t in cls.model_types),
        *((a, _BY_ARCHITECTURE) for a in cls.architectures),
    ]:
        if key in registry and type(registry[key]) is not cls:
            raise ValueError(f"{key!r} is already served by {type(registry[key]).__name__}")
        registry[key] = adapter
    return cls


def _discover() -> None:
    """Import every module of ``ecwidth.families`` once, so each registers itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from ecwidth import families

    for info in pkgutil.iter_modules(families.__path__):
        if not info.name.startswith("_") and info.name not in CONTRACT_MODULES:  # these register nothing
            importlib.import_module(f"{families.__name__}.{info.name}")


def supported_model_types() -> list[str]:
    """Every registered ``model_type``, sorted."""
    _discover()
    return sorted(_REGISTRY)


def family_key(raw: Mapping[str, Any]) -> str:
    """The model type ecwidth files a raw config under: a family's own key where that family claims the config's
    first ``architectures`` entry (vLLM picks the class so), else the config's ``model_type``."""
    _discover()
    names = raw.get("architectures")
    first = names[0] if isinstance(names, list) and names and isinstance(names[0], str) else ""
    claimed = _BY_ARCHITECTURE.get(first)
    return claimed.model_types[0] if claimed is not None and claimed.claims(raw) else raw["model_type"]


def find_adapter(model_type: str) -> FamilyAdapter | None:
    """The adapter for ``model_type``, or ``None`` where none is registered."""
    _discover()
    return _REGISTRY.get(model_type)


def adapter_for(model_type: str) -> FamilyAdapter:
    """The adapter for ``model_type``.

    Raises:
        UnknownModelTypeError: No adapter serves it; names the closest ones.
    """
    adapter = find_adapter(model_type)
    if adapter is None:
        raise UnknownModelTypeError(no_adapter(model_type))
    return adapter


def no_adapter(model_type: str) -> str:
    """The one line that says no family answers ``model_type``: its closest names, and where the rest are listed."""
    import difflib

    known = supported_model_types()
    close = difflib.get_close_matches(model_type.lower(), known, n=3, cutoff=0.6)
    nearest = f"closest: {', '.join(close)}; " if close else ""
    return (
        f"no ecwidth adapter for model_type {model_type!r}; {nearest}`ecwidth models --families` lists all "
        f"{len(known)}, and a family module in ecwidth/families/ adds one"
    )
