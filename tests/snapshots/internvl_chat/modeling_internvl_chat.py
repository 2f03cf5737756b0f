"""A tiny stand-in for an InternVL chat checkpoint's remote modelling code, written for ecwidth's tests.

Like the published ``InternVLChatModel``: a ViT whose CLS row is dropped, a pixel shuffle by
``downsample_ratio`` and ``mlp1`` (LayerNorm, Linear, GELU, Linear) to the language model's width, reached
through ``extract_feature(pixel_values)``.
"""

import torch
from torch import nn
from transformers import AutoModelForCausalLM, PreTrainedModel

from .configuration_internvl_chat import InternVLChatConfig


class InternVisionModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.patch_embedding = nn.Conv2d(
            config.num_channels, config.hidden_size, config.patch_size, stride=config.patch_size
        )
        self.class_embedding = nn.Parameter(torch.zeros(1, 1, config.hidden_size))
        layer = nn.TransformerEncoderLayer(
            config.hidden_size, config.num_attention_heads, config.intermediate_size, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, config.num_hidden_layers, enable_nested_tensor=False)

    def forward(self, pixel_values):
        patches = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        cls = self.class_embedding.expand(patches.shape[0], -1, -1)
        return self.encoder(torch.cat([cls, patches], dim=1))


class InternVLChatModel(PreTrainedModel):
    config_class = InternVLChatConfig
    base_model_prefix = "internvl_chat"

    def __init__(self, config):
        super().__init__(config)
        vit_hidden, llm_hidden = config.vision_config.hidden_size, config.llm_config.hidden_size
        shuffled = vit_hidden * round(1 / config.downsample_ratio) ** 2
        self.downsample_ratio = config.downsample_ratio
        self.vision_model = InternVisionModel(config.vision_config)
        self.mlp1 = nn.Sequential(
            nn.LayerNorm(shuffled), nn.Linear(shuffled, llm_hidden), nn.GELU(), nn.Linear(llm_hidden, llm_hidden)
        )
        self.language_model = AutoModelForCausalLM.from_config(config.llm_config)

    def pixel_shuffle(self, x, scale_factor):
        n, w, h, c = x.shape
        x = x.reshape(n, w, int(h * scale_factor), int(c / scale_factor))
        x = x.permute(0, 2, 1, 3).contiguous()
        x = x.reshape(n, int(h * scale_factor), int(w * scale_factor), int(c / (scale_factor * scale_factor)))
        return x.permute(0, 2, 1, 3).contiguous()

    def extract_feature(self, pixel_values):
        rows = self.vision_model(pixel_values)[:, 1:, :]
        side = int(rows.shape[1] ** 0.5)
        rows = self.pixel_shuffle(rows.reshape(rows.shape[0], side, side, -1), self.downsample_ratio)
        return self.mlp1(rows.reshape(rows.shape[0], -1, rows.shape[-1]))
