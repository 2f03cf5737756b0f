"""Nemotron-Parse 3.5 (``nemotron_parse``): a RADIO tower whose neck ends at the decoder's width, as a causal prefix.

The model is remote code (a RADIO encoder, an mBART decoder): no transformers
class builds it, and ecwidth runs no hub code, so the spec is the raw config
read as data (``engine_only``; no ``trust_remote_code`` is needed to read
it) and the width is predicted from the engine's rule. The neck projects the
tower's patch features (``vision_spatial_dim`` wide) with a 1×1 conv, then a
(1, 4) strided conv, and its summary tokens (``vision_summary_dim`` wide) with
``sum_proj``, both to ``decoder.d_model``, and ships the patch rows plus one
summary row: the decoder reads them as a prefix, so they are its width.

The earlier Nemotron-Parse releases' remote config class has this model type
(3.5's is taken to keep it: the engine tells the two apart by architecture and
decoder flags, not by type). They cross-attend to the encoder through another
engine class, with a neck of a fixed width; the engine's prefix class refuses
their configs, and so does this family.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import FieldWidth, lookup, register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter
from ecwidth.families.items import ItemKind

#: The engine's neck stride along a row: a (1, 4) conv, so four patches of a row make one token.
ROW_STRIDE = 4


class ParsePage(ItemKind):
    """A page at the config's ``image_size``, the engine's profile image: its patch rows, a quarter as wide, plus
    the summary row. Real pages are packed at the size the remote processor picks, which has no rule here."""

    counts_tokens: ClassVar[bool] = True

    def profile_tokens(self, config: Any, modality: str) -> int:
        height, width = config.image_size
        patch = config.encoder.patch_size
        return (height // patch) * ((width // patch) // ROW_STRIDE) + 1


@register
class NemotronParseAdapter(EngineRuleAdapter):
    model_types = ("nemotron_parse",)
    required_fields = (
        "decoder.d_model",
        "decoder.causal_vision_prefix",
        "navit_packing",
        "image_size",
        "encoder.patch_size",
    )
    why = REMOTE_CODE
    items = {"image": ParsePage()}
    width_fields = {"image": FieldWidth("decoder.d_model")}
    look_alikes = ("vision_spatial_dim", "vision_summary_dim")

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        # What RadioMBartPrefixForCausalLM.__init__ refuses. A missing add_cross_attention is left to the
        # remote config class, which ecwidth does not run.
        refused = [
            f"{path} is {lookup(raw, path)!r}, not true"
            for path in ("decoder.causal_vision_prefix", "navit_packing")
            if lookup(raw, path) is not None and lookup(raw, path) is not True
        ]
        if lookup(raw, "decoder.add_cross_attention") is True:
            refused.append("decoder.add_cross_attention is true")
        if refused:
            raise ConfigError(
                f"this nemotron_parse config is not Nemotron-Parse 3.5's causal visual prefix ({'; '.join(refused)}): "
                "an earlier Nemotron-Parse, which cross-attends to its encoder; ecwidth reads only the prefix model"
            )
        return raw

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.decoder.d_model)
