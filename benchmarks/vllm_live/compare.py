"""Run vLLM 0.32's own model classes on a CPU and compare what ``embed_multimodal`` ships with ``ecwidth measure``.

ecwidth reads each family's packing from vLLM's source; this runs that
source. Each tiny config in ``tests/tiny/`` is built by vLLM with dummy
weights (``load_format="dummy"``, no tokenizer, eager), one item per modality
goes through ``embed_multimodal``, and the last dimension of each returned
tensor is set beside the width ``ecwidth measure --config`` reports. A family
vLLM serves through its Transformers backend gets an HF processor and a
placeholder tokenizer written beside its config, as that backend asks the
processor which modalities it serves.

    bash benchmarks/vllm_live/setup.sh                      # once: build/vllm_live/venv
    OMP_NUM_THREADS=1 PYTHONPATH=benchmarks/vllm_live/stubs \\
        build/vllm_live/venv/bin/python benchmarks/vllm_live/compare.py qwen3_vl llava ...

One JSON line per model type goes to stdout (``agree`` per modality); a
family vLLM cannot build here records its error. Config changes made for
vLLM (``LM_ONLY_CHANGES``) touch the language model's fields alone, never a
tower's or a projector's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

torch.set_num_threads(1)
# vLLM's loader empties the accelerator's cache after loading; a CPU-only torch raises there.
torch.accelerator.empty_cache = lambda: None
# Gemma 4 sizes its vision batches from the accelerator's free memory; here the host's stands in.
_page = os.sysconf("SC_PAGE_SIZE")
torch.accelerator.get_memory_info = lambda device_index=None: (os.sysconf("SC_AVPHYS_PAGES") * _page,
                                                               os.sysconf("SC_PHYS_PAGES") * _page)  # fmt: skip

from vllm import _custom_ops  # noqa: E402

# vLLM's CPU GEMM wants a contiguous last dimension; Llama 4's patch embedding hands it a permuted view.
_onednn_mm = _custom_ops.onednn_mm
_custom_ops.onednn_mm = lambda handler, x, bias: _onednn_mm(handler, x.contiguous(), bias)


from vllm.model_executor.layers import utils as _layer_utils  # noqa: E402

# vLLM's CPU linear drops its weight once it is repacked for oneDNN; SigLIP's attention-pooling head, run as
# transformers wrote it by the Transformers backend, reads its nn.MultiheadAttention's out_proj.weight directly.
_dispatch_gemm = _layer_utils.dispatch_cpu_unquantized_gemm
_layer_utils.dispatch_cpu_unquantized_gemm = lambda layer, remove_weight: _dispatch_gemm(layer, remove_weight=False)


def _q_kv_rmsnorm(q: torch.Tensor, kv: torch.Tensor, q_weight: torch.Tensor, kv_weight: torch.Tensor,
                  eps: float) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """Row-wise RMSNorm of ``q`` and ``kv``, in float32, as vLLM's fused Triton kernel computes it."""

    def norm(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps) * weight.float()).to(x.dtype)

    return norm(q, q_weight), norm(kv, kv_weight)


# GLM-5-Next's vision attention calls that Triton kernel, which has no CPU backend; the same norm stands in.
from vllm.models.glm5next.common import multimodal as _glm5next_multimodal  # noqa: E402

_glm5next_multimodal.fused_q_kv_rmsnorm = _q_kv_rmsnorm

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "tiny"
WORK = ROOT / "build" / "vllm_live"

#: The architecture each family's published config names, which vLLM's registry is keyed by.
ARCHITECTURES = {
    "qwen3_vl": "Qwen3VLForConditionalGeneration",
    "qwen3_vl_moe": "Qwen3VLMoeForConditionalGeneration",
    "qwen2_5_vl": "Qwen2_5_VLForConditionalGeneration",
    "qwen2_vl": "Qwen2VLForConditionalGeneration",
    "glm4v": "Glm4vForConditionalGeneration",
    "llava": "LlavaForConditionalGeneration",
    "llava_next": "LlavaNextForConditionalGeneration",
    "paligemma": "PaliGemmaForConditionalGeneration",
    "mistral3": "Mistral3ForConditionalGeneration",
    "gemma3": "Gemma3ForConditionalGeneration",
    "idefics3": "Idefics3ForConditionalGeneration",
    "smolvlm": "SmolVLMForConditionalGeneration",
    "qwen2_audio": "Qwen2AudioForConditionalGeneration",
    "llava_onevision": "LlavaOnevisionForConditionalGeneration",
    "internvl": "InternVLForConditionalGeneration",
    "cohere2_vision": "Cohere2VisionForConditionalGeneration",
    "blip-2": "Blip2ForConditionalGeneration",
    "llama4": "Llama4ForConditionalGeneration",
    "lfm2_vl": "Lfm2VlForConditionalGeneration",
    "paddleocr_vl": "PaddleOCRVLForConditionalGeneration",
    "glm4v_moe": "Glm4vMoeForConditionalGeneration",
    "qwen2_5_omni": "Qwen2_5OmniForConditionalGeneration",
    "qwen3_omni_moe": "Qwen3OmniMoeForConditionalGeneration",
    "gemma4": "Gemma4ForConditionalGeneration",
    "exaone4_5": "Exaone4_5_ForConditionalGeneration",
    "cohere_compass": "CohereCompassForConditionalGeneration",
    "kimi_k25": "KimiK25ForConditionalGeneration",
    "granite4_vision": "Granite4VisionForConditionalGeneration",
    "audioflamingo3": "AudioFlamingo3ForConditionalGeneration",
    "glmasr": "GlmAsrForConditionalGeneration",
    "granite_speech": "GraniteSpeechForConditionalGeneration",
    "minicpmv4_6": "MiniCPMV4_6ForConditionalGeneration",
    "minicpmv4_7": "MiniCPMV4_7ForConditionalGeneration",
    "qwen3_5": "Qwen3_5ForConditionalGeneration",
    "qwen3_5_moe": "Qwen3_5MoeForConditionalGeneration",
    "qwen4_exp": "Qwen4ExpForConditionalGeneration",
    "cosmos3_omni": "Cosmos3ForConditionalGeneration",
    "cosmos3_edge": "Cosmos3EdgeForConditionalGeneration",
    "glm_ocr": "GlmOcrForConditionalGeneration",
    "glm5_next": "Glm5NextForConditionalGeneration",
    "hyperclovax_vision_v2": "HCXVisionV2ForCausalLM",
    "minimax_m3_vl": "MiniMaxM3SparseForConditionalGeneration",
    "shieldgemma2": "Gemma3ForConditionalGeneration",
    "granite_speech_plus": "GraniteSpeechPlusForConditionalGeneration",
    "diffusion_gemma": "DiffusionGemmaForBlockDiffusion",
    "gemma4_unified": "Gemma4UnifiedForConditionalGeneration",
    "llava_next_video": "LlavaNextVideoForConditionalGeneration",
    "qianfan_ocr": "QianfanOCRForConditionalGeneration",
    "nemotron_h_omni": "NemotronH_Omni_Reasoning_V3",
}

#: Architectures vLLM does not register: with model_impl "auto" its registry falls back to the Transformers
#: backend (TransformersMultiModalForCausalLM, models/transformers/multimodal.py) for a class transformers has.
TRANSFORMERS_BACKEND_ARCHITECTURES = {
    "idefics2": "Idefics2ForConditionalGeneration",
    "video_llava": "VideoLlavaForConditionalGeneration",
    "vipllava": "VipLlavaForConditionalGeneration",
    "aya_vision": "AyaVisionForConditionalGeneration",
    "got_ocr2": "GotOcr2ForConditionalGeneration",
    "janus": "JanusForConditionalGeneration",
    "deepseek_vl": "DeepseekVLForConditionalGeneration",
}

#: Language-model fields vLLM's classes need that a tiny config leaves out or sets in a way they refuse.
LM_ONLY_CHANGES: dict[str, dict[str, Any]] = {
    # vLLM's Qwen3-MoE block reads norm_topk_prob; its CPU MoE kernel wants a hidden size divisible by 32.
    "qwen3_vl_moe": {
        "text_config": {"norm_topk_prob": True, "hidden_size": 64, "head_dim": 32, "moe_intermediate_size": 32}
    },  # fmt: skip
    # vLLM refuses a max_model_len (1024) above the LM's max_position_embeddings (64 in these tiny configs).
    "internvl": {"text_config": {"max_position_embeddings": 1024}},
    "minicpmv4_6": {"text_config": {"max_position_embeddings": 1024}},
    "minicpmv4_7": {"text_config": {"max_position_embeddings": 1024}},
    "llava_next_video": {"text_config": {"max_position_embeddings": 1024}},
    "qianfan_ocr": {"text_config": {"max_position_embeddings": 1024}},
    # The same CPU MoE kernel; Llama 4's width is the LM's hidden size (40), so its two layers go dense instead.
    "llama4": {"text_config": {"interleave_moe_layer_step": 3}},
    # vLLM's GLM-4 MoE layer reads use_qk_norm; the CPU MoE kernel's hidden size of 64 leaves the width alone
    # (the vision merger's out_hidden_size).
    "glm4v_moe": {"text_config": {"use_qk_norm": False, "hidden_size": 64, "moe_intermediate_size": 32}},
    # Qwen3-Omni's one thinker layer made dense (mlp_only_layers) sidesteps the CPU MoE kernel;
    # its text config in transformers 5.19 leaves out tie_word_embeddings, which vLLM reads. (Its vision tower
    # also reads vision_config.apply_vit_abs_pos_embed, a tower field the tiny config lacks: it stops there.)
    "qwen3_omni_moe": {
        "thinker_config": {
            "text_config": {"norm_topk_prob": True, "mlp_only_layers": [0], "tie_word_embeddings": False}
        }
    },  # fmt: skip
    # vLLM's Cohere Compass LM asserts tied embeddings, which transformers 5.19's top-level config defaults off.
    "cohere_compass": {"tie_word_embeddings": True},
    # vLLM's LFM2 layers read the conv_* and block_* fields published configs carry, at the hidden size.
    "lfm2_vl": {
        "text_config": {
            "conv_dim": 40,
            "conv_L_cache": 3,
            "block_dim": 40,
            "block_multiple_of": 16,
            "block_auto_adjust_ff_dim": False,
            "block_ffn_dim_multiplier": 1.0,
        }
    },  # fmt: skip
    # transformers 5.19's Qwen4-Exp leaves output_gate_type None (it falls back to hidden_act), and vLLM's GDN
    # layer asserts a named gate; every layer is MoE, so the CPU MoE kernel's hidden size as for Qwen3-VL-MoE.
    "qwen4_exp": {
        "text_config": {
            "output_gate_type": "silu",
            "hidden_size": 64,
            "head_dim": 32,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
        }
    },  # fmt: skip
    # vLLM's GLM-5-Next reads mhc, mla_use_nope, topk_method, scoring_func and indexer_rope_interleave, which
    # transformers 5.19's Glm5NextTextConfig does not define; hyper-connections (mhc) off, as vLLM's CPU lacks
    # their kernels; no rope dims (qk_rope_head_dim 0) means no-PE attention; its one layer made linear (KDA),
    # since vLLM has no CPU backend for the sparse (indexed) attention.
    "glm5_next": {
        "text_config": {
            "mhc": False,
            "mla_use_nope": True,
            "topk_method": "noaux_tc",
            "scoring_func": "sigmoid",
            "indexer_rope_interleave": False,
            "layer_types": ["linear_attention"],
        }
    },  # fmt: skip
    "qwen3_5_moe": {
        "text_config": {
            "hidden_size": 64,
            "head_dim": 32,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
        }
    },  # fmt: skip
}


def _merged(config: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``config`` with ``changes`` laid over it, nested sections merged rather than replaced."""
    return {**config, **{key: _merged(config.get(key, {}), value) if isinstance(value, dict) else value
                         for key, value in changes.items()}}  # fmt: skip


def prepared(model_type: str) -> tuple[Path, dict[str, Any]]:
    """A folder holding the tiny config as vLLM reads it (and a backend family's processor), and that config."""
    config = json.loads((TINY / f"{model_type}.json").read_text())
    architecture = ARCHITECTURES.get(model_type) or TRANSFORMERS_BACKEND_ARCHITECTURES[model_type]
    config.setdefault("architectures", [architecture])
    config = _merged(config, LM_ONLY_CHANGES.get(model_type, {}))
    folder = WORK / model_type
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1))
    if model_type in TRANSFORMERS_BACKEND_ARCHITECTURES:
        write_processor(model_type, folder)
    return folder, config


def write_processor(model_type: str, folder: Path) -> None:
    """Save the family's HF processor, with default sub-processors and an eight-token tokenizer, into ``folder``.

    vLLM's config asks the Transformers backend which modalities it serves, and the backend asks the HF
    processor; the items below bypass the processor, so only its kinds of sub-processor matter.
    """
    import transformers
    from tokenizers import Tokenizer, models
    from transformers.models.auto.image_processing_auto import IMAGE_PROCESSOR_MAPPING_NAMES
    from transformers.models.auto.processing_auto import PROCESSOR_MAPPING_NAMES
    from transformers.models.auto.video_processing_auto import VIDEO_PROCESSOR_MAPPING_NAMES

    processor = getattr(transformers, PROCESSOR_MAPPING_NAMES[model_type])
    special = {"image_token": "<image>", "video_token": "<video>", "boi_token": "<boi>", "eoi_token": "<eoi>"}
    vocab = {token: index for index, token in enumerate(["<unk>", "<pad>", "<s>", "</s>", *special.values()])}
    parts: dict[str, Any] = {
        "tokenizer": transformers.PreTrainedTokenizerFast(
            tokenizer_object=Tokenizer(models.WordLevel(vocab, unk_token="<unk>")),
            unk_token="<unk>",
            pad_token="<pad>",
            extra_special_tokens=special,
        )
    }
    for part, names in (("image_processor", IMAGE_PROCESSOR_MAPPING_NAMES),
                        ("video_processor", VIDEO_PROCESSOR_MAPPING_NAMES)):  # fmt: skip
        if part in processor.get_attributes():
            name = names[model_type]  # the PIL image processors: torchvision does not load beside this torch
            name = name.get("pil", name.get("torchvision")) if isinstance(name, dict) else name
            parts[part] = getattr(transformers, name)()
    processor(**parts).save_pretrained(folder)


def vllm_model(folder: Path) -> tuple[Any, torch.nn.Module]:
    """vLLM's config and model for ``folder``, dummy weights, in a fresh world-size-1 gloo group."""
    from vllm.config import set_current_vllm_config
    from vllm.distributed import init_distributed_environment, initialize_model_parallel, parallel_state
    from vllm.engine.arg_utils import EngineArgs
    from vllm.model_executor.model_loader import get_model

    config = EngineArgs(
        model=str(folder), load_format="dummy", skip_tokenizer_init=not (folder / "tokenizer.json").exists(),
        enforce_eager=True,
        dtype="float32", max_model_len=1024,
        # No KV cache is used here; and on a CPU an MLA model with linear-attention layers (GLM-5-Next) has prefix
        # caching turned off after its mamba block size was set for it, which vLLM's config check then refuses.
        enable_prefix_caching=False,
    ).create_engine_config()  # fmt: skip
    with set_current_vllm_config(config):
        if parallel_state.model_parallel_is_initialized():  # an MoE model needs groups the others do not make
            parallel_state.destroy_model_parallel()
            parallel_state.destroy_distributed_environment()
        rendezvous = Path(tempfile.mkdtemp()) / "rendezvous"
        init_distributed_environment(world_size=1, rank=0, local_rank=0,
                                     distributed_init_method=f"file://{rendezvous}", backend="gloo")  # fmt: skip
        initialize_model_parallel(1, 1)
        return config, get_model(vllm_config=config).eval()


def ecwidth_widths(model_type: str) -> dict[str, Any]:
    """What ``ecwidth measure --config`` reports for the same tiny config."""
    run = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "ecwidth"), "measure", "--config", str(TINY / f"{model_type}.json"), "--json"],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    if run.returncode:
        return {"error": run.stderr.strip()[-400:]}
    return json.loads(run.stdout)["widths"]


# -- one item per modality, in the keyword inputs each vLLM class parses ------------------------


def _patches(config: dict[str, Any], video: bool = False) -> dict[str, torch.Tensor]:
    vision = config["vision_config"]
    patch, temporal = vision.get("patch_size", 14), vision.get("temporal_patch_size", 2)
    channels = vision.get("in_channels", vision.get("in_chans", 3))
    pixels, grid = torch.randn(16, channels * temporal * patch * patch), torch.tensor([[1, 4, 4]])
    return (
        {"pixel_values_videos": pixels, "video_grid_thw": grid}
        if video
        else {"pixel_values": pixels, "image_grid_thw": grid}
    )


def _siglip2_patches(config: dict[str, Any], video: bool = False) -> dict[str, torch.Tensor]:
    patch = config["vision_config"]["patch_size"]  # SigLIP2 patches of one frame, no temporal patch
    pixels, grid = torch.randn(16, 3 * patch * patch), torch.tensor([[1, 4, 4]])
    return (
        {"pixel_values_videos": pixels, "video_grid_thw": grid}
        if video
        else {"pixel_values": pixels, "image_grid_thw": grid}
    )


def _tile(config: dict[str, Any]) -> torch.Tensor:
    side = config["vision_config"]["image_size"]
    return torch.randn(1, 3, side, side)


def qwen_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": _patches(config), "video": _patches(config, video=True)}


def siglip2_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": _siglip2_patches(config), "video": _siglip2_patches(config, video=True)}


def patch_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": _patches(config)}


def tile_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": {"pixel_values": _tile(config)}}


def gemma3_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": {"pixel_values": _tile(config), "num_patches": torch.tensor([1])}}


def idefics3_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    pixels = _tile(config)
    mask = torch.ones(pixels.shape[0], *pixels.shape[2:], dtype=torch.bool)
    return {"image": {"pixel_values": pixels, "pixel_attention_mask": mask, "num_patches": torch.tensor([1])}}


def llava_next_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    side = config["vision_config"]["image_size"]  # a 2x2-tile image: the base view and four tiles
    return {"image": {"pixel_values": torch.randn(1, 5, 3, side, side), "image_sizes": torch.tensor([[2 * side] * 2])}}


def qwen2_audio_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    bins = config["audio_config"]["num_mel_bins"]
    return {"audio": {"input_features": torch.randn(1, bins, 3000),
                      "feature_attention_mask": torch.ones(1, 3000, dtype=torch.long)}}  # fmt: skip


def video_frames_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    side = config["vision_config"]["image_size"]  # two frames of one video
    return {"video": {"pixel_values_videos": torch.randn(1, 2, 3, side, side)}}


def llava_onevision_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {**llava_next_items(config), **video_frames_items(config)}


def internvl_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    side, tile = config["vision_config"]["image_size"], torch.tensor([1])  # one tile; one one-tile frame
    pixels = torch.randn(1, 3, *side)
    return {"image": {"pixel_values": pixels, "image_num_patches": tile, "image_token_id": 1},
            "video": {"pixel_values_videos": pixels, "video_num_patches": tile, "video_token_id": 2}}  # fmt: skip


def internvl_chat_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    side = config["vision_config"]["image_size"]  # one tile, in the remote-code InternVLChatModel's inputs
    side = side[0] if isinstance(side, list) else side
    return {"image": {"pixel_values_flat": torch.randn(1, 3, side, side), "image_num_patches": torch.tensor([1]),
                      "image_token_id": 1}}  # fmt: skip


def nemotron_h_omni_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    side, bins, frames = config["vision_config"]["image_size"], config["sound_config"]["num_mel_bins"], 64
    return {"image": {"pixel_values_flat": torch.randn(1, 3, side, side), "image_num_patches": torch.tensor([1])},
            "audio": {"input_audio_features": torch.randn(1, frames, bins),
                      "feature_attention_mask": torch.ones(1, frames, dtype=torch.bool),
                      "audio_num_clips": torch.tensor([1])}}  # fmt: skip


def llama4_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": {"pixel_values": _tile(config), "patches_per_image": torch.tensor([1]),
                      "aspect_ratios": torch.tensor([[1, 1]])}}  # fmt: skip


def lfm2_vl_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    vision = config["vision_config"]  # one tile of num_patches flattened patches, a square grid
    side, patch = int(vision["num_patches"] ** 0.5), vision["patch_size"]
    return {"image": {"pixel_values": torch.randn(1, side * side, 3 * patch * patch),
                      "spatial_shapes": torch.tensor([[side, side]]), "num_patches": torch.tensor([1])}}  # fmt: skip


def paddleocr_vl_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    patch = config["vision_config"]["patch_size"]  # one 4x4-patch image, the patches stacked per image
    pixels = torch.randn(1, 16, 3, patch, patch)
    return {"image": {"pixel_values": pixels, "image_grid_thw": torch.tensor([[1, 4, 4]])}}


def omni_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    thinker = config["thinker_config"]  # the audio as the Python frontend flattens it: (mel bins, frames)
    frames, bins = 400, thinker["audio_config"]["num_mel_bins"]
    audio = {"input_audio_features": torch.randn(bins, frames), "audio_feature_lengths": torch.tensor([frames]),
             "feature_attention_mask": torch.ones(1, frames, dtype=torch.long)}  # fmt: skip
    return {**qwen_items(thinker), "audio": audio}


def _gemma4_inputs(side: int, patch_dim: int, frames: int, frame_dim: int) -> dict[str, dict[str, torch.Tensor]]:
    pixels = torch.randn(1, side * side, patch_dim)  # one side x side-patch image (and one-frame video)
    positions = torch.cartesian_prod(torch.arange(side), torch.arange(side)).flip(-1)[None]  # (x, y) per patch
    return {"image": {"pixel_values": pixels, "pixel_position_ids": positions},
            "video": {"pixel_values_videos": pixels, "pixel_position_ids_videos": positions,
                      "video_frame_counts": torch.tensor([1])},
            "audio": {"input_features_padded": torch.randn(1, frames, frame_dim),
                      "input_features_mask": torch.ones(1, frames, dtype=torch.bool)}}  # fmt: skip


def gemma4_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    vision = config["vision_config"]  # a 6x6-patch image (4 soft tokens after 3x3 pooling); 200 frames of 128 mels
    patch = vision["patch_size"]
    return _gemma4_inputs(2 * vision["pooling_kernel_size"], 3 * patch * patch, 200, 128)


def gemma4_unified_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    vision = config["vision_config"]  # no towers: a 2x2 grid of merged patches; 50 frames of raw samples
    patch = vision["patch_size"] * vision["pooling_kernel_size"]
    return _gemma4_inputs(2, 3 * patch * patch, 50, config["audio_config"]["audio_embed_dim"])


def gemma4_vision_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {modality: inputs for modality, inputs in gemma4_items(config).items() if modality != "audio"}


def kimi_k25_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    patch = config["vision_config"]["patch_size"]  # one 4x4-patch image, the patches stacked
    return {"vision_chunk": {"pixel_values": torch.randn(16, 3, patch, patch), "grid_thws": torch.tensor([[1, 4, 4]])}}


def anyres_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    side = config["vision_config"]["image_size"]  # an image the size of one tile: the base view and that tile
    return {"image": {"pixel_values": torch.randn(1, 2, 3, side, side), "image_sizes": torch.tensor([[side, side]])}}


def whisper_chunk_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    bins = config["audio_config"]["num_mel_bins"]  # one 30 s chunk of one audio
    return {"audio": {"input_features": torch.randn(1, bins, 3000), "chunk_counts": torch.tensor([1]),
                      "feature_attention_mask": torch.ones(1, 3000, dtype=torch.long)}}  # fmt: skip


def granite_speech_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    frames, window = 30, config["window_size"]  # two projector windows, each window_size / downsample_rate tokens
    tokens = -(-frames // window) * (window // config["downsample_rate"])
    return {"audio": {"input_features": torch.randn(1, frames, config["encoder_config"]["input_dim"]),
                      "audio_embed_sizes": torch.tensor([tokens])}}  # fmt: skip


def minicpmv_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    vision = config["vision_config"]  # one slice per item, its patches side by side: (3, patch, patch * patches)
    patch, side = vision["patch_size"], vision["image_size"] // vision["patch_size"]
    slices, sizes = [[torch.randn(3, patch, patch * side * side)]], [torch.tensor([[side, side]])]
    return {"image": {"pixel_values": slices, "tgt_sizes": sizes},
            "video": {"video_pixel_values": slices, "video_tgt_sizes": sizes}}  # fmt: skip


def backend_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One tile, as the Transformers backend hands it to the HF model's ``get_image_features``."""
    return {"image": {"pixel_values": _tile(config), "num_image_patches": torch.tensor([1])}}


def idefics2_backend_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": {"pixel_values": _tile(config)[None], "num_image_patches": torch.tensor([1])}}  # (1, images, ...)


def video_llava_backend_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    frames = video_frames_items(config)["video"]  # the backend reads images from pixel_values
    return {**backend_items(config), "video": {**frames, "num_video_patches": torch.tensor([1])}}


ITEMS = {
    "qwen3_vl": qwen_items, "qwen3_vl_moe": qwen_items, "qwen2_5_vl": qwen_items, "qwen2_vl": qwen_items,
    "glm4v": qwen_items, "llava": tile_items, "paligemma": tile_items, "mistral3": tile_items,
    "llava_next": llava_next_items, "gemma3": gemma3_items, "idefics3": idefics3_items, "smolvlm": idefics3_items,
    "qwen2_audio": qwen2_audio_items, "llava_onevision": llava_onevision_items, "internvl": internvl_items,
    "cohere2_vision": gemma3_items, "blip-2": tile_items, "llama4": llama4_items, "lfm2_vl": lfm2_vl_items,
    "paddleocr_vl": paddleocr_vl_items, "glm4v_moe": qwen_items, "exaone4_5": qwen_items,
    "qwen2_5_omni": omni_items, "qwen3_omni_moe": omni_items, "gemma4": gemma4_items,
    "cohere_compass": patch_items, "kimi_k25": kimi_k25_items, "granite4_vision": anyres_items,
    "minicpmv4_6": minicpmv_items, "audioflamingo3": whisper_chunk_items, "glmasr": whisper_chunk_items,
    "granite_speech": granite_speech_items, "minicpmv4_7": minicpmv_items, "qwen3_5": qwen_items,
    "qwen3_5_moe": qwen_items, "qwen4_exp": qwen_items, "cosmos3_omni": qwen_items, "cosmos3_edge": siglip2_items,
    "glm_ocr": qwen_items, "glm5_next": qwen_items, "hyperclovax_vision_v2": qwen_items,
    "minimax_m3_vl": qwen_items, "shieldgemma2": gemma3_items, "granite_speech_plus": granite_speech_items,
    "llava_next_video": video_frames_items, "diffusion_gemma": gemma4_vision_items,
    "gemma4_unified": gemma4_unified_items,
    "qianfan_ocr": internvl_chat_items, "nemotron_h_omni": nemotron_h_omni_items,
    "idefics2": idefics2_backend_items, "video_llava": video_llava_backend_items, "vipllava": backend_items,
    "aya_vision": backend_items, "got_ocr2": backend_items, "janus": backend_items, "deepseek_vl": backend_items,
}  # fmt: skip


def compare(model_type: str) -> dict[str, Any]:
    """Both widths for each modality of ``model_type``, or the error that stopped vLLM."""
    from vllm.config import set_current_vllm_config
    from vllm.forward_context import set_forward_context

    result: dict[str, Any] = {"model_type": model_type, "ecwidth": ecwidth_widths(model_type)}
    try:
        folder, config = prepared(model_type)
        vllm_config, model = vllm_model(folder)
    except Exception as error:  # a family vLLM cannot build here is recorded, and the others go on
        result["vllm_error"] = f"{type(error).__name__}: {str(error)[:400]}"
        return result
    for modality, inputs in ITEMS[model_type](config).items():
        try:
            with set_current_vllm_config(vllm_config), torch.inference_mode(), set_forward_context(None, vllm_config):
                shapes = [list(item.shape) for item in model.embed_multimodal(**inputs)]
        except Exception as error:
            result[modality] = {"vllm_error": f"{type(error).__name__}: {str(error)[:400]}"}
            continue
        measured = result["ecwidth"].get(modality)
        result[modality] = {"vllm_shapes": shapes, "ecwidth": measured, "agree": shapes[0][-1] == measured}
    return result


if __name__ == "__main__":
    for name in sys.argv[1:] or list(ITEMS):
        print(json.dumps(compare(name)), flush=True)
