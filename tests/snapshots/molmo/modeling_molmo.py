"""A tiny stand-in for a Molmo checkpoint's remote modelling code, written for ecwidth's tests.

Like the published ``MolmoForCausalLM``: ``model.vision_backbone(images, image_masks)`` takes crops in the
geometry the code fixes for its 336-px ViT-L/14 (576 patches of 588 values), pools 2x2 patch windows and
projects them to ``hidden_size``, returning the crops' rows and a CLS row per crop.
"""

from torch import nn
from transformers import PreTrainedModel

from .config_molmo import MolmoConfig


class VisionBackbone(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.patch_embedding = nn.Linear(588, 16)
        self.image_projector = nn.Linear(16, config.hidden_size)

    def forward(self, images, image_masks):
        batch, crops, _, _ = images.shape
        patches = self.patch_embedding(images * image_masks[..., None]).view(batch * crops, 12, 2, 12, 2, -1)
        pooled = patches.mean(dim=(2, 4)).reshape(batch, crops, 144, -1)
        return self.image_projector(pooled), pooled[:, :, 0]


class Molmo(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.vision_backbone = VisionBackbone(config)
        self.wte = nn.Embedding(config.vocab_size, config.hidden_size)


class MolmoForCausalLM(PreTrainedModel):
    config_class = MolmoConfig
    base_model_prefix = "model"

    def __init__(self, config):
        super().__init__(config)
        self.model = Molmo(config)
        self.post_init()
