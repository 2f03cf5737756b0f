"""Ovis2.5 / Ovis2.6, remote code (``ovis2_5``, ``ovis2_6``): visual tokens through ``vte``, ``hidden_size`` wide.

vLLM's ``Ovis2_5`` (``ovis2_5.py``, also the class of ``Ovis2_6ForCausalLM``
and ``Ovis2_6_MoeForCausalLM``) runs the ``VisualTokenizer`` (a SigLIP2 NaViT,
``vit_config.hidden_size × vit_config.hidden_stride²`` into its head, a
probability over ``visual_vocab_size`` visual words with the indicator
columns), looks it up in ``vte`` (``VisualEmbedding(visual_vocab_size,
config.hidden_size)``), and ``_process_visual_input`` interleaves each item's
indicator rows, embedded by ``vte`` too: images and videos alike ship
``config.hidden_size``, the top-level field the remote config class keeps
(no default). Images and videos.

The config is remote code (``llm_config``, ``vit_config``); the installed
transformers knows no ``ovis2_5`` type, so the spec is the raw config read as
data (``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter


@register
class Ovis2_5Adapter(EngineRuleAdapter):
    model_types = ("ovis2_5",)
    shipped = ("image", "video")
    why = REMOTE_CODE
    required_fields = ("hidden_size",)
    width_fields = {"*": FieldWidth("hidden_size")}
    look_alikes = ("vit_config.hidden_size", "visual_vocab_size")

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.hidden_size)  # the top-level field, not llm_config's


@register
class Ovis2_6Adapter(Ovis2_5Adapter):
    model_types = ("ovis2_6",)
    #: the published model_type is not confirmed from the engine's sources: file configs by architecture too.
    architectures = ("Ovis2_6ForCausalLM", "Ovis2_6_MoeForCausalLM")
