"""The dummy items families are fed: a few shared kinds, each with a minimal and a profile size.

The width does not depend on the item's size, so every kind has a
``minimal`` item (the smallest its code path accepts) and a ``profile`` item
(the one the serving engine encodes at startup). A kind also counts the
embedding tokens of real items where the family's processor has a rule.

- ``PatchGrid``: Qwen-style flattened patches with a ``grid_thw`` of (frames,
  height, width) in patches, in ``ecwidth.families.patch_grid`` with the
  ``smart_resize`` rules it counts tokens by.
- ``FixedTiles``: square tiles of one size, as rows of a batch.
- ``MelFrames``: a log-mel spectrogram and its frame mask.
- ``Waveform``: raw audio samples and their mask, for towers that convolve them;
  ``HopWaveform`` where each token takes a fixed hop of samples.
- LLaVA-NeXT's anyres arithmetic (``anyres_grid``, ``unpadded_grid``), which
  LLaVA-NeXT, LLaVA-OneVision and Granite Vision share.

A family picks a kind and overrides only what differs (its pixel budget, its
profile rule, its key names).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ecwidth.errors import EcwidthError, NoTokenRuleError

if TYPE_CHECKING:
    import torch


DummySize = Literal["minimal", "profile"]
DUMMY_SIZES: tuple[str, ...] = ("minimal", "profile")

#: The longest side of an image or video frame ecwidth counts tokens for: 2^24 pixels, over 1000 times a 16K
#: frame's, and above the 9999999-pixel probe image vLLM sizes GLM's profile with.
MAX_ITEM_SIDE = 2**24
#: The most frames of one video: a day at 60 frames a second.
MAX_ITEM_FRAMES = 24 * 3600 * 60
#: The longest audio clip: a day.
MAX_ITEM_SECONDS = 24 * 3600.0


def check_item_number(name: str, value: float, limit: float) -> None:
    """Refuse a side, frame count or duration that is not above 0 and at most ``limit``: past it, no real item is.

    Compares without converting to ``float``, so that a 400-digit integer is refused rather than raising
    ``OverflowError`` in the token rules; ``NaN`` and infinities are refused too.

    Raises:
        EcwidthError: Names the quantity, the value (shortened) and the limit.
    """
    if 0 < value <= limit:  # False for NaN
        return
    text = repr(value)
    shown = text if len(text) <= 40 else f"{text[:12]}... ({len(text)} digits)"
    bound = f"{int(limit)}" if float(limit).is_integer() else f"{limit:g}"
    raise EcwidthError(f"an item's {name} must be above 0 and at most {bound}, past any real item; got {shown}")


@dataclass(frozen=True)
class ItemSize:
    """A real-world item, for token counts: an image, a video or an audio clip.

    Every size given is checked: sides at most ``MAX_ITEM_SIDE`` pixels, at most
    ``MAX_ITEM_FRAMES`` frames and ``MAX_ITEM_SECONDS`` seconds, so that the token
    rules' arithmetic stays within floats.

    Raises:
        EcwidthError: A size is not positive, or is past its limit.
    """

    modality: str
    height: int | None = None
    width: int | None = None
    frames: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        for name, value, limit in (
            ("height in pixels", self.height, MAX_ITEM_SIDE), ("width in pixels", self.width, MAX_ITEM_SIDE),
            ("frame count", self.frames, MAX_ITEM_FRAMES), ("duration in seconds", self.seconds, MAX_ITEM_SECONDS),
        ):  # fmt: skip
            if isinstance(value, (int, float)) and not isinstance(value, bool):  # a config's [h, w] is the rule's
                check_item_number(name, value, limit)


#: Whisper-style feature extractors: 16 kHz audio, hop 160 samples.
MEL_FRAMES_PER_SECOND = 100


class ItemKind:
    """Makes one dummy item of a modality and, where ``counts_tokens``, counts real items' tokens."""

    #: Whether ``tokens`` and ``profile_tokens`` follow the family's processor.
    counts_tokens: ClassVar[bool] = False

    def make(
        self,
        config: Any,
        modality: str,
        size: DummySize,
        *,
        max_tokens: int | None,
        dtype: torch.dtype,
        device: torch.device,
    ) -> dict[str, Any]:
        """Keyword inputs of the family's feature method for one item."""
        raise NotImplementedError

    def tokens(self, config: Any, item: ItemSize) -> int:
        """Embedding tokens a real item yields."""
        raise NoTokenRuleError(f"no token rule for {config.model_type} {item.modality} items")

    def profile_tokens(self, config: Any, modality: str) -> int:
        """Embedding tokens of the profile item."""
        raise NoTokenRuleError(f"no token rule for {config.model_type} {modality} items")


# -- fixed-size tiles ----------------------------------------------------------


def side(value: int | list[int] | tuple[int, ...]) -> int:
    """One side of a square size that a config may store as an int or as ``[height, width]``."""
    return int(value if isinstance(value, int) else value[0])


def random_tiles(
    count: int, channels: int, height: int, width: int, *, dtype: torch.dtype, device: torch.device
) -> torch.Tensor:
    """``count`` tiles of random pixels; zeros would not do, since Idefics3 drops all-zero tiles as padding."""
    import torch

    return torch.randn(count, channels, height, width, dtype=dtype, device=device)


def tiles_within(tiles: int, tokens_per_tile: int, max_tokens: int | None) -> int:
    """Cap a tile count so the item yields at most ``max_tokens`` tokens, keeping at least one tile."""
    if max_tokens is None:
        return tiles
    return max(1, min(tiles, max_tokens // tokens_per_tile))


class FixedTiles(ItemKind):
    """Square tiles of ``vision_config.image_size`` pixels, as rows of a batch.

    The minimal item is one tile of ``minimal_patches`` patches a side (the
    tower interpolates its position table); the profile item is
    ``profile_tiles`` full tiles. By default an image is one tile of
    ``(image_size / patch_size)²`` tokens; families that cut images into a
    tile grid override ``tiles`` and ``tokens_per_tile``.
    """

    counts_tokens: ClassVar[bool] = True
    #: Keyword the feature method takes the pixels under.
    key: ClassVar[str] = "pixel_values"

    def vision(self, config: Any) -> Any:
        return config.vision_config

    def minimal_patches(self, config: Any) -> int:
        """Patches a side of the minimal tile: the smallest window the family's pooling accepts."""
        return 1

    def tokens_per_tile(self, config: Any) -> int:
        vision = self.vision(config)
        return (side(vision.image_size) // side(vision.patch_size)) ** 2

    def tiles(self, config: Any, item: ItemSize) -> int:
        """Tiles one real item is cut into."""
        return 1

    def profile_tiles(self, config: Any, modality: str) -> int:
        return 1

    def shape(self, tiles: torch.Tensor) -> dict[str, Any]:
        """The feature method's keyword inputs for one item's tiles."""
        return {self.key: tiles}

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        vision = self.vision(config)
        if size == "minimal":
            count, pixels = 1, self.minimal_patches(config) * side(vision.patch_size)
        else:
            count = tiles_within(self.profile_tiles(config, modality), self.tokens_per_tile(config), max_tokens)
            pixels = side(vision.image_size)
        channels = getattr(vision, "num_channels", 3)
        return self.shape(random_tiles(count, channels, pixels, pixels, dtype=dtype, device=device))

    def tokens(self, config: Any, item: ItemSize) -> int:
        return self.tiles(config, item) * self.tokens_per_tile(config)

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self.profile_tiles(config, modality) * self.tokens_per_tile(config)


# -- anyres tiles (LLaVA-NeXT) -------------------------------------------------


def anyres_grid(pinpoints: list[Any], tile: int, height: int, width: int) -> tuple[int, int]:
    """(rows, cols) of tiles of the ``image_grid_pinpoints`` resolution the processor pads an image to."""
    from transformers.image_processing_utils import select_best_resolution  # heavy: only when counting

    best_h, best_w = select_best_resolution((height, width), [tuple(p) for p in pinpoints])
    return math.ceil(best_h / tile), math.ceil(best_w / tile)


def unpadded_grid(height: int, width: int, rows: int, cols: int) -> tuple[int, int]:
    """A ``rows × cols`` feature grid with the padding the image's aspect ratio left removed, as LLaVA-NeXT unpads."""
    if width / height > cols / rows:
        rows -= 2 * ((rows - int(round(height * (cols / width), 7))) // 2)
    else:
        cols -= 2 * ((cols - int(round(width * (rows / height), 7))) // 2)
    return rows, cols


# -- audio ---------------------------------------------------------------------


def longest_clip(tokens: Callable[[int], int], shortest: int, longest: int, max_tokens: int) -> int:
    """The longest clip length in ``[shortest, longest]`` that yields at most ``max_tokens`` tokens (at least
    ``shortest``); ``tokens`` grows with the length, so a binary search finds it."""
    if tokens(longest) <= max_tokens:
        return longest
    low, high = shortest, longest
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if tokens(middle) <= max_tokens else (low, middle - 1)
    return low


def mel_frames(seconds: float) -> int:
    """Mel frames of a clip: the 16 kHz waveform padded to a whole hop.

    Raises:
        EcwidthError: ``seconds`` is past ``MAX_ITEM_SECONDS`` (or not above 0).
    """
    check_item_number("duration in seconds", seconds, MAX_ITEM_SECONDS)
    return math.ceil(seconds * MEL_FRAMES_PER_SECOND)


@dataclass(frozen=True)
class MelFrames(ItemKind):
    """A log-mel spectrogram ``[1, mel bins, frames]`` and its mask.

    ``min_frames``: the shortest clip that yields one embedding.
    ``profile_seconds``: the clip the engine profiles. ``window``: where the
    tower takes only a full padded window, its length in frames (the mask
    then marks the real frames). Families with a token rule override
    ``clip_tokens``.
    """

    min_frames: int = 1
    profile_seconds: float = 30
    window: int | None = None
    features_key: str = "input_features"
    mask_key: str | None = "feature_attention_mask"

    def audio(self, config: Any) -> Any:
        return config.audio_config

    def mel_bins(self, config: Any) -> int:
        return self.audio(config).num_mel_bins

    def window_frames(self, config: Any) -> int | None:
        """Frames of the padded window the tower takes, or ``None`` where it takes the clip as it is."""
        return self.window

    def clip_tokens(self, config: Any, frames: int) -> int:
        """Embeddings the tower emits for a clip of ``frames`` real mel frames."""
        raise NoTokenRuleError(f"no token rule for {config.model_type} audio items")

    @property
    def counts_tokens(self) -> bool:  # type: ignore[override]
        return type(self).clip_tokens is not MelFrames.clip_tokens

    def frames(self, config: Any, size: DummySize, max_tokens: int | None) -> int:
        """Real frames of the dummy clip: the longest within ``max_tokens``, where that caps a profile clip."""
        frames = self.min_frames if size == "minimal" else self.profile_frames(config)
        if max_tokens is None or not self.counts_tokens:
            return frames
        return longest_clip(lambda length: self.clip_tokens(config, length), self.min_frames, frames, max_tokens)

    def profile_frames(self, config: Any) -> int:
        frames, window = mel_frames(self.profile_seconds), self.window_frames(config)
        return frames if window is None else min(frames, window)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        real = self.frames(config, size, max_tokens)
        total = self.window_frames(config) or real
        item = {self.features_key: torch.randn(1, self.mel_bins(config), total, dtype=dtype, device=device)}
        if self.mask_key is not None:
            item[self.mask_key] = (torch.arange(total, device=device) < real).long()[None]
        return item

    def tokens(self, config: Any, item: ItemSize) -> int:
        frames, window = mel_frames(item.seconds), self.window_frames(config)
        return self.clip_tokens(config, frames if window is None else min(frames, window))

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self.clip_tokens(config, self.profile_frames(config))


@dataclass(frozen=True)
class Waveform(ItemKind):
    """A raw mono waveform ``[1, samples]`` (``[1, 1, samples]`` with ``channel_axis``) and its mask of real samples.

    For towers that convolve the waveform themselves (wav2vec2-style feature
    encoders, VibeVoice's tokenizers). ``profile_seconds`` at ``sampling_rate``:
    the clip the engine profiles. Families override ``minimal_samples`` where
    one sample yields no embedding, ``padded_samples`` where the feature
    extractor pads, and ``clip_tokens`` where they have a token rule.
    """

    sampling_rate: int = 16000
    profile_seconds: float = 30
    channel_axis: bool = False
    features_key: str = "input_values"
    mask_key: str = "padding_mask"

    def clip_tokens(self, config: Any, samples: int) -> int:
        """Embeddings the tower emits for a clip of ``samples`` real samples."""
        raise NoTokenRuleError(f"no token rule for {config.model_type} audio items")

    @property
    def counts_tokens(self) -> bool:  # type: ignore[override]
        return type(self).clip_tokens is not Waveform.clip_tokens

    def minimal_samples(self, config: Any) -> int:
        """The shortest clip that yields one embedding."""
        return 1

    def padded_samples(self, config: Any, samples: int) -> int:
        """Length the feature extractor pads a clip of ``samples`` to; the mask marks the real ones."""
        return samples

    def clip_samples(self, seconds: float) -> int:
        return math.ceil(seconds * self.sampling_rate)

    def samples(self, config: Any, size: DummySize, max_tokens: int | None) -> int:
        """Samples of the dummy clip: the longest within ``max_tokens``, where that caps a profile clip."""
        shortest = self.minimal_samples(config)
        samples = shortest if size == "minimal" else self.clip_samples(self.profile_seconds)
        if max_tokens is None or not self.counts_tokens:
            return samples
        return longest_clip(lambda length: self.clip_tokens(config, length), shortest, samples, max_tokens)

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        real = self.samples(config, size, max_tokens)
        total = self.padded_samples(config, real)
        shape = (1, 1, total) if self.channel_axis else (1, total)
        return {
            self.features_key: torch.randn(*shape, dtype=dtype, device=device),
            self.mask_key: (torch.arange(total, device=device) < real).long()[None],
        }

    def tokens(self, config: Any, item: ItemSize) -> int:
        return self.clip_tokens(config, self.clip_samples(item.seconds))

    def profile_tokens(self, config: Any, modality: str) -> int:
        return self.clip_tokens(config, self.clip_samples(self.profile_seconds))


@dataclass(frozen=True)
class HopWaveform(Waveform):
    """A waveform padded to whole hops, as the feature extractor pads it; the tower emits one token a hop begun.

    Families give ``hop``, the samples one token takes.
    """

    def hop(self, config: Any) -> int:
        raise NotImplementedError

    def padded_samples(self, config: Any, samples: int) -> int:
        return self.clip_tokens(config, samples) * self.hop(config)

    def clip_tokens(self, config: Any, samples: int) -> int:
        return math.ceil(samples / self.hop(config))
