"""The shape most engine-only families share: nothing built, the width predicted from the engine's rule.

An ``engine_only`` family (transformers has no config class for its
``model_type``) is, at its simplest, a declaration: the modalities the engine
ships (``shipped``), why none can be measured here (``why``, one of the
constants below), the fields the family cannot do without and, where the
width is a field other than the text hidden size, its ``width_fields``.
``EngineRuleAdapter`` derives ``predicted_only`` from ``shipped`` and
``why``; the language model's width is the default ``lm_hidden_size``
(``ecwidth.engines.text_config.text_config_of``), or ``default_hidden_size`` where
the engine's config class supplies one the file leaves out. A family overrides only
what is its own: a width that is not a field, a refusal in ``translate``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ecwidth.engines.text_config import text_config_of
from ecwidth.families.adapter import FamilyAdapter

#: why nothing is built, for a family whose config class is vLLM's own.
VLLM_CONFIG = "no transformers class can build this family (its config class is vLLM's own)"
#: why nothing is built, for a family transformers knows only through remote code.
REMOTE_CODE = "no transformers class can build this family (remote code, which ecwidth never runs)"
#: why nothing is built, for a checkpoint whose encoder has a class in vLLM only.
ENCODER_IN_VLLM = "no transformers class can build this checkpoint (its encoder lives only in vLLM)"
#: why nothing is built, for a family whose config class is the checkpoint's remote code.
CHECKPOINT_CODE = "no transformers class can build this family (its config is the checkpoint's remote code, never run)"
#: why nothing is built unless the user trusts the checkpoint: a family that declares ``snapshot_code``.
SNAPSHOT_CODE = (
    "no transformers class can build this family (remote code, measured only through the checkpoint's own code "
    "files with --trust-remote-code)"
)


class EngineRuleAdapter(FamilyAdapter):
    """An ``engine_only`` family whose widths ``predict`` answers from config fields, for ``shipped``."""

    engine_only = True
    #: the modalities the engine ships, each predicted only.
    shipped: ClassVar[tuple[str, ...]] = ("image",)
    #: why none of them can be measured here.
    why: ClassVar[str] = VLLM_CONFIG
    #: the engine config class's default ``hidden_size``, where the file's text config names none (None: it must).
    default_hidden_size: ClassVar[int | None] = None
    required_fields = ("text_config.hidden_size",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "predicted_only" not in cls.__dict__:
            cls.predicted_only = {modality: cls.why for modality in cls.shipped}

    def lm_hidden_size(self, config: Any) -> int:
        if self.default_hidden_size is None:
            return super().lm_hidden_size(config)
        return int(getattr(text_config_of(config), "hidden_size", self.default_hidden_size))
