"""Packing the serving engine does and transformers does not: DeepStack levels on the last dim."""

from __future__ import annotations

from typing import Any

import torch

from ecwidth.adapter import rows


def pack_deepstack(output: Any) -> torch.Tensor:
    """One item's vision output packed as vLLM ships it: the main features, then each DeepStack level.

    ``output`` carries ``pooler_output`` (the merger output) and
    ``deepstack_features``: one feature map per DeepStack layer, in the order
    the tower reaches those layers, each either a tensor or a tuple of
    per-item tensors. vLLM's towers concatenate them in that order on the last
    dim; the consumer splits them back into equal slices. A tower without
    DeepStack ships the main features alone.
    """
    levels = getattr(output, "deepstack_features", None) or []
    return torch.cat([rows(output.pooler_output), *(rows(level) for level in levels)], dim=-1)
