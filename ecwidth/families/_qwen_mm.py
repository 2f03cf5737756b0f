"""Rules shared by the Qwen3-VL, Qwen3.5 and Qwen omni adapters.

Building with the language model on the meta device, DeepStack packing as
vLLM's Qwen3 vision towers ship it, and vLLM's rule for the profile-sized
image of a Qwen-VL processor.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import resolve

#: Widest aspect ratio Qwen-VL processors accept; vLLM's profile image stays within it.
MAX_ASPECT_RATIO = 200


def construct_towers_off_meta(model_class: str, config: Any, towers: tuple[str, ...], dtype: torch.dtype) -> nn.Module:
    """Construct a transformers ``model_class`` on the meta device, then build its ``towers`` again off it.

    The MoE language models allocate and zero every expert while they are
    constructed (about 1 s for a 30B-A3B, far more for larger MoE); on the
    meta device that costs nothing. The towers are rebuilt outside it because
    their buffers (rotary tables) must hold real values.
    """
    import transformers

    with torch.device("meta"):
        model = getattr(transformers, model_class)._from_config(config, dtype=dtype)
    for path in towers:
        parent, _, name = path.rpartition(".")
        owner = resolve(model, parent) if parent else model
        tower = getattr(owner, name)
        setattr(owner, name, type(tower)._from_config(tower.config, dtype=dtype))
    return model


def pack_deepstack(output: Any) -> torch.Tensor:
    """One item's vision output packed as vLLM ships it: merger output, then each DeepStack level.

    ``output`` is the vision tower's own output for a single item (not split
    per item): ``pooler_output`` is ``[tokens, out_hidden_size]`` and
    ``deepstack_features`` holds one such map per DeepStack layer, in the order
    the tower reaches those layers. vLLM's towers concatenate them in that
    order on the last dim. A tower without DeepStack ships the merger output alone.
    """
    levels = getattr(output, "deepstack_features", None) or []
    return torch.cat([output.pooler_output, *levels], dim=-1)


def most_tokens_grid(max_pixels: int, patch_size: int, merge_size: int) -> tuple[int, int]:
    """(h, w) patch grid of the image with the most tokens within ``max_pixels``, as vLLM profiles it.

    vLLM factors the token budget into its closest pair of sides (aspect ratio
    at most 200) instead of taking a square, so a budget that is not a
    perfect square still gets every token.
    """
    unit = patch_size * merge_size
    for tokens in range(max_pixels // unit**2, 0, -1):
        short = next(d for d in range(math.isqrt(tokens), 0, -1) if tokens % d == 0)
        if tokens // short <= MAX_ASPECT_RATIO * short:
            return short * merge_size, tokens // short * merge_size
    return merge_size, merge_size
