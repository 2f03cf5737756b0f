"""A documented fake family: a toy encoder with a DeepStack-style concat.

It exercises ``measure_widths`` and the adapter interface without
transformers. The toy image path runs ``levels`` intermediate layers, projects
each, and ships ``[main, level_1, ..., level_n]`` concatenated on the last dim,
as DeepStack producers do; its audio path is not packed. Its token rule: one
token per 16×16 pixels of an image, ten per second of audio.

A second toy family, ``TOKENLESS_MODEL_TYPE``, is the same toy without a token
rule: its width measures, its items cannot be priced. It is registered only
for the tests that ask for it (the ``tokenless_family`` fixture in
conftest.py), so the registry the family contract checks stays as shipped.
"""

from dataclasses import dataclass

import torch
from torch import nn

from ecwidth.errors import NoTokenRuleError
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.reading.configs import ModelSpec

#: Pixels a side of the image area one toy token covers.
TOY_PATCH = 16
AUDIO_TOKENS_PER_SECOND = 10
TOKENLESS_MODEL_TYPE = "ecwidth_toy_tokenless"


@dataclass
class ToyConfig:
    model_type: str = "ecwidth_toy"
    patch_dim: int = 12
    hidden: int = 16
    out: int = 8
    levels: int = 2
    modalities: tuple[str, ...] = ("image", "audio")


class ToyEncoder(nn.Module):
    def __init__(self, config: ToyConfig, *, with_encoder: bool = True):
        super().__init__()
        self.config = config
        self.input_modalities = (*config.modalities, "text")
        if with_encoder:
            self.tower = nn.ModuleList(
                [nn.Linear(config.patch_dim, config.hidden)]
                + [nn.Linear(config.hidden, config.hidden) for _ in range(config.levels)]
            )
            self.merger = nn.Linear(config.hidden, config.out)
            self.level_mergers = nn.ModuleList(nn.Linear(config.hidden, config.out) for _ in range(config.levels))
        else:  # a pipeline stage that holds only language-model layers
            self.tower = None


@register
class ToyAdapter(FamilyAdapter):
    model_types = ("ecwidth_toy",)
    encoder_attributes = ("tower",)

    def config_modalities(self, config):
        return config.modalities

    def lm_hidden_size(self, config):
        return config.hidden

    def predict(self, config):
        return {m: config.out * (1 + config.levels) if m == "image" else config.out for m in config.modalities}

    def embed_tokens(self, config, item):
        if item.modality == "image":
            return (item.height // TOY_PATCH) * (item.width // TOY_PATCH)
        return int(item.seconds * AUDIO_TOKENS_PER_SECOND)

    def profile_tokens(self, config, modality):
        return 64

    def dummy_item(self, model, modality, size, *, max_tokens=None):
        tokens = 1 if size == "minimal" else 64
        return {"patches": torch.randn(tokens, model.config.patch_dim)}

    def encode(self, model, modality, item):
        hidden = model.tower[0](item["patches"])
        levels = []
        for layer, merger in zip(model.tower[1:], model.level_mergers):
            hidden = layer(hidden)
            levels.append(merger(hidden))
        main = model.merger(hidden)
        return torch.cat([main, *levels], dim=-1) if modality == "image" else main


class ToyTokenlessAdapter(ToyAdapter):
    """The toy family without a token rule, as families whose processor ecwidth does not model."""

    model_types = (TOKENLESS_MODEL_TYPE,)

    def embed_tokens(self, config, item):
        raise NoTokenRuleError(f"no token rule for {config.model_type} {item.modality} items")

    def profile_tokens(self, config, modality):
        raise NoTokenRuleError(f"no token rule for {config.model_type} {modality} items")


def toy_spec(name: str, model_type: str = "ecwidth_toy") -> ModelSpec:
    """A spec of the toy family, for functions that take a model by its config."""
    return ModelSpec(name=name, raw={"model_type": model_type}, config=ToyConfig(model_type=model_type), source="toy")
