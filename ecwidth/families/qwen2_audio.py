"""Qwen2-Audio: the audio tower's output through ``multi_modal_projector``, trimmed to the clip.

transformers has no ``get_audio_features`` for this family; the projection
happens inline in ``Qwen2AudioModel.forward``. The engine does the same steps
and ships, per clip, the projected rows that the clip's length covers. The
tower's ``d_model`` is the trap: the linear projector maps it to the LM's
hidden size, and that is what crosses the wire.

The tower only accepts a full window of ``2 × max_source_positions`` mel frames
(3000, i.e. 30 s): the feature extractor pads every clip to it and a mask says
how much is real. A clip of ``L`` real frames yields
``((L - 1) // 2 + 1 - 2) // 2 + 1`` tokens (conv stride 2, then 2× average
pooling): 750 for 30 s, 1 for the shortest clip (3 frames).

vLLM runs the whole padded window with the padding masked out of attention,
then keeps the real rows. Since real rows never attend to padding, ``encode``
runs the convolutions on the whole window (the only place its length matters)
and drops the padding rows before the transformer layers: the same rows, and
the shortest clip costs two rows of layer compute instead of 1500.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import MelFrames

if TYPE_CHECKING:
    import torch
    from torch import nn


def clip_tokens(mel_frames: int) -> int:
    """Tokens a clip of ``mel_frames`` real frames yields (conv stride 2, then 2× pooling)."""
    conv_frames = (mel_frames - 1) // 2 + 1
    return (conv_frames - 2) // 2 + 1


@dataclass(frozen=True)
class Qwen2AudioMel(MelFrames):
    """A clip padded to the tower's full window of ``2 × max_source_positions`` frames."""

    def window_frames(self, config: Any) -> int:
        return 2 * config.audio_config.max_source_positions

    def clip_tokens(self, config: Any, frames: int) -> int:
        return clip_tokens(frames)


@register
class Qwen2AudioAdapter(FamilyAdapter):
    model_types = ("qwen2_audio",)
    encoder_attributes = ("audio_tower", "multi_modal_projector")
    # The published config leaves text_config.hidden_size to the class default of text_config.model_type.
    required_fields = (
        "audio_config.d_model",
        "audio_config.num_mel_bins",
        "audio_config.max_source_positions",
        "text_config.model_type",
    )
    items = {"audio": Qwen2AudioMel(min_frames=3)}
    look_alikes = ("audio_config.d_model",)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        """transformers has no feature method: the tower, then the projector, as ``forward`` does inline."""
        tower = model.audio_tower
        conv_rows, _ = tower._get_feat_extract_output_lengths(item["feature_attention_mask"].sum(-1))
        real_rows = int(conv_rows[0])  # pooling then turns them into exactly the clip's tokens

        def drop_padding_rows(layer: nn.Module, args: tuple[Any, ...]) -> tuple[Any, ...]:
            hidden, *rest = args
            return (hidden[:, :real_rows], *rest)

        hook = tower.layers[0].register_forward_pre_hook(drop_padding_rows)
        try:
            hidden = tower(item["input_features"]).last_hidden_state
        finally:
            hook.remove()
        return model.multi_modal_projector(hidden)[0]
