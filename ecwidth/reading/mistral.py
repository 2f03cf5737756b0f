"""Mistral-format checkpoints: a ``params.json`` read as vLLM reads it (``--config-format mistral``).

vLLM turns the file into a Hugging Face-shaped config
(``vllm/transformers_utils/configs/mistral.py:adapt_config_dict``): the text
fields are renamed (``dim`` becomes ``hidden_size``). A file with a vision
encoder (``vision_encoder``, or ``multimodal.vision_encoder_args``) becomes a
``pixtral`` config, ``architectures`` ``PixtralForConditionalGeneration``,
whose ``text_config`` is the text model and ``vision_config`` the encoder's
arguments. That class ships its ``VisionLanguageAdapter`` output, ``dim``
wide (``pixtral.py``). A file with a Whisper encoder
(``multimodal.whisper_model_args``: Voxtral) becomes a ``voxtral`` config
(``_remap_mistral_audio_args``), ``VoxtralForConditionalGeneration``, whose
``audio_config`` holds the encoder's arguments under Whisper's names; that
class merges ``downsample_factor`` rows and ships its audio-language adapter's
output, ``dim`` wide too (``voxtral.py``). ecwidth makes the same configs, in
transformers' field names, from the fields a width reads. A causal encoder
(Voxtral Realtime) becomes a ``voxtral_realtime`` config,
``VoxtralRealtimeGeneration``, which ships its pooled convolution rows
(``voxtral_realtime.py``): the encoder's ``dim`` × ``downsample_factor`` wide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.errors import ConfigError
from ecwidth.reading.validate import is_positive_int

#: The file vLLM reads a Mistral-format checkpoint from.
PARAMS_FILE = "params.json"
#: Mistral's text field names and the Hugging Face names vLLM gives them (``_remap_general_mistral_args``).
TEXT_RENAMES = {
    "dim": "hidden_size",
    "n_layers": "num_hidden_layers",
    "n_heads": "num_attention_heads",
    "n_kv_heads": "num_key_value_heads",
    "hidden_dim": "intermediate_size",
    "norm_eps": "rms_norm_eps",
}
#: Fields the vision encoder's arguments cannot do without (``pixtral.py:VisionEncoderArgs``).
VISION_FIELDS = ("hidden_size", "patch_size", "image_size", "num_hidden_layers")


#: Fields a Whisper encoder's arguments cannot do without (``_remap_mistral_audio_args``).
WHISPER_FIELDS = ("dim", "n_layers", "n_heads", "hidden_dim")


def config_from_params(params: Any, *, source: str) -> dict[str, Any]:
    """The Hugging Face-shaped config vLLM makes of a ``params.json``, as far as a width reads it.

    Raises:
        ConfigError: Not an object, ``dim`` missing or not a positive whole number, no encoder (a text-only
            model), both a vision and an audio encoder, or an encoder without the fields its tower needs.
    """
    if not isinstance(params, Mapping):
        raise ConfigError(f"{source}: a params.json must be a JSON object, got {type(params).__name__}")
    multimodal = params.get("multimodal") or {}
    if not isinstance(multimodal, Mapping):
        raise ConfigError(f"{source}: 'multimodal' must be an object, got {type(multimodal).__name__}")
    vision = multimodal.get("vision_encoder_args") or params.get("vision_encoder")
    whisper = multimodal.get("whisper_model_args") or {}
    if not isinstance(whisper, Mapping):
        raise ConfigError(f"{source}: 'multimodal.whisper_model_args' must be an object, got {type(whisper).__name__}")
    audio = whisper if whisper.get("encoder_args") else None  # vLLM's test: Whisper arguments with an encoder
    if vision and audio:
        raise ConfigError(
            f"{source}: this params.json has both a vision encoder and a Whisper encoder, which vLLM refuses "
            "(mutually exclusive); copy the model's published params.json whole"
        )
    if not vision and not audio:
        raise ConfigError(
            f"{source}: this params.json has no vision encoder ('vision_encoder' or "
            "'multimodal.vision_encoder_args') and no Whisper encoder ('multimodal.whisper_model_args'): a "
            "text-only Mistral model has no encoder width to measure"
        )
    dim = params.get("dim")
    if not is_positive_int(dim):
        raise ConfigError(f"{source}: 'dim' (the text model's width) must be a positive whole number, got {dim!r}")
    text = {TEXT_RENAMES.get(name, name): value for name, value in params.items() if name not in ("vision_encoder",
            "multimodal")}  # fmt: skip
    return _voxtral(text, audio, source=source) if audio else _pixtral(text, vision, source=source)


def _pixtral(text: dict[str, Any], vision: Any, *, source: str) -> dict[str, Any]:
    if not isinstance(vision, Mapping):
        raise ConfigError(f"{source}: the vision encoder's arguments must be an object, got {type(vision).__name__}")
    missing = [name for name in VISION_FIELDS if name not in vision]
    if missing:
        raise ConfigError(
            f"{source}: the vision encoder's arguments lack {', '.join(map(repr, missing))}; "
            "copy the model's published params.json whole"
        )
    return {
        "model_type": "pixtral",
        "architectures": ["PixtralForConditionalGeneration"],
        "text_config": text,
        "vision_config": dict(vision),
    }


def _voxtral(text: dict[str, Any], whisper: Mapping[str, Any], *, source: str) -> dict[str, Any]:
    """vLLM's Voxtral config in transformers' names: transformers merges ``intermediate_size // hidden_size``
    rows where vLLM merges ``downsample_factor``, so the two must agree for the tower built to be vLLM's."""
    encoder, downsample = whisper["encoder_args"], whisper.get("downsample_args")
    if not isinstance(encoder, Mapping) or not isinstance(downsample, Mapping):
        raise ConfigError(
            f"{source}: 'multimodal.whisper_model_args' must hold the objects 'encoder_args' and "
            "'downsample_args'; copy the model's published params.json whole"
        )
    bad = [f"encoder_args.{name}" for name in WHISPER_FIELDS if not is_positive_int(encoder.get(name))]
    factor = downsample.get("downsample_factor")
    bad += [] if is_positive_int(factor) else ["downsample_args.downsample_factor"]
    mel = encoder.get("audio_encoding_args") or {}
    bins = mel.get("num_mel_bins") if isinstance(mel, Mapping) else None
    bad += [] if is_positive_int(bins) else ["encoder_args.audio_encoding_args.num_mel_bins"]
    if bad:
        raise ConfigError(
            f"{source}: the Whisper encoder's {', '.join(map(repr, bad))} must be positive whole numbers; "
            "copy the model's published params.json whole"
        )
    if encoder.get("causal"):
        return _voxtral_realtime(text, encoder, factor, bins)
    if encoder["hidden_dim"] != encoder["dim"] * factor:
        raise ConfigError(
            f"{source}: the Whisper encoder's hidden_dim ({encoder['hidden_dim']}) is not dim × downsample_factor "
            f"({encoder['dim']} × {factor}), which transformers' Voxtral assumes when it merges rows; pass the "
            "model's Hugging Face-format config.json instead"
        )
    audio = {
        "model_type": "voxtral_encoder",
        "hidden_size": encoder["dim"],
        "num_hidden_layers": encoder["n_layers"],
        "num_attention_heads": encoder["n_heads"],
        "intermediate_size": encoder["hidden_dim"],
        "num_mel_bins": bins,
    }
    audio.update({name: encoder[name] for name in ("vocab_size", "max_source_positions") if encoder.get(name)})
    return {
        "model_type": "voxtral",
        "architectures": ["VoxtralForConditionalGeneration"],
        "text_config": {"model_type": "llama", **text},
        "audio_config": audio,
    }


def _voxtral_realtime(text: dict[str, Any], encoder: Mapping[str, Any], factor: int, bins: int) -> dict[str, Any]:
    """vLLM's config of a causal Whisper encoder (Voxtral Realtime), in transformers' names: architecture
    ``VoxtralRealtimeGeneration``, whose ``block_pool_size`` is the downsample factor."""
    audio = {
        "model_type": "voxtral_realtime_encoder",
        "hidden_size": encoder["dim"],
        "num_hidden_layers": encoder["n_layers"],
        "num_attention_heads": encoder["n_heads"],
        "intermediate_size": encoder["hidden_dim"],
        "num_mel_bins": bins,
    }
    audio.update({name: encoder[name] for name in ("head_dim", "sliding_window") if is_positive_int(encoder.get(name))})
    return {
        "model_type": "voxtral_realtime",
        "architectures": ["VoxtralRealtimeGeneration"],
        "text_config": {"model_type": "voxtral_realtime_text", **text},
        "audio_config": audio,
        "downsample_factor": factor,
    }
