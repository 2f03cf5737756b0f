"""Kosmos-2 (``kosmos-2``) and Kosmos-2.5 (``kosmos-2.5``): latent queries resampled to ``text_config.embed_dim``.

Both feature methods run the vision tower, L2-normalize its output, and
apply the ``ImageToTextProjection``: ``dense`` to ``text_config.embed_dim``,
then ``latent_query_num`` learned queries cross-attending to it, so an image
is ``latent_query_num`` rows whatever its size. The text models name their
width ``embed_dim``; transformers aliases ``hidden_size`` to it.

Kosmos-2.5 takes Pix2Struct-style ``flattened_patches``, which no engine path
reads; we measure what transformers' model feeds its LM.

Items: Kosmos-2's profile item is one ``image_size`` image, as its processor
makes; its minimal item is one patch, which the tower takes by interpolating
its CLIP position table (its own ``interpolate_pos_encoding``, which the
engine never needs): the latent queries give the same rows either way.
Kosmos-2.5's rows are its (row, column) ids then ``patch_embed_hidden_size``
values, one patch minimal and ``max_num_patches`` (the processor pads to its
``max_patches``, 4096 by default) for the profile.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
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


#: The text model's width: ``embed_dim`` (``hidden_size`` is transformers' alias of it).
WIDTH = {"image": FieldWidth("text_config.embed_dim")}


@register
class Kosmos2Adapter(FamilyAdapter):
    model_types = ("kosmos-2",)
    required_fields = ("latent_query_num", "vision_config.image_size", "text_config.embed_dim")
    items = {"image": LatentQueryImage()}
    width_fields = WIDTH
    look_alikes = ("vision_config.hidden_size",)

    def encode(self, model: Any, modality: str, item: dict[str, Any]) -> Any:
        # The minimal one-patch image needs the CLIP position table interpolated; a full image gets the table as it is.
        return self.pack(model, modality, model.get_image_features(**item, interpolate_pos_encoding=True))


@register
class Kosmos2_5Adapter(FamilyAdapter):
    model_types = ("kosmos-2.5",)
    transformers_since = "5.24.0"  # get_image_features from 5.24 on
    required_fields = ("latent_query_num", "vision_config.max_num_patches", "text_config.embed_dim")
    items = {"image": FlattenedPatches()}
    width_fields = WIDTH
    look_alikes = ("vision_config.hidden_size", "vision_config.patch_embed_hidden_size")
