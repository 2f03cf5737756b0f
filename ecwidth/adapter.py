"""The family adapter interface and its registry, keyed by config ``model_type``.

An adapter is the one place that knows a family: which transformers class
holds its encoder, which submodules need real storage, how to build a dummy
item, and how the EC producer packs what the encoder emits. Families live in
``ecwidth.families``, one module each; they register themselves on import.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import torch
from torch import nn

from ecwidth.errors import UnknownModelTypeError

DummySize = Literal["minimal", "profile"]
DUMMY_SIZES: tuple[str, ...] = ("minimal", "profile")


@dataclass(frozen=True)
class ItemSize:
    """A real-world item, for token counts: an image, a video or an audio clip."""

    modality: str
    height: int | None = None
    width: int | None = None
    frames: int | None = None
    seconds: float | None = None


class FamilyAdapter:
    """How ecwidth builds, feeds and reads one model family.

    Subclasses set the class attributes and implement ``config_modalities``,
    ``dummy_item``, ``encode`` and ``predict``; the rest has defaults that fit
    most families.
    """

    #: config ``model_type`` values this adapter serves.
    model_types: ClassVar[tuple[str, ...]] = ()
    #: transformers class (by name) that owns the encoder and its feature methods.
    model_class: ClassVar[str] = ""
    #: dotted paths, from the built model, of the submodules the encoder runs through.
    encoder_attributes: ClassVar[tuple[str, ...]] = ()
    #: dotted paths in the raw config dict the family cannot do without.
    required_fields: ClassVar[tuple[str, ...]] = ()

    # -- from the config alone -------------------------------------------------

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        """Modalities the architecture accepts, in a stable order."""
        raise NotImplementedError

    def model_class_for(self, config: Any) -> str:
        """Name of the transformers class to build for this config."""
        return self.model_class

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        """Instantiate the model; ``ecwidth.build`` calls this with parameters on meta.

        Override where the encoder lives in a sub-config (an omni thinker, say).
        """
        import transformers

        return getattr(transformers, self.model_class_for(config))._from_config(config, dtype=dtype)

    def lm_hidden_size(self, config: Any) -> int:
        """Hidden size of the language model that consumes the embeddings."""
        return int(config.get_text_config().hidden_size)

    def deepstack_levels(self, config: Any, modality: str) -> int:
        """Number of DeepStack feature maps packed after the main features."""
        return 0

    def predict(self, config: Any) -> dict[str, int]:
        """Width per modality derived from config fields, without building anything."""
        raise NotImplementedError

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        """Embedding tokens one real item produces, by the family's own processor rules."""
        raise NotImplementedError

    def profile_tokens(self, config: Any, modality: str) -> int:
        """Embedding tokens of the profile-sized item a serving engine encodes at startup."""
        raise NotImplementedError

    # -- on a built model ------------------------------------------------------

    def modalities(self, model: nn.Module) -> tuple[str, ...]:
        """Modalities this built model accepts."""
        return self.config_modalities(model.config)

    def has_encoder(self, model: nn.Module) -> bool:
        """Whether this model (or pipeline stage) holds every encoder submodule."""
        return all(resolve(model, path) is not None for path in self.encoder_attributes)

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        """Keyword inputs for ``encode``: one item, ``minimal`` or ``profile``-sized.

        ``max_tokens`` caps a profile item (benchmarks on slow machines).
        """
        raise NotImplementedError

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        """Encode one item and return it packed as the EC producer ships it."""
        raise NotImplementedError

    # -- helpers for subclasses ------------------------------------------------

    def encoder_dtype_device(self, model: nn.Module) -> tuple[torch.dtype, torch.device]:
        """Dtype and device of the encoder's first parameter (where inputs must go)."""
        for path in self.encoder_attributes:
            module = resolve(model, path)
            for param in module.parameters():
                return param.dtype, param.device
        raise ValueError(f"{type(model).__name__} has no encoder parameters to place inputs next to")


def resolve(obj: Any, dotted: str) -> Any:
    """Follow a dotted attribute path; ``None`` where any step is missing."""
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


_REGISTRY: dict[str, FamilyAdapter] = {}
_discovered = False


def register(cls: type[FamilyAdapter]) -> type[FamilyAdapter]:
    """Class decorator: register an adapter for each of its ``model_types``."""
    adapter = cls()
    for model_type in cls.model_types:
        if model_type in _REGISTRY and type(_REGISTRY[model_type]) is not cls:
            raise ValueError(f"model_type {model_type!r} is already served by {type(_REGISTRY[model_type]).__name__}")
        _REGISTRY[model_type] = adapter
    return cls


def _discover() -> None:
    """Import every module of ``ecwidth.families`` once, so each registers itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from ecwidth import families

    for info in pkgutil.iter_modules(families.__path__):
        if not info.name.startswith("_"):  # shared helpers register nothing
            importlib.import_module(f"{families.__name__}.{info.name}")


def supported_model_types() -> list[str]:
    """Every registered ``model_type``, sorted."""
    _discover()
    return sorted(_REGISTRY)


def find_adapter(model_type: str) -> FamilyAdapter | None:
    """The adapter for ``model_type``, or ``None`` where none is registered."""
    _discover()
    return _REGISTRY.get(model_type)


def adapter_for(model_type: str) -> FamilyAdapter:
    """The adapter for ``model_type``.

    Raises:
        UnknownModelTypeError: No adapter serves it; lists the supported ones.
    """
    adapter = find_adapter(model_type)
    if adapter is None:
        raise UnknownModelTypeError(
            f"no ecwidth adapter for model_type {model_type!r}; supported: {', '.join(supported_model_types())}. "
            "Add one in ecwidth/families/ to measure this family."
        )
    return adapter
