"""Kosmos-2 (``kosmos-2``) and Kosmos-2.5 (``kosmos-2.5``): latent queries resampled to ``text_config.embed_dim``.

Both feature methods run the vision tower, L2-normalize its output, and
apply the ``ImageToTextProjection``: ``dense`` from ``vision_config.hidden_size``
to ``text_config.embed_dim``, then ``latent_query_num`` learned queries
cross-attending to it. The ``pooler_output`` is ``[latent_query_num,
text_config.embed_dim]`` per image, whatever the image; the text models name
their width ``embed_dim`` (there is no ``hidden_size``). Not the width:
``vision_config.hidden_size`` (and Kosmos-2.5's ``patch_embed_hidden_size``).

vLLM 0.32 has no class for either. Kosmos-2 goes through the Transformers
backend (``vllm/model_executor/models/transformers/multimodal.py``), which
ships that ``pooler_output``. Kosmos-2.5 cannot: the backend takes an image
from ``pixel_values`` (or ``image_patches``), and Kosmos-2.5's processor
returns ``flattened_patches``, so ``_process_image_input`` finds no image and
its ``embed_multimodal`` ships nothing (read in the code, not run). For it we
measure what transformers' model feeds its LM.

Items: Kosmos-2's profile item is one ``image_size`` image, as its processor
makes; its minimal item is one patch, which the tower takes by interpolating
its CLIP position table (its own ``interpolate_pos_encoding``, which the
engine never needs): the latent queries give the same rows either way.
Kosmos-2.5 takes Pix2Struct-style ``flattened_patches``, each row its
(row, column) ids then ``patch_embed_hidden_size`` values, one patch minimal
and ``max_num_patches`` (the processor pads to its ``max_patches``, 4096 by
default) for the profile.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles, ItemKind


def _latents(config: Any) -> int:
    return int(config.latent_query_num)


class LatentQueryImage(FixedTiles):
    """One image (``image_size`` pixels; one patch minimal), ``latent_query_num`` embeddings."""

    def tokens_per_tile(self, config: Any) -> int:
        return _latents(config)


class FlattenedPatches(ItemKind):
    """Pix2Struct-style ``flattened_patches`` ``[1, patches, 2 + patch_embed_hidden_size]``, ``latent_query_num`` rows."""

    counts_tokens = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        patches = 1 if size == "minimal" else vision.max_num_patches
        item = torch.randn(1, patches, 2 + vision.patch_embed_hidden_size, dtype=dtype, device=device)
        item[..., :2] = 1  # row and column ids: the first row and column of the grid
        return {"flattened_patches": item}

    def tokens(self, config: Any, item: Any) -> int:
        return _latents(config)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return _latents(config)


class LatentQueryAdapter(FamilyAdapter):
    """What both share: the text model's width is its ``embed_dim``."""

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.text_config.embed_dim)


@register
class Kosmos2Adapter(LatentQueryAdapter):
    model_types = ("kosmos-2",)
    required_fields = ("latent_query_num", "vision_config.image_size", "text_config.embed_dim")
    items = {"image": LatentQueryImage()}
    engine = f"{BACKEND}: text_config.embed_dim via Kosmos2ImageToTextProjection"

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # The minimal one-patch image needs the CLIP position table interpolated; a full image gets the table as it is.
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=True))


@register
class Kosmos2_5Adapter(LatentQueryAdapter):
    model_types = ("kosmos-2.5",)
    required_fields = ("latent_query_num", "vision_config.max_num_patches", "text_config.embed_dim")
    items = {"image": FlattenedPatches()}
    engine = (
        "none: vLLM 0.32 has no class, and its Transformers backend reads images from pixel_values, "
        "which Kosmos-2.5's processor does not return (flattened_patches), so it ships nothing; measured: "
        "what Kosmos2_5Model feeds its LM, text_config.embed_dim via Kosmos2_5ImageToTextProjection"
    )
