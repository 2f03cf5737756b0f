"""InternVL's remote-code chat models and their kin: ``mlp1`` (or a projector) to the text width; engine only.

The checkpoints are remote code (``InternVLChatConfig`` and its copies); no
transformers class reads their schema, and ecwidth runs no hub code unless
asked, so the spec is the raw config read as data (``engine_only``) and the
width is predicted from the engine's rule. With ``--trust-remote-code`` and
the checkpoint's code files beside its config, ``internvl_chat`` is measured
through that code instead (``snapshot_code``). vLLM reads the text model's
config as ``text_config`` (its ``_CONFIG_ATTRS_MAPPING`` renames the
published ``llm_config``), so either name is read here.

Every engine class below runs the tiles through its vision tower, drops the
CLS row, pixel-shuffles by ``downsample_ratio`` and projects with ``mlp1`` to
``text_config.hidden_size``, shipping ``[tiles x tokens, text hidden]`` per
item (``_process_vision_input`` / ``_process_image_input``'s
``view(-1, text_config.hidden_size)``):

* ``internvl_chat``: ``internvl.py:InternVLChatModel`` (``_init_mlp1``:
  LayerNorm, Linear to the text width, GELU, Linear). Images always; videos,
  through the same path, only where ``InternVLProcessingInfo.ctx_video_token``
  finds a video token: a text model of type ``qwen2``, ``qwen3``,
  ``qwen3_moe`` or ``gpt_oss`` (whose tokenizer must also hold the token,
  which the config alone cannot show; a listed type is taken to).
* ``h2ovl_chat``: ``h2ovl.py:H2OVLChatModel``, InternVL's ``mlp1``; images only
  (``BaseInternVLProcessingInfo.get_supported_mm_limits``).
* ``NVLM_D``: ``nvlm_d.py:NVLM_D_Model``, whose ``mlp1`` goes through the text
  model's ``intermediate_size`` and ends at its ``hidden_size``; images only.
* ``skywork_chat``: ``skyworkr1v.py:SkyworkR1VChatModel``, InternVL's ``mlp1``;
  images only.
* ``eagle_2_5_vl``: ``eagle2_5_vl.py:Eagle2_5_VLForConditionalGeneration``, a
  SigLIP tower and InternVL's ``mlp1``; its config names ``text_config``;
  images only.
* ``Llama_Nemotron_Nano_VL``: ``nemotron_vl.py:LlamaNemotronVLChatModel``, a
  RADIO tower and ``mlp1`` from ``vit_hidden_size`` through
  ``projector_hidden_size`` to the text width; images only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.families._intern_tiles import InternVLTiles
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.engine_rule import SNAPSHOT_CODE
from ecwidth.families.snapshot import SnapshotCode

_ENGINE_ONLY = "no transformers class can build this family (remote code, which ecwidth never runs)"
#: Text model types whose tokenizers ``InternVLProcessingInfo.ctx_video_token`` maps to a video token.
VIDEO_TEXT_MODEL_TYPES = frozenset({"qwen2", "qwen3", "qwen3_moe", "gpt_oss"})


def text_config(config: Any) -> Any:
    """The text model's config: ``text_config`` where the file names it, else the published ``llm_config``."""
    found = getattr(config, "text_config", None)
    return found if found is not None else config.llm_config


class _ChatTiles(InternVLTiles):
    """InternViT's tiles, the text model's length read under the chat schema's name for it (``llm_config``)."""

    def profile_tiles(self, config: Any, modality: str) -> int:
        if modality == "image":
            return super().profile_tiles(config, modality)
        return max(1, text_config(config).max_position_embeddings // self.tokens_per_tile(config))


class _TextWidth(FamilyAdapter):
    """Shared: the raw config read as data; every modality at the text model's ``hidden_size``."""

    engine_only = True
    look_alikes = ("vision_config.hidden_size",)

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        """The text width, under the name the file uses (``llm_config`` as published, or ``text_config``)."""
        return ("text_config.hidden_size",) if "text_config" in raw else ("llm_config.hidden_size",)

    def lm_hidden_size(self, config: Any) -> int:
        return int(text_config(config).hidden_size)


@register
class InternVLChatAdapter(_TextWidth):
    model_types = ("internvl_chat",)
    predicted_only = {"image": SNAPSHOT_CODE, "video": SNAPSHOT_CODE}
    #: with --trust-remote-code, the checkpoint's ``InternVLChatModel.extract_feature`` (ViT, pixel shuffle,
    #: ``mlp1``), which its ``chat`` feeds the language model, on InternViT's tiles.
    snapshot_code = SnapshotCode(
        auto_class="AutoModel",
        encoder_attributes=("vision_model", "mlp1"),
        feature_method="extract_feature",
        items={"image": _ChatTiles(), "video": _ChatTiles()},
    )

    def predict(self, config: Any) -> dict[str, int]:
        width = self.lm_hidden_size(config)
        video = getattr(text_config(config), "model_type", None) in VIDEO_TEXT_MODEL_TYPES
        return {"image": width, **({"video": width} if video else {})}


@register
class InternVLChatImagesAdapter(_TextWidth):
    model_types = ("h2ovl_chat", "NVLM_D", "skywork_chat", "eagle_2_5_vl", "Llama_Nemotron_Nano_VL")
    predicted_only = {"image": _ENGINE_ONLY}


@register
class InternS1Adapter(_TextWidth):
    model_types = ("interns1",)
    predicted_only = {"image": _ENGINE_ONLY, "video": _ENGINE_ONLY}
