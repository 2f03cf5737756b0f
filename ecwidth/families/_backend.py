"""What vLLM's Transformers modeling backend ships, for the families it serves without a class of its own.

vLLM falls back to the backend for a transformers model type it has no class
for, when the model class passes the backend's gate (``is_backend_compatible()``
or ``_can_set_attn_implementation()``, ``_try_resolve_transformers`` in
``registry.py``) and its processor exposes an image, video or audio
processor. Its ``embed_multimodal`` calls ``get_<modality>_features(...,
return_dict=True)`` and ships the ``pooler_output``, split per item
(``_split_embeddings``); it reads nothing else the method returns: no
DeepStack levels, no ``last_hidden_state``. That is ``FamilyAdapter``'s
default packing, so these families measure transformers' own feature method
as it is.

The backend is multimodal only for a nested config (``hf_config is not
hf_text_config``, ``ModelConfig._get_transformers_backend_cls``), and its MoE
variant where the text config counts experts; a flat config gets the
text-only ``TransformersForCausalLM``, which ships no embedding at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ecwidth.families.items import FixedTiles, side
from ecwidth.families.patch_grid import PatchGrid


class WholeTiles(FixedTiles):
    """Tiles of exactly ``vision_config.image_size`` pixels, the minimal item too: the tower's positions are fixed to it.

    The backend's profile image comes from the processor's settings, which a
    ``config.json`` does not carry; one tile is the profile item.
    """

    def minimal_patches(self, config: Any) -> int:
        vision = self.vision(config)
        return side(vision.image_size) // side(vision.patch_size)


class ProcessorTiles(WholeTiles):
    """``WholeTiles`` where the processor's settings, not the config, cut an image into tiles: no token rule."""

    counts_tokens: ClassVar[bool] = False


@dataclass(frozen=True)
class ProcessorPatches(PatchGrid):
    """``PatchGrid`` where the checkpoint's preprocessor config, not ``config.json``, sets the patch size and the
    pixel budget (transformers maps a processor class whose defaults do not match the tower): no token rule.

    ``pixels`` is then the budget of the profile item only: the mapped processor class's default.
    """

    counts_tokens: ClassVar[bool] = False


#: Why a family whose ``get_image_features`` embeds VQ image tokens with the LM's own table can only be predicted.
LM_TOKEN_EMBEDDINGS = (
    "its image features are the language model's input embeddings of VQ image tokens, "
    "which need the LM's real embedding table; the width is the text hidden size"
)
