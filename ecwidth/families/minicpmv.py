"""MiniCPM-V 2.0 to 4.5 (``minicpmv``): the resampler's queries at the config's top-level ``hidden_size``.

An engine-only family: the config is the checkpoint's remote code (a flat LM
config with a ``vision_config``), which transformers has no class for, so
ecwidth reads it as data and predicts the width from the engine's rule.

``MiniCPMVBaseModel.__init__`` (``minicpmv.py``) builds the resampler with
``embed_dim = config.hidden_size``, the top-level (LM) width, and its
``kv_proj`` takes the tower's width in; every ``Resampler2``/``Resampler2_5``/
``Resampler4_5`` (``vllm/model_executor/layers/resampler.py``) ends in
``ln_post`` and ``proj``, ``embed_dim × embed_dim``, so each slice ships
``hidden_size`` wide; ``_process_vision_input`` flattens an item's slices.
Videos go through the same path (``_image_kwargs_from_video``). The tower's
``vision_config.hidden_size`` only looks like the width.

The class is picked by ``version`` (``MiniCPMV.__new__``): 2.0, 2.5, 2.6, 4.0
and 4.5; a config without one is 2.0 where ``hidden_size`` is 2304 and
``query_num`` 64, else 2.5 (``get_version_by_config``), and any other version
is refused, as the engine refuses it. Video is taken from 2.6 on
(``MiniCPMVProcessingInfo.get_supported_mm_limits``: 2.6, 4.0, 4.5). MiniCPM-V
4.6 and later have model types of their own (``minicpmv4_6``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


def version_of(config: Any, default: tuple[int, int] | None = None) -> tuple[int, ...]:
    """The engine's version tuple: ``version`` split on dots, or the engine's guess where the config has none."""
    version = getattr(config, "version", None)
    if version is None:
        if default is not None:
            return default
        hidden, queries = getattr(config, "hidden_size", None), getattr(config, "query_num", None)
        return (2, 0) if (hidden, queries) == (2304, 64) else (2, 5)
    return tuple(int(part) for part in str(version).split("."))


@register
class MiniCPMVAdapter(EngineRuleAdapter):
    model_types = ("minicpmv",)
    shipped = ("image", "video")
    why = CHECKPOINT_CODE
    required_fields = ("hidden_size",)
    width_fields = {"*": FieldWidth("hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

    #: ``_SUPPORT_VERSION`` (minicpmv.py): the versions the engine builds a class for.
    versions: ClassVar[tuple[tuple[int, int], ...]] = ((2, 0), (2, 5), (2, 6), (4, 0), (4, 5))
    #: the versions whose processing info takes video.
    video_versions: ClassVar[tuple[tuple[int, int], ...]] = ((2, 6), (4, 0), (4, 5))
    #: the version a config without one is (None: the engine's 2.0/2.5 guess).
    default_version: ClassVar[tuple[int, int] | None] = None

    def version(self, config: Any) -> tuple[int, ...]:
        """The engine's version of this config.

        Raises:
            ConfigError: The engine has no class for it.
        """
        version = version_of(config, self.default_version)
        if version not in self.versions:
            known = ", ".join(".".join(map(str, v)) for v in self.versions)
            raise ConfigError(
                f"{config.model_type} version {'.'.join(map(str, version))} has no engine class; "
                f"vLLM builds versions {known}"
            )
        return version

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        from types import SimpleNamespace

        self.version(SimpleNamespace(**raw))  # refuse what the engine's __new__ refuses
        return raw

    def served_modalities(self, config: Any) -> tuple[str, ...]:
        """The modalities the engine takes for this config's version: its processing info reads the version by
        ``get_version_by_config``, which has no class default (a MiniCPM-o config without one takes no video)."""
        self.version(config)
        return ("image", "video") if version_of(config) in self.video_versions else ("image",)

    def predict(self, config: Any) -> dict[str, int]:
        return {modality: self.field_width(config, modality) for modality in self.served_modalities(config)}
