"""Mistral-format checkpoints: a ``params.json`` read as vLLM reads it (``--config-format mistral``).

vLLM turns the file into a Hugging Face-shaped config
(``vllm/transformers_utils/configs/mistral.py:adapt_config_dict``): the text
fields are renamed (``dim`` becomes ``hidden_size``), and a file with a vision
encoder (``vision_encoder``, or ``multimodal.vision_encoder_args``) becomes a
``pixtral`` config, ``architectures`` ``PixtralForConditionalGeneration``,
whose ``text_config`` is the text model and ``vision_config`` the encoder's
arguments. That class ships its ``VisionLanguageAdapter`` output, ``dim``
wide (``pixtral.py``). ecwidth makes the same config from the fields a width
reads. Audio checkpoints (``multimodal.whisper_model_args``: Voxtral) become
vLLM's Voxtral config, whose Whisper fields ecwidth does not map yet; they are
refused, naming the Hugging Face-format file to pass instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.errors import ConfigError

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


def config_from_params(params: Any, *, source: str) -> dict[str, Any]:
    """The Hugging Face-shaped config vLLM makes of a ``params.json``, as far as a width reads it.

    Raises:
        ConfigError: Not an object, ``dim`` missing or not a positive whole number, an audio checkpoint, no
            vision encoder (a text-only model), or a vision encoder without the fields its tower needs.
    """
    if not isinstance(params, Mapping):
        raise ConfigError(f"{source}: a params.json must be a JSON object, got {type(params).__name__}")
    multimodal = params.get("multimodal") or {}
    if not isinstance(multimodal, Mapping):
        raise ConfigError(f"{source}: 'multimodal' must be an object, got {type(multimodal).__name__}")
    if multimodal.get("whisper_model_args"):
        raise ConfigError(
            f"{source}: a Mistral-format audio checkpoint (Voxtral) is not read yet; pass the model's "
            "Hugging Face-format config.json instead"
        )
    vision = multimodal.get("vision_encoder_args") or params.get("vision_encoder")
    if not vision:
        raise ConfigError(
            f"{source}: this params.json has no vision encoder ('vision_encoder' or "
            "'multimodal.vision_encoder_args'): a text-only Mistral model has no encoder width to measure"
        )
    if not isinstance(vision, Mapping):
        raise ConfigError(f"{source}: the vision encoder's arguments must be an object, got {type(vision).__name__}")
    dim = params.get("dim")
    if isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0:
        raise ConfigError(f"{source}: 'dim' (the text model's width) must be a positive whole number, got {dim!r}")
    missing = [name for name in VISION_FIELDS if name not in vision]
    if missing:
        raise ConfigError(
            f"{source}: the vision encoder's arguments lack {', '.join(map(repr, missing))}; "
            "copy the model's published params.json whole"
        )
    text = {TEXT_RENAMES.get(name, name): value for name, value in params.items() if name not in ("vision_encoder",
            "multimodal")}  # fmt: skip
    return {
        "model_type": "pixtral",
        "architectures": ["PixtralForConditionalGeneration"],
        "text_config": text,
        "vision_config": dict(vision),
    }
