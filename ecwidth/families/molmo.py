"""Molmo (``molmo``, remote code): the ViT's pooled patches through ``image_projector`` to the top-level ``hidden_size``.

vLLM's ``MolmoForCausalLM`` (``molmo.py``) runs each crop through the ViT
(its width, ``image_emb_dim``, is the engine's own ``VisionBackboneConfig``
constant, 1024, not a config field), concatenates two ViT layers, pools 2×2
windows with attention (``image_pooling_2d``), then ``MolmoVisionBackbone.image_projector``
(``ImageProjectorMLP``: a SwiGLU of ``intermediate_size // 2`` inner width
whose ``down_proj`` ends at ``config.hidden_size``). ``_process_image_input``
ships the valid patch rows of each image, reordered, so the width is the
flat config's ``hidden_size``, the LM's width. Images only.

The config is remote code (a flat OLMo-style config with no sub-configs);
transformers has no ``molmo`` class (``molmo2`` is another family), so
without ``--trust-remote-code`` the spec is the raw config read as data
(``engine_only``) and the width is predicted. With the flag and the
checkpoint's files beside its config, the checkpoint's own
``MolmoForCausalLM`` is built and its ``model.vision_backbone`` run on one
crop (``snapshot_code``): it returns the projected crops and the CLS rows,
and the crops are what the language model takes.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import SNAPSHOT_CODE, EngineRuleAdapter
from ecwidth.families.items import ItemKind
from ecwidth.families.snapshot import SnapshotCode

#: The crop the checkpoint's code fixes for its CLIP ViT-L/14 at 336 px (``VisionBackboneConfig``, not the
#: config file): 24 × 24 patches of 14 × 14 × 3 values.
CROP_PATCHES, PATCH_VALUES = 576, 588


class MolmoCrops(ItemKind):
    """One image as ``[1, crops, 576, 588]`` patch rows and ``[1, crops, 576]`` patch masks: one crop, minimal or
    profile (the processor's crop count follows the image and ``preprocessor_config.json``; no token rule)."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        images = torch.randn(1, 1, CROP_PATCHES, PATCH_VALUES, dtype=dtype, device=device)
        return {"images": images, "image_masks": torch.ones(1, 1, CROP_PATCHES, dtype=dtype, device=device)}


@register
class MolmoAdapter(EngineRuleAdapter):
    model_types = ("molmo",)
    why = SNAPSHOT_CODE
    required_fields = ("hidden_size",)
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("intermediate_size",)
    #: with --trust-remote-code, the checkpoint's ``MolmoForCausalLM.model.vision_backbone(images, image_masks)``,
    #: whose first output is what ``forward`` places among the language model's embeddings.
    snapshot_code = SnapshotCode(
        auto_class="AutoModelForCausalLM",
        encoder_attributes=("model.vision_backbone",),
        feature_method="model.vision_backbone",
        items={"image": MolmoCrops()},
    )
