"""What the Whisper-style speech LMs (Audio Flamingo 3, Music Flamingo, GLM-ASR, Voxtral, MOSS-Transcribe-Diarize) share.

Their feature extractors cut a clip into 30 s windows of log-mel frames
(100 frames a second, 3000 a window) and pad the last one; the towers take
the windows as rows of a batch, ``[windows, mel bins, frames]``, with a mask
``[windows, frames]`` of the real frames. vLLM's processors cap a clip at a
whole number of windows of the processor's ``max_audio_len``.

``WindowedMel`` makes such items: the minimal item is one window with the
fewest real frames that yield one embedding, the profile item is the longest
clip the engine profiles (capped by ``max_tokens``). Families give the
tokens one window of ``frames`` real frames yields.

``first_rows`` runs a tower's layers over the first rows only: towers that
take only a full window (their position table is added whole) would
otherwise run 1500 rows through every layer for a one-token item. Where the
tower masks the padding (Audio Flamingo 3), real rows never attend to it and
the kept rows are exactly the full window's; where it masks nothing
(Voxtral, MOSS), the values of the kept rows change, their width cannot.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.errors import NoTokenRuleError
from ecwidth.families.items import MEL_FRAMES_PER_SECOND, MelFrames

if TYPE_CHECKING:
    from torch import nn

#: Frames of one 30 s Whisper window.
WINDOW_FRAMES = 30 * MEL_FRAMES_PER_SECOND


@dataclass(frozen=True)
class WindowedMel(MelFrames):
    """A clip cut into 30 s windows, ``[windows, mel bins, window]`` plus its ``[windows, window]`` mask.

    ``profile_seconds``: the clip the engine profiles (the processor's
    ``max_audio_len``), cut to whole windows as vLLM's processor caps it.
    ``pad_minimal``: whether the minimal item is padded to a full window
    (False where the tower takes any length: the minimal item is then just
    its real frames, the same code path at a fraction of the cost).
    """

    mask_key: str | None = "input_features_mask"
    pad_minimal: bool = True

    def window_frames(self, config: Any) -> int:
        return 2 * self.audio(config).max_source_positions

    def window_tokens(self, config: Any, frames: int) -> int:
        """Embeddings one window with ``frames`` real frames yields."""
        raise NoTokenRuleError(f"no token rule for {config.model_type} audio items")

    def clip_tokens(self, config: Any, frames: int) -> int:
        window = self.window_frames(config)
        full, rest = divmod(frames, window)
        return full * self.window_tokens(config, window) + (self.window_tokens(config, rest) if rest else 0)

    def max_windows(self) -> int:
        return max(1, int(self.profile_seconds // (WINDOW_FRAMES / MEL_FRAMES_PER_SECOND)))

    def profile_frames(self, config: Any) -> int:
        window = self.window_frames(config)
        return min(math.ceil(self.profile_seconds * MEL_FRAMES_PER_SECOND), self.max_windows() * window)

    def tokens(self, config: Any, item: Any) -> int:
        frames = min(math.ceil(item.seconds * MEL_FRAMES_PER_SECOND), self.max_windows() * self.window_frames(config))
        return self.clip_tokens(config, frames)

    def window_lengths(self, config: Any, real: int) -> list[int]:
        """Real frames of each window of a clip of ``real`` frames."""
        window = self.window_frames(config)
        full, rest = divmod(real, window)
        return [window] * full + ([rest] if rest else [])

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        real = self.frames(config, size, max_tokens)
        lengths = self.window_lengths(config, real)
        frames = lengths[0] if size == "minimal" and not self.pad_minimal else self.window_frames(config)
        item = {self.features_key: torch.randn(len(lengths), self.mel_bins(config), frames, dtype=dtype, device=device)}
        if self.mask_key is not None:
            lengths_t = torch.tensor(lengths, device=device)
            item[self.mask_key] = (torch.arange(frames, device=device)[None] < lengths_t[:, None]).long()
        return item


def conv_rows(frames: int) -> int:
    """Rows after Whisper's convolutions (the second one has stride 2)."""
    return (frames - 1) // 2 + 1


@dataclass(frozen=True)
class PooledWindows(WindowedMel):
    """Whisper windows whose conv rows are average-pooled 2× (Audio Flamingo 3's tower, and Music Flamingo's)."""

    def window_tokens(self, config: Any, frames: int) -> int:
        return (conv_rows(frames) - 2) // 2 + 1


@contextmanager
def first_rows(layers: Sequence[nn.Module], rows: int) -> Iterator[None]:
    """Run ``layers`` on the first ``rows`` rows of their input: hidden states and any 4-d attention mask."""
    import torch

    def keep(module: nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict]:
        def trim(value: Any, is_mask: bool) -> Any:
            if not isinstance(value, torch.Tensor):
                return value
            if is_mask and value.ndim == 4:
                return value[..., :rows, :rows]
            return value if is_mask else value[:, :rows]

        args = tuple(trim(value, index > 0) for index, value in enumerate(args))
        if "hidden_states" in kwargs:
            kwargs["hidden_states"] = trim(kwargs["hidden_states"], False)
        if "attention_mask" in kwargs:
            kwargs["attention_mask"] = trim(kwargs["attention_mask"], True)
        return args, kwargs

    hooks = [layer.register_forward_pre_hook(keep, with_kwargs=True) for layer in layers]
    try:
        yield
    finally:
        for hook in hooks:
            hook.remove()
