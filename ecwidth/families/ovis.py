"""Ovis 1.6 / Ovis2, remote code (``ovis``): visual-token probabilities through ``vte``, ``hidden_size`` wide.

vLLM's ``Ovis`` (``ovis.py``) runs the ``VisualTokenizer`` (the backbone, then
a head to a probability over ``visual_tokenizer_config.vocab_size`` visual
words, with ``len(IMAGE_INDICATOR_IDS)`` zero columns appended), looks the
probabilities up in ``vte`` (``VisualEmbedding``, ``visual_tokenizer_config.vocab_size
× config.hidden_size``), and interleaves each image's indicator rows, which
``vte`` embeds too: every row is ``config.hidden_size`` wide, the top-level
field ``OvisConfig`` keeps (``transformers_utils/configs/ovis.py``, no
default). Images only.

Published remote-code checkpoints carry ``model_type`` ``ovis`` with
``llm_config`` and ``visual_tokenizer_config``; transformers' port of Ovis2 is
another type (``ovis2``, the ``ovis2`` family). transformers knows no ``ovis``
type, so the spec is the raw config read as data (``engine_only``) and the
width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class OvisAdapter(EngineRuleAdapter):
    model_types = ("ovis",)
    required_fields = ("hidden_size",)
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("visual_tokenizer_config.backbone_config.hidden_size", "visual_tokenizer_config.vocab_size")

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.hidden_size)  # the top-level field, not llm_config's
