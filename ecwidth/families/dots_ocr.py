"""dots.ocr (``dots_ocr``): the vision ``PatchMerger`` to ``vision_config.hidden_size``, cut to the LM's ``hidden_size``.

vLLM's ``DotsOCRForCausalLM`` (``dots_ocr.py``) runs ``DotsVisionTransformer``
(``vision_config.embed_dim`` wide), then its ``PatchMerger`` (layer norm,
``embed_dim × spatial_merge_size²`` → same → ``vision_config.hidden_size``,
"after merger hidden size"). ``_process_image_input`` then slices the rows to
``[:, : config.hidden_size]``, the top-level (Qwen2) LM width, so the engine
ships ``min(vision_config.hidden_size, hidden_size)`` columns: the merger's
width where it is no wider than the LM's (published checkpoints: both 1536).
With ``--mm-encoder-tp-mode data`` the engine returns the merger's rows
unsliced (``vision_config.hidden_size``); ecwidth predicts the default path.
Images only. ``DotsVisionConfig``'s defaults apply where ``vision_config``
omits a field (``hidden_size`` 1536), as ``DotsOCRConfig`` builds it.

The config class is vLLM's own (``transformers_utils/configs/dotsocr.py``);
transformers knows no ``dots_ocr`` type, so the spec is the raw config read
as data (``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

#: ``DotsVisionConfig``'s default merger output width, where ``vision_config`` names none.
DEFAULT_MERGER_WIDTH = 1536


@register
class DotsOCRAdapter(EngineRuleAdapter):
    model_types = ("dots_ocr",)
    required_fields = ("hidden_size",)
    look_alikes = ("vision_config.embed_dim",)

    def merger_width(self, config: Any) -> int:
        """``vision_config.hidden_size``, the ``PatchMerger``'s output, or its class default."""
        vision = getattr(config, "vision_config", None)
        return int(getattr(vision, "hidden_size", DEFAULT_MERGER_WIDTH) if vision is not None else DEFAULT_MERGER_WIDTH)

    def predict(self, config: Any) -> dict[str, int]:
        # Not one field: the merger's output, sliced to the LM width (a slice past the end keeps every column).
        return {"image": min(self.merger_width(config), self.lm_hidden_size(config))}
