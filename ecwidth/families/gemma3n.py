"""Gemma 3n (``gemma3n``): vision and audio soft tokens, each embedded into the text width; measured where timm
imports, else answered from that rule.

vLLM's ``Gemma3nForConditionalGeneration`` (``gemma3n_mm.py``) runs the vision
tower (``AutoModel.from_config(config.vision_config)``: transformers'
``TimmWrapperModel``, MobileNet-V5), reshapes its map to
``vision_soft_tokens_per_image`` rows of ``vision_config.hidden_size``, and
embeds them with ``embed_vision``, a ``Gemma3nMultimodalEmbedder``: RMSNorm,
``embedding_projection`` to ``text_config.hidden_size``, a weightless
RMSNorm. Audio goes through ``Gemma3nAudioEncoder`` (``audio_config.hidden_size``)
and ``embed_audio``, the same embedder, to ``text_config.hidden_size``;
masked rows and the pad to ``audio_soft_tokens_per_image`` are the
embedder's hard embedding of the last vocabulary id, at the same width.
Both modalities ship the text hidden size.

transformers builds the vision tower through timm, which ecwidth does not
install, and the audio tower sits in the same model. Where timm imports
(with a torchvision that loads beside torch: PyPI's does not beside a CPU
build), ``Gemma3nModel`` is built and both modalities measured; elsewhere
they are ``predicted_only`` and answered from the rule above.

Every image is resized to the processor's 768 × 768 and MobileNet-V5's
multi-scale fusion resizes its map to 16 × 16 whatever the input, so a
32-pixel image (the stem's stride) is the minimal item at the same token
count. vLLM profiles audio with a clip of the feature extractor's
``fft_length`` samples (a few mel frames) and pads every clip's rows to
``audio_soft_tokens_per_image``: the minimal clip of 4 frames, one row out
of the tower, is also the profile one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind, ItemSize, random_tiles

TIMM = (
    "transformers builds Gemma 3n's vision tower through timm (TimmWrapperModel), which ecwidth does not install, "
    "and the audio tower sits in the same model; install timm (with a torchvision that loads beside torch) to "
    "measure it"
)
#: The image processor's size (the published preprocessor_config.json's, what vLLM's dummy image takes).
PROFILE_SIDE = 768
#: The smallest image MobileNet-V5 takes: its stem's stride; its map is resized to 16 × 16 all the same.
MINIMAL_SIDE = 32
#: Mel frames the audio tower turns into one row: two stride-2 convolutions, then a reduction of 4.
MINIMAL_FRAMES = 4


class Gemma3nImage(ItemKind):
    """One image, ``[1, 3, side, side]``: ``vision_soft_tokens_per_image`` tokens at any side."""

    counts_tokens: ClassVar[bool] = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        side = MINIMAL_SIDE if size == "minimal" else PROFILE_SIDE
        return {"pixel_values": random_tiles(1, 3, side, side, dtype=dtype, device=device)}

    def tokens(self, config: Any, item: ItemSize) -> int:
        return config.vision_soft_tokens_per_image

    def profile_tokens(self, config: Any, modality: str) -> int:
        return config.vision_soft_tokens_per_image


class Gemma3nClip(ItemKind):
    """A log-mel clip, time-major ``[1, frames, input_feat_size]``, with the tower's mask (True: padding, the
    processor's mask inverted, as the model's forward passes it); vLLM ships ``audio_soft_tokens_per_image``
    rows for every clip."""

    counts_tokens: ClassVar[bool] = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        features = torch.randn(1, MINIMAL_FRAMES, config.audio_config.input_feat_size, dtype=dtype, device=device)
        padding = torch.zeros(1, MINIMAL_FRAMES, dtype=torch.bool, device=device)
        return {"input_features": features, "input_features_mask": padding}

    def tokens(self, config: Any, item: ItemSize) -> int:
        return config.audio_soft_tokens_per_image

    def profile_tokens(self, config: Any, modality: str) -> int:
        return config.audio_soft_tokens_per_image


@register
class Gemma3nAdapter(FamilyAdapter):
    model_types = ("gemma3n",)
    required_fields = ("text_config.hidden_size",)  # the rest, transformers' Gemma3nConfig supplies
    items = {"image": Gemma3nImage(), "audio": Gemma3nClip()}
    predicted_only = {"image": TIMM, "audio": TIMM}
    measured_with = "timm"
    look_alikes = ("vision_config.hidden_size", "audio_config.hidden_size")
