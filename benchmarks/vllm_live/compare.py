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

Engine-only families (``ENGINE_ONLY_ARCHITECTURES``: no transformers class)
have no model for ``ecwidth measure`` to build; their width is ecwidth's
*prediction* (``ecwidth predict --engine vllm==0.32.0``), and each line says
which (``ecwidth_is``: measured or predicted). A config type vLLM defines
(``vllm/transformers_utils/configs/``) is loaded by vLLM; a remote-code type
gets a stand-in config class registered with ``AutoConfig`` in this process
(``register_remote_config``), so no hub code is run. vLLM's processing info
asks an engine-only family's tokenizer (and Ovis2.5's image processor) while
it builds the model config, so placeholders are written beside the config.

Mistral-format checkpoints (``MISTRAL_FORMAT``: a ``params.json`` from
``tests/tiny/mistral/``) are read by vLLM with ``--config-format mistral`` and
their Tekken tokenizer, whose audio section Voxtral's classes load in
``__init__``; a tokenizer of the 256 bytes and mistral_common's special tokens
is written beside the file. ecwidth measures the same folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

torch.set_num_threads(1)
# vLLM's loader empties the accelerator's cache after loading; a CPU-only torch raises there.
torch.accelerator.empty_cache = lambda: None
# MiniCPM-V's resampler asks whether a CUDA graph is being captured; a CPU-only torch raises there. None is.
torch.cuda.is_current_stream_capturing = lambda: False
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

#: Families with no transformers class (``engine_only`` in ecwidth): vLLM builds them from the architecture their
#: config names, and ecwidth can only *predict* their width from vLLM's rule (``ecwidth predict``), so the
#: comparison here is the one check of that rule against the engine's own code.
ENGINE_ONLY_ARCHITECTURES = {
    "ultravox": "UltravoxModel",
    "midashenglm": "MiDashengLMModel",
    "funaudiochat": "FunAudioChatForConditionalGeneration",
    "kimi_vl": "KimiVLForConditionalGeneration",
    "openvla": "OpenVLAForActionPrediction",
    "ovis": "Ovis",
    "bagel": "BagelForConditionalGeneration",
    "isaac": "IsaacForConditionalGeneration",
    "step3_vl": "Step3VLForConditionalGeneration",
    "deepseek_vl_v2": "DeepseekVLV2ForCausalLM",
    "bailing_moe_v3_vl": "BailingMoeV3VLForConditionalGeneration",
    "internvl_chat": "InternVLChatModel",
    "h2ovl_chat": "H2OVLChatModel",
    "NVLM_D": "NVLM_D",
    "skywork_chat": "SkyworkR1VChatModel",
    "eagle_2_5_vl": "Eagle2_5_VLForConditionalGeneration",
    "Llama_Nemotron_Nano_VL": "Llama_Nemotron_Nano_VL",
    "interns1": "InternS1ForConditionalGeneration",
    "minicpmv": "MiniCPMV",
    "minicpmo": "MiniCPMO",
    "phi3_v": "Phi3VForCausalLM",
    "phi4mm": "Phi4MMForCausalLM",
    "molmo": "MolmoForCausalLM",
    "dots_ocr": "DotsOCRForCausalLM",
    "ovis2_5": "Ovis2_5",
    "Keye": "KeyeForConditionalGeneration",
    "pixtral": "PixtralForConditionalGeneration",
    "llava_onevision2": "LlavaOnevision2ForConditionalGeneration",
    "bee": "BeeForConditionalGeneration",
    "kanana-1.5-v": "KananaVForConditionalGeneration",
    "opencua": "OpenCUAForConditionalGeneration",
    "openpangu_vl": "OpenPanguVLForConditionalGeneration",
    "rvl": "RForConditionalGeneration",
    "KeyeVL1_5": "KeyeVL1_5ForConditionalGeneration",
    "ovis2_6": "Ovis2_6ForCausalLM",
    "chatglm": "GLM4VForCausalLM",
    "fun_asr_qwen3": "FunASRForConditionalGeneration",
    "phi4-siglip": "Phi4ForCausalLMV",
    "step_robotics": "StepVLForConditionalGeneration",
    "moondream3": "HfMoondream",
    "kimi_k3": "KimiK3ForConditionalGeneration",
    "intern_s2_preview": "InternS2PreviewForConditionalGeneration",
    "interns2_mobius": "InternS2MobiusForConditionalGeneration",
    "interns1_pro": "InternS1ProForConditionalGeneration",
    "deepseek_v4_vision": "DeepseekV4ForConditionalGeneration",
    "deepseek_v41": "DeepseekV41ForCausalLM",
    "mimo_v2": "MiMoV2OmniForCausalLM",
    "fire_red_asr2_qwen2": "FireRedASR2ForConditionalGeneration",
    "kimi_audio_qwen2": "MoonshotKimiaForCausalLM",
    "NemotronH_Nano_VL_V2": "NemotronH_Nano_VL_V2",
    "moss_audio": "MossAudioModel",
    "NemotronH_Nano_Omni_Reasoning_V3": "NemotronH_Nano_Omni_Reasoning_V3",
    "NemotronH_Super_Omni_Reasoning_V3": "NemotronH_Super_Omni_Reasoning_V3",
}

#: Remote-code model types (their config's ``auto_map`` names hub code, which this script never runs, and vLLM
#: defines no config class for them): the nested sections the hub's config class turns into configs, each
#: ``"auto"`` (a transformers config, built from the section's own ``model_type``), ``"plain"`` (a bare
#: ``PretrainedConfig`` holding the section's fields, as the remote vision configs do), or the name of the
#: transformers class the hub's section class copies (its defaults fill what the section leaves out). Fields
#: outside these sections stay attributes of the top-level config, as the remote class leaves them.
REMOTE_CONFIG_SECTIONS: dict[str, dict[str, str]] = {
    "internvl_chat": {"llm_config": "auto", "vision_config": "plain"},
    "h2ovl_chat": {"llm_config": "auto", "vision_config": "plain"},
    "NVLM_D": {"llm_config": "auto", "vision_config": "plain"},
    "skywork_chat": {"llm_config": "auto", "vision_config": "plain"},
    "Llama_Nemotron_Nano_VL": {"llm_config": "auto", "vision_config": "plain"},
    "eagle_2_5_vl": {"text_config": "auto", "vision_config": "auto"},
    "interns1": {"text_config": "auto", "vision_config": "plain"},
    "minicpmv": {"vision_config": "auto"},
    "minicpmo": {"vision_config": "auto", "audio_config": "auto"},
    "phi3_v": {},
    "phi4mm": {},
    "molmo": {},
    "dots_ocr": {"vision_config": "plain"},
    "ovis2_5": {"llm_config": "auto", "vit_config": "plain"},
    "Keye": {"vision_config": "auto"},
    "llava_onevision2": {"text_config": "auto", "vision_config": "plain"},
    "bee": {"text_config": "auto", "vision_config": "auto"},
    "kanana-1.5-v": {"text_config": "auto", "vision_config": "Qwen2VLVisionConfig", "projector_config": "plain"},
    "opencua": {"text_config": "auto", "vision_config": "Qwen2_5_VLVisionConfig"},
    "openpangu_vl": {"text_config": "auto", "vision_config": "plain"},
    "rvl": {"text_config": "auto", "vision_config": "auto"},
    "KeyeVL1_5": {"vision_config": "auto"},
    "ovis2_6": {"llm_config": "auto", "vit_config": "plain"},
    "phi4-siglip": {},  # vLLM's class reads vision_config as the dict the hub's class keeps
    "step_robotics": {"text_config": "auto", "vision_config": "plain"},
    "moondream3": {},
    "kimi_k3": {"text_config": "auto", "vision_config": "plain"},
    "intern_s2_preview": {"text_config": "Qwen3_5MoeTextConfig", "vision_config": "Qwen3_5MoeVisionConfig"},
    "interns2_mobius": {"text_config": "Qwen3_5MoeTextConfig", "vision_config": "Qwen3_5MoeVisionConfig"},
    "interns1_pro": {"text_config": "auto", "vision_config": "plain"},
    "mimo_v2": {},  # vLLM makes its own Mimo_VLVisionConfig of the dict (mimo_v2_omni.py)
    "kimi_audio_qwen2": {},
    "NemotronH_Nano_VL_V2": {"llm_config": "auto", "vision_config": "plain"},
    # vLLM's model file defines a MossAudioConfig but registers it nowhere: checkpoints bring their own class.
    "moss_audio": {"audio_config": "plain", "language_config": "auto"},
    "NemotronH_Nano_Omni_Reasoning_V3": {"llm_config": "auto", "vision_config": "plain", "sound_config": "auto"},
    "NemotronH_Super_Omni_Reasoning_V3": {"llm_config": "auto", "vision_config": "plain", "sound_config": "auto"},
}

#: The transformers config class a flat remote-code config subclasses (its LM's fields at the top level, and
#: that class's defaults for the ones a published config leaves out); the others subclass ``PretrainedConfig``.
REMOTE_CONFIG_BASES = {"minicpmv": "qwen2", "minicpmo": "qwen2", "phi3_v": "phi3", "phi4mm": "phi3",
                       "dots_ocr": "qwen2", "phi4-siglip": "phi3", "Keye": "qwen3", "KeyeVL1_5": "qwen3", "openpangu_vl": "qwen2",
                       "bee": "llava_onevision", "rvl": "llava_onevision"}  # fmt: skip

#: Defaults the hub's config classes fill in for fields their published configs leave out, by the config's or
#: section's ``model_type`` (or ``model_type.section`` for a section without one); none is a width. InternViT's
#: are ``InternVisionConfig.__init__``'s, MiniCPM-V's and MiniCPM-o's ``MiniCPMVConfig.__init__``'s, InternS1's
#: vision tower's ``InternS1VisionConfig.__init__``'s, dots.ocr's ``DotsVisionConfig.__init__``'s, Molmo's
#: ``MolmoConfig.__init__``'s rope_theta.
REMOTE_DEFAULTS: dict[str, dict[str, Any]] = {
    "interns1_vision": {"hidden_act": "gelu", "layer_norm_eps": 1e-6, "norm_type": "layer_norm", "attention_bias": True,
                        "layer_scale_init_value": 0.1, "use_absolute_position_embeddings": True, "use_mask_token": False,
                        "use_mean_pooling": True, "use_qk_norm": False, "attention_dropout": 0.0,
                        "projection_dropout": 0.0, "drop_path_rate": 0.0},
    "molmo": {"rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}},
    # Ovis2.5's ``Siglip2NavitConfig.__init__`` (num_patches and image_size only size its interpolated positions).
    "siglip2_navit": {"num_channels": 3, "hidden_act": "gelu_pytorch_tanh", "layer_norm_eps": 1e-6,
                      "attention_dropout": 0.0, "window_size": 112, "fullatt_block_indexes": None,
                      "preserve_original_pe": True, "use_rope": True, "num_patches": 256, "image_size": 256},
    "dots_ocr.vision_config": {"num_channels": 3, "rms_norm_eps": 1e-5, "use_bias": False, "is_causal": False},
    "minicpmv": {"drop_vision_last_layer": True, "batch_vision_input": True, "vision_batch_size": 16},
    "minicpmo": {"drop_vision_last_layer": True, "batch_vision_input": True, "vision_batch_size": 16,
                 "audio_chunk_length": 1.0},
    # Step3-VL-10B's ``StepRoboticsVisionEncoderConfig.__init__`` (its Perception Encoder).
    "step_robotics.vision_config": {"num_channels": 3, "mlp_ratio": 8960 / 1536, "layer_norm_eps": 1e-5,
                                    "use_ln_pre": True, "use_abs_posemb": True, "use_rope2d": True,
                                    "ls_init_value": 0.1, "ues_cls_token": False},
    "intern_vit_6b": {"hidden_act": "gelu", "layer_norm_eps": 1e-6, "initializer_factor": 0.1, "dropout": 0.0,
                      "attention_dropout": 0.0, "drop_path_rate": 0.0, "use_flash_attn": False},
}  # fmt: skip

#: Tower fields a published config carries, which the tiny config leaves out and vLLM reads with no default;
#: none is a width (GLM-4V-9B's vision_config has dropout_prob 0.0; Phi-4-multimodal's Conformer settings are
#: its published audio_processor.config's, 80 mel bins as vLLM's input schema fixes them, the channel counts at the
#: tiny attention_dim, as published).
PUBLISHED_FIELDS: dict[str, dict[str, Any]] = {
    "chatglm": {"vision_config": {"dropout_prob": 0.0}},
    # Nemotron Nano VL casts its towers to the LM config's dtype, which the published llm_config sets (bfloat16:
    # extract_feature casts the ViT output to bfloat16 whatever the model dtype).
    **dict.fromkeys(["NemotronH_Nano_VL_V2", "NemotronH_Nano_Omni_Reasoning_V3", "NemotronH_Super_Omni_Reasoning_V3"],
                    {"llm_config": {"torch_dtype": "bfloat16"}}),
    # MiMo-V2-Omni's vision tower reads use_sink with no default; False is vLLM's MiMoVisionBlock default (the
    # published value was not found), and its key/value heads default to 8, past the tiny tower's 2 heads: both
    # attention details, not widths.
    "mimo_v2": {"vision_config": {"use_sink": False, "num_key_value_heads": 2}},
    "phi4mm": {
        "audio_processor": {
            "config": {
                "chunk_size": -1, "left_chunk": 18, "causal": True, "kernel_size": 3, "input_layer": "nemo_conv",
                "nemo_conv_settings": {"conv_channels": 40}, "ext_pw_out_channel": 40,
                "depthwise_seperable_out_channel": 40, "ext_pw_kernel_size": 1, "depthwise_multiplier": 1,
                "bias_in_glu": True, "cnn_layer_norm": True, "batch_norm": False, "conv_activation": "swish",
                "conv_glu_type": "swish", "dropout_rate": 0.0, "input_size": 80, "encoder_embedding_config": {"input_size": 80},
                "relative_attention_bias_args": {"t5_bias_max_distance": 500, "type": "t5"},
            }
        }
    },
}  # fmt: skip

#: Fields naming a hub checkpoint whose config vLLM's own config class would fetch in place of the section the
#: tiny config carries (no hub is reached here); dropped, so that section is what vLLM builds.
HUB_REFERENCES = {"ultravox": ["audio_model_id", "text_model_id"]}

#: Language-model fields vLLM's classes need that a tiny config leaves out or sets in a way they refuse.
LM_ONLY_CHANGES: dict[str, dict[str, Any]] = {
    # vLLM's Qwen3-MoE block reads norm_topk_prob; its CPU MoE kernel wants a hidden size divisible by 32.
    "qwen3_vl_moe": {
        "text_config": {"norm_topk_prob": True, "hidden_size": 64, "head_dim": 32, "moe_intermediate_size": 32}
    },  # fmt: skip
    # vLLM refuses a max_model_len (1024) above the LM's max_position_embeddings (64 in these tiny configs).
    "internvl": {"text_config": {"max_position_embeddings": 1024}},
    # No CPU MoE kernel for a hidden size of 40 or 48 (the width of both): every DeepSeek layer made dense.
    "kimi_vl": {"text_config": {"first_k_dense_replace": 2}},
    # Step3's text config names its MoE layers as a comma-separated string (published configs: "1,2,..."); layer 2
    # of the two-layer tiny LM does not exist, so both stay dense (no CPU MoE kernel at a hidden size of 40).
    "step3_vl": {"text_config": {"moe_layers_enum": "2"}},
    "deepseek_vl_v2": {"language_config": {"first_k_dense_replace": 2}},
    # vLLM's Ultravox reads the LM's vocab_size at the top level, where published Ultravox configs carry it.
    "ultravox": {"vocab_size": 64},
    "molmo": {"max_position_embeddings": 1024},
    # Moondream 3's max_context is its LM's length; its one MoE layer made dense (no CPU MoE kernel at 40); it
    # rotates a fixed 32 dims of each head (moondream3.py), so the LM's 40 channels go in one head.
    "moondream3": {"config": {"text": {"max_context": 1024, "moe": {"start_layer": 2}, "n_heads": 1, "n_kv_heads": 1}}},
    # ChatGLM's max_position_embeddings is seq_length; vLLM reads original_rope and tie_word_embeddings (GLM-4V: False).
    "chatglm": {"seq_length": 1024, "original_rope": True, "tie_word_embeddings": False},
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
    "intern_s2_preview": {
        "text_config": {
            "hidden_size": 64,
            "head_dim": 32,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
        }
    },  # as Qwen3.5-MoE's, below
    # MiMo-V2-Omni's flat remote LM config: the fields vLLM's MiMo-V2 layers read (mimo_v2.py), dense layers
    # (no CPU MoE kernel for the tiny width) and full attention only; the towers' widths are not the LM's.
    "mimo_v2": {
        "moe_layer_freq": [0, 0],
        "hybrid_layer_pattern": [0, 0],
        "attention_bias": False,
        "hidden_act": "silu",
        "layernorm_epsilon": 1e-5,
        "n_group": 1,
        "topk_group": 1,
        "norm_topk_prob": True,
        "tie_word_embeddings": False,
        "max_position_embeddings": 1024,
        "rope_theta": 10000.0,
        "partial_rotary_factor": 1.0,
        "sliding_window": None,
        "sliding_window_size": None,
        "swa_head_dim": 16,
        "swa_v_head_dim": 16,
        "swa_num_attention_heads": 2,
        "swa_num_key_value_heads": 1,
    },  # fmt: skip
    "interns2_mobius": {
        "text_config": {
            "hidden_size": 64,
            "head_dim": 32,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
            "num_blocks": 1,  # Mobius's shared meta-MoE blocks: LM structure, not a width
        }
    },
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
    if model_type in MISTRAL_FORMAT:
        return prepared_mistral(model_type)
    config = json.loads((TINY / f"{model_type}.json").read_text())
    architecture = (ARCHITECTURES.get(model_type) or TRANSFORMERS_BACKEND_ARCHITECTURES.get(model_type)
                    or ENGINE_ONLY_ARCHITECTURES[model_type])  # fmt: skip
    config.setdefault("architectures", [architecture])
    config = _merged(config, LM_ONLY_CHANGES.get(model_type, {}))
    config = _merged(config, PUBLISHED_FIELDS.get(model_type, {}))
    for field in HUB_REFERENCES.get(model_type, []):
        config.pop(field, None)
    folder = WORK / model_type
    folder.mkdir(parents=True, exist_ok=True)
    if model_type in REMOTE_CONFIG_SECTIONS:
        config.pop("auto_map", None)  # the class registered below stands in; nothing may reach for hub code
        register_remote_config(model_type)
    if model_type in ENGINE_ONLY_ARCHITECTURES:
        write_tokenizer(folder)
    if model_type in IMAGE_PROCESSORS:
        write_image_processor(IMAGE_PROCESSORS[model_type], folder)
    if model_type in WHISPER_SUBFOLDERS:
        write_whisper_subfolder(folder / "whisper-large-v3", WHISPER_SUBFOLDERS[model_type])
        write_tiktoken(folder)
    (folder / "config.json").write_text(json.dumps(config, indent=1))

    if model_type in TRANSFORMERS_BACKEND_ARCHITECTURES:
        write_processor(model_type, folder)
    return folder, config


#: Mistral-format checkpoints run here, by name: the tiny ``params.json`` in ``tests/tiny/mistral/`` each reads.
MISTRAL_FORMAT = {"voxtral@params.json": "voxtral", "voxtral_realtime@params.json": "voxtral_realtime"}
#: A text-model field vLLM's Mistral loader needs that a width never reads: the context length it would otherwise
#: ask the hub for. The vocabulary is sized to the Tekken tokenizer written beside the file.
MISTRAL_LM_FIELDS = {"max_position_embeddings": 1024}


def prepared_mistral(name: str) -> tuple[Path, dict[str, Any]]:
    """A folder with the tiny ``params.json`` and a Tekken tokenizer, and the params as vLLM reads them."""
    params = json.loads((TINY / "mistral" / f"{MISTRAL_FORMAT[name]}.json").read_text())
    folder = WORK / f"{MISTRAL_FORMAT[name]}-mistral"
    folder.mkdir(parents=True, exist_ok=True)
    params.update(MISTRAL_LM_FIELDS, vocab_size=write_tekken(folder, params))
    (folder / "params.json").write_text(json.dumps(params, indent=1))
    return folder, params


def write_tekken(folder: Path, params: dict[str, Any]) -> int:
    """Save a Tekken tokenizer (``tekken.json``) of the 256 bytes and every special token, with the audio section
    the Whisper encoder's arguments imply (streaming for a causal encoder, as Voxtral Realtime's); its size."""
    import base64

    from mistral_common.tokens.tokenizers.base import SpecialTokens

    encoder = params["multimodal"]["whisper_model_args"]["encoder_args"]
    mel = encoder["audio_encoding_args"]
    audio: dict[str, Any] = {"sampling_rate": mel["sampling_rate"], "frame_rate": 12.5, "audio_encoding_config": {
        key: mel[key] for key in ("num_mel_bins", "hop_length", "window_size")}}  # fmt: skip
    if encoder.get("causal"):
        audio.update(
            transcription_format="streaming",
            transcription_delay_ms=480,
            streaming_look_ahead_ms=0,
            streaming_look_back_ms=0,
            streaming_n_left_pad_tokens=0,
        )
    specials = [
        {"rank": rank, "token_str": token.value, "is_control": True} for rank, token in enumerate(SpecialTokens)
    ]
    vocab = [{"rank": byte, "token_bytes": base64.b64encode(bytes([byte])).decode(), "token_str": None}
             for byte in range(256)]  # fmt: skip
    size = len(vocab) + len(specials)
    (folder / "tekken.json").write_text(json.dumps({
        "config": {"pattern": r"[^\s]+|\s+", "num_vocab_tokens": len(vocab), "default_vocab_size": size,
                   "default_num_special_tokens": len(specials), "version": "v13"},
        "vocab": vocab, "special_tokens": specials, "version": 1, "type": "Tekken", "audio": audio,
    }))  # fmt: skip
    return size


#: Placeholder tokens vLLM's processing info looks up in the tokenizer's vocabulary while it settles which
#: modalities a family serves (InternVL's chat models serve video only when ``<|video_pad|>`` is there).
PLACEHOLDER_TOKENS = ["<unk>", "<pad>", "<s>", "</s>", "<image>", "<video>", "<audio>", "<IMG_CONTEXT>",
                      "<img>", "</img>", "<|video_pad|>", "<|image_pad|>", "<|vision_start|>", "<|vision_end|>"]  # fmt: skip


def write_tokenizer(folder: Path) -> None:
    """Save a word-level tokenizer of ``PLACEHOLDER_TOKENS`` into ``folder``.

    An engine-only family's processing info asks the tokenizer for its placeholder tokens while vLLM builds the
    model config (``skip_tokenizer_init`` refuses those calls); the items below never pass through it.
    """
    import transformers
    from tokenizers import Tokenizer, models

    vocab = {token: index for index, token in enumerate(PLACEHOLDER_TOKENS)}
    transformers.PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(models.WordLevel(vocab, unk_token="<unk>")),
        unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>",
    ).save_pretrained(folder)  # fmt: skip


#: Engine-only families whose processing info loads an HF image processor from the model folder while vLLM
#: builds the model (Ovis2.5's processor wraps a Qwen2-VL image processor), by the transformers model type.
IMAGE_PROCESSORS = {"ovis2_5": "qwen2_vl", "ovis2_6": "qwen2_vl"}


def write_image_processor(model_type: str, folder: Path) -> None:
    """Save ``model_type``'s default HF image processor (its PIL one) into ``folder``; the items bypass it."""
    import transformers
    from transformers.models.auto.image_processing_auto import IMAGE_PROCESSOR_MAPPING_NAMES

    name = IMAGE_PROCESSOR_MAPPING_NAMES[model_type]
    name = name.get("pil", name.get("torchvision")) if isinstance(name, dict) else name
    getattr(transformers, name)().save_pretrained(folder)


#: Families whose checkpoint keeps its Whisper encoder's config (and feature extractor) in a ``whisper-large-v3``
#: subfolder, which vLLM's class reads in ``__init__`` (Kimi-Audio, ``kimi_audio.py``), and that tiny encoder:
#: four of its rows are folded into one (``d_model`` × 4 = the tiny config's ``kimia_adaptor_input_dim``).
WHISPER_SUBFOLDERS = {"kimi_audio_qwen2": {"d_model": 32, "encoder_layers": 1, "encoder_attention_heads": 2,
                                          "encoder_ffn_dim": 64, "num_mel_bins": 8, "max_source_positions": 1500}}  # fmt: skip


def write_whisper_subfolder(folder: Path, encoder: dict[str, Any]) -> None:
    """Save a Whisper config of ``encoder``'s fields and its default feature extractor (at its mel bins)."""
    import transformers

    transformers.WhisperConfig(**encoder).save_pretrained(folder)
    transformers.WhisperFeatureExtractor(feature_size=encoder["num_mel_bins"]).save_pretrained(folder)


def write_tiktoken(folder: Path) -> None:
    """Save a ``tiktoken.model`` of the 256 bytes (Kimi-Audio's tokenizer file: base64 token and rank a line)."""
    import base64

    lines = (f"{base64.b64encode(bytes([byte])).decode()} {byte}" for byte in range(256))
    (folder / "tiktoken.model").write_text("\n".join(lines) + "\n")


def _section(fields: dict[str, Any], kind: str, name: str) -> Any:
    """One nested section (``name``, as ``model_type.section``) of a remote-code config, as the hub's class holds it."""
    import transformers
    from transformers import AutoConfig, PretrainedConfig
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    fields = {**REMOTE_DEFAULTS.get(fields.get("model_type"), REMOTE_DEFAULTS.get(name, {})), **fields}
    if kind == "auto" and fields.get("model_type") in CONFIG_MAPPING:
        return AutoConfig.for_model(**fields)
    if kind not in ("auto", "plain"):  # the transformers class the hub's section class copies, and its defaults
        return getattr(transformers, kind)(**{key: value for key, value in fields.items() if key != "model_type"})
    return PretrainedConfig(**fields)


def register_remote_config(model_type: str) -> None:
    """Register a stand-in for a remote-code config class with ``AutoConfig``, in this process only.

    vLLM reads such a config through ``AutoConfig``, which would otherwise need the checkpoint's own Python
    (``trust_remote_code``); that code is never run here. The stand-in keeps every field as the hub's class
    does and turns the sections named in ``REMOTE_CONFIG_SECTIONS`` into config objects, as vLLM expects.
    """
    from transformers import AutoConfig, PretrainedConfig
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    sections = REMOTE_CONFIG_SECTIONS[model_type]
    base = CONFIG_MAPPING[REMOTE_CONFIG_BASES[model_type]] if model_type in REMOTE_CONFIG_BASES else PretrainedConfig

    class RemoteCodeConfig(base):
        def __init__(self, **kwargs: Any) -> None:
            kwargs = {**REMOTE_DEFAULTS.get(model_type, {}), **kwargs}
            built = {key: _section(kwargs.pop(key) or {}, kind, f"{model_type}.{key}") if isinstance(kwargs.get(key), dict | None)
                     else kwargs.pop(key) for key, kind in sections.items() if key in kwargs}  # fmt: skip
            super().__init__(**kwargs)
            for key, value in built.items():
                setattr(self, key, value)

    RemoteCodeConfig.model_type = model_type
    RemoteCodeConfig.__name__ = f"RemoteCodeConfig_{model_type}"
    AutoConfig.register(model_type, RemoteCodeConfig, exist_ok=True)


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

    mistral = (folder / "params.json").exists()
    tokenizer = (folder / "tokenizer.json").exists() or mistral
    config = EngineArgs(
        model=str(folder), load_format="dummy", skip_tokenizer_init=not tokenizer, enforce_eager=True,
        **({"config_format": "mistral", "tokenizer_mode": "mistral"} if mistral else {}),
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


def ecwidth_widths(model_type: str) -> tuple[str, dict[str, Any]]:
    """How ecwidth answers the same tiny config, and what it answers.

    ``ecwidth measure --config`` builds a transformers model; an engine-only family has none, so its width is
    ``ecwidth predict --config``'s, read from the config by vLLM 0.32's rule (the release run here).
    """
    how = "predicted" if model_type in ENGINE_ONLY_ARCHITECTURES else "measured"
    command = ["measure"] if how == "measured" else ["predict", "--engine", "vllm==0.32.0"]
    source = prepared(model_type)[0] if model_type in MISTRAL_FORMAT else TINY / f"{model_type}.json"
    run = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "ecwidth"), *command, "--config", str(source), "--json"],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    if run.returncode:
        return how, {"error": run.stderr.strip()[-400:]}
    answer = json.loads(run.stdout)
    return how, answer["widths"] if how == "measured" else answer["predicted"]


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


# -- engine-only families: items in the keyword inputs of vLLM's own class for each -------------


def internvl_chat_video_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """InternVLChatModel's image and its video of one one-tile frame (``internvl.py``, ``pixel_values_flat*``)."""
    image = internvl_chat_items(config)["image"]
    video = {"pixel_values_flat_video": image["pixel_values_flat"], "video_num_patches": torch.tensor([1]),
             "video_token_id": 2}  # fmt: skip
    return {"image": image, "video": video}


def ultravox_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 30 s chunk of mels; the projector stacks ``stack_factor`` frames of the tower's 1500 per token."""
    bins, tokens = config["audio_config"]["num_mel_bins"], -(-1500 // config.get("stack_factor", 8))
    return {"audio": {"audio_features": torch.randn(1, bins, 3000), "audio_lens": torch.tensor([3000]),
                      "audio_token_len": torch.tensor([tokens]), "audio_num_chunks": torch.tensor([1])}}  # fmt: skip


def midashenglm_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One second of 16 kHz waveform: the Dasheng encoder takes raw samples and makes its own mels."""
    return {"audio": {"input_values": torch.randn(1, 16000), "audio_length": torch.tensor([16000])}}


def kimi_vl_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 4x4-patch image, its patches stacked (MoonViT's ``pixel_values``, ``image_grid_hws``)."""
    patch = config["vision_config"]["patch_size"]
    return {"image": {"pixel_values": torch.randn(16, 3, patch, patch), "image_grid_hws": torch.tensor([[4, 4]])}}


def openvla_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One image, its DINOv2 and SigLIP copies fused on the channels (6), at ``image_sizes``."""
    side = config["image_sizes"][0]
    return {"image": {"pixel_values": torch.randn(1, 6, side, side)}}


def ovis_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One one-crop image and its indicator tokens (``ovis.py``: patches + 2 indicators for one patch)."""
    side = config["visual_tokenizer_config"]["backbone_config"]["image_size"]
    vocab = config["visual_tokenizer_config"]["vocab_size"]
    return {"image": {"pixel_values": [torch.randn(1, 3, side, side)],
                      "indicator_tokens": [torch.tensor([vocab - 5, vocab - 4, vocab - 3])]}}  # fmt: skip


def bagel_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    side = config["vit_config"]["image_size"]
    return {"image": {"pixel_values": torch.randn(1, 3, side, side)}}


def isaac_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 4x4-patch image, flattened patches (``isaac.py``: ``pixel_values`` (np, d), ``image_grid_thw``)."""
    patch = config["vision_config"]["patch_size"]
    return {"image": {"pixel_values": torch.randn(16, 3 * patch * patch), "image_grid_thw": torch.tensor([[1, 4, 4]])}}


def step3_vl_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One image and no extra crops: the global view alone (``num_patches`` 0)."""
    side = config["vision_config"]["image_size"]
    return {"image": {"pixel_values": torch.randn(1, 3, side, side), "patch_pixel_values": torch.randn(0, 3, side, side),
                      "num_patches": torch.tensor([0])}}  # fmt: skip


def deepseek_vl_v2_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One image of one tile: the global view and that tile (``images_spatial_crop`` [[1, 1]])."""
    side = config["vision_config"]["image_size"]
    return {"image": {"pixel_values": torch.randn(2, 3, side, side), "images_spatial_crop": torch.tensor([[1, 1]])}}


def molmo_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One crop of Molmo's fixed 336/14 ViT (576 patches of 588), its 144 pooled tokens in order."""
    return {"image": {"images": torch.randn(1, 576, 588), "image_masks": torch.ones(1, 576),
                      "image_input_idx": torch.arange(144)[None], "num_crops": torch.tensor([1]),
                      "img_patch_id": 1}}  # fmt: skip


def interns1_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One tile and one one-tile frame, in InternS1's ``pixel_values``/``pixel_values_videos``."""
    pixels, tile = torch.randn(1, 3, *config["vision_config"]["image_size"]), torch.tensor([1])
    return {"image": {"pixel_values": pixels, "image_num_patches": tile, "image_token_id": 1},
            "video": {"pixel_values_videos": pixels, "video_num_patches": tile, "video_token_id": 2}}  # fmt: skip


def keye_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 4x4-patch image (and one-frame video), its patches stacked as (patches, 3, patch, patch)."""
    patch, grid = config["vision_config"]["patch_size"], torch.tensor([[1, 4, 4]])
    pixels = torch.randn(16, 3, patch, patch)
    return {"image": {"pixel_values": pixels, "image_grid_thw": grid},
            "video": {"pixel_values_videos": pixels, "video_grid_thw": grid}}  # fmt: skip


def kanana_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 4x4-patch image in Kanana-V's ``pixel_values`` and ``vision_grid_thw``."""
    image = _patches(config)
    return {"image": {"pixel_values": image["pixel_values"], "vision_grid_thw": image["image_grid_thw"]}}


def llava_onevision2_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 4x4-patch image with each patch's (t, h, w) position, which OV2's rotary embedding reads."""
    image = _patches(config)
    positions = torch.cartesian_prod(torch.arange(1), torch.arange(4), torch.arange(4))
    return {"image": {**image, "patch_positions": positions}}


def funaudiochat_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One audio as 25 discrete speech codes (five groups of ``group_size``), no continuous features."""
    codes = config["audio_config"]["codebook_size"]
    return {"audio": {"speech_ids": torch.randint(1, codes, (1, 25))}}


def minicpmo_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """MiniCPM-V's image and video, and one audio of 200 mel frames (``audio_features`` (1, mels, frames))."""
    bins = config["audio_config"]["num_mel_bins"]
    audio = {"audio_features": torch.randn(1, bins, 200), "audio_feature_lens": [torch.tensor([200])]}
    return {**minicpmv_items(config), "audio": audio}


def phi3_v_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 336x336 image: its global view and one HD crop, at the fixed CLIP-L/336 tower's size."""
    return {"image": {"pixel_values": torch.randn(1, 2, 3, 336, 336), "image_sizes": torch.tensor([[336, 336]])}}


def phi4mm_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One 448x448 image (global view and one crop for the fixed 448-px SigLIP tower, a 32x32 patch mask each)
    and 100 frames of the 80 log-mel features vLLM's audio schema takes."""
    image = {"input_image_embeds": torch.randn(1, 2, 3, 448, 448), "image_sizes": torch.tensor([[448, 448]]),
             "image_attention_mask": torch.ones(1, 2, 32, 32), "num_img_tokens": [529]}  # fmt: skip
    return {"image": image, "audio": {"input_audio_embeds": torch.randn(1, 100, 80)}}


def phi4_siglip_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One NaFlex image of 4x4 patches, padded to nothing: ``pixel_values`` (1, 16, 3·p²), all valid."""
    patch = config["vision_config"]["patch_size"]
    return {"image": {"pixel_values": torch.randn(1, 16, 3 * patch * patch), "pixel_attention_mask": torch.ones(1, 16),
                      "spatial_shapes": torch.tensor([[4, 4]])}}  # fmt: skip


def pixtral_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    side = config["vision_config"]["image_size"]  # one image, (3, H, W), as Mistral's tokenizer hands it over
    return {"image": {"images": [torch.randn(3, side, side)]}}


def ovis2_5_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One 4x4-patch image (and one-frame video): 16 flat patches, 4 tokens after the 2x2 stride, 2 indicators."""
    vit = config["vit_config"]
    patch, vocab = vit["patch_size"], config["visual_vocab_size"]
    pixels = [torch.randn(16, 3 * vit.get("temporal_patch_size", 1) * patch * patch)]
    grids, indicators = [torch.tensor([[1, 4, 4]])], [torch.tensor([vocab - 4, vocab - 3])]
    return {"image": {"pixel_values": pixels, "indicator_tokens": indicators, "grids": grids},
            "video": {"video_pixel_values": pixels, "video_indicator_tokens": indicators, "video_grids": grids}}  # fmt: skip


def keye_vl1_5_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """Keye's image and one-frame video, the video with its frame count (``num_frames``)."""
    items = keye_items(config)
    return {**items, "video": {**items["video"], "num_frames": torch.tensor([1])}}


def fun_asr_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """60 frames of the SenseVoice encoder's 560 stacked fbank features (``funasr.py``, ``input_size=560``)."""
    return {"audio": {"input_features": torch.randn(1, 60, 560), "speech_lengths": torch.tensor([60])}}


def fire_red_asr2_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """80 frames of the Conformer's ``idim`` fbank features, (1, frames, idim), with their length."""
    features = config["audio_encoder_conf"]["idim"]
    return {"audio": {"input_features": torch.randn(1, 80, features), "speech_lengths": torch.tensor([80])}}


def kimi_audio_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One 30 s window of the subfolder encoder's mels (``whisper_input_features``), 375 rows after the fold."""
    bins = WHISPER_SUBFOLDERS["kimi_audio_qwen2"]["num_mel_bins"]
    return {"audio": {"whisper_input_features": torch.randn(1, bins, 3000)}}


def nemotron_nano_vl_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """One tile in bfloat16, the dtype the class casts its RADIO tower to (the LM config's)."""
    side = config["force_image_size"]
    return {"image": {"pixel_values_flat": torch.randn(1, 3, side, side, dtype=torch.bfloat16),
                      "image_num_patches": torch.tensor([1])}}  # fmt: skip


def nemotron_omni_v3_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """The Nano VL tile and 64 frames of the Parakeet encoder's mels, both in bfloat16 (the LM config's dtype)."""
    bins, frames = config["sound_config"]["num_mel_bins"], 64
    audio = {"input_audio_features": torch.randn(1, frames, bins, dtype=torch.bfloat16),
             "feature_attention_mask": torch.ones(1, frames, dtype=torch.bool), "audio_num_clips": torch.tensor([1])}  # fmt: skip
    return {**nemotron_nano_vl_items(config), "audio": audio}


def mimo_v2_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Qwen2.5-VL-style image and video patches, and 64 frames of 128 mel bins (``audio_features``, [T, 128])."""
    return {**qwen_items(config), "audio": {"audio_features": [torch.randn(64, 128)]}}


def moss_audio_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    """200 frames of the Whisper-style encoder's mels (``audio_data`` (1, mels, frames)) and their length."""
    bins = config["audio_config"]["num_mel_bins"]
    return {"audio": {"audio_data": torch.randn(1, bins, 200), "audio_data_seqlens": torch.tensor([200])}}


def moondream3_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One image as its global crop alone, ``crop_size`` square (no local crops, so no tiling)."""
    side = config["config"]["vision"]["crop_size"]
    return {"image": {"pixel_values": [torch.randn(1, 3, side, side)]}}


def mistral_audio_items(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One second of 16 kHz waveform: Voxtral's classes make their own mels (``audio_arrays``)."""
    return {"audio": {"audio_arrays": [torch.randn(16000)]}}


#: Engine-only families' items (their widths are ecwidth's predictions).
ENGINE_ONLY_ITEMS = {
    "internvl_chat": internvl_chat_video_items, "h2ovl_chat": internvl_chat_items, "NVLM_D": internvl_chat_items,
    "skywork_chat": internvl_chat_items, "eagle_2_5_vl": internvl_chat_items,
    "Llama_Nemotron_Nano_VL": internvl_chat_items, "interns1": interns1_items, "minicpmv": minicpmv_items,
    "minicpmo": minicpmo_items, "phi3_v": phi3_v_items, "phi4mm": phi4mm_items, "molmo": molmo_items, "kimi_vl": kimi_vl_items,
    "dots_ocr": patch_items, "ovis": ovis_items, "ovis2_5": ovis2_5_items, "Keye": keye_items,
    "step3_vl": step3_vl_items, "isaac": isaac_items, "deepseek_vl_v2": deepseek_vl_v2_items, "bagel": bagel_items,
    "openvla": openvla_items, "pixtral": pixtral_items, "llava_onevision2": llava_onevision2_items,
    "bee": anyres_items, "rvl": anyres_items, "kanana-1.5-v": kanana_items, "opencua": patch_items,
    "openpangu_vl": qwen_items, "bailing_moe_v3_vl": patch_items, "ultravox": ultravox_items,
    "midashenglm": midashenglm_items, "funaudiochat": funaudiochat_items, "KeyeVL1_5": keye_vl1_5_items,
    "ovis2_6": ovis2_5_items, "chatglm": tile_items, "fun_asr_qwen3": fun_asr_items,
    "phi4-siglip": phi4_siglip_items, "step_robotics": step3_vl_items, "fire_red_asr2_qwen2": fire_red_asr2_items,
    "moondream3": moondream3_items, "intern_s2_preview": qwen_items, "interns2_mobius": qwen_items,
    "kimi_audio_qwen2": kimi_audio_items, "moss_audio": moss_audio_items, "mimo_v2": mimo_v2_items, "NemotronH_Nano_VL_V2": nemotron_nano_vl_items,
    "NemotronH_Nano_Omni_Reasoning_V3": nemotron_omni_v3_items, "NemotronH_Super_Omni_Reasoning_V3": nemotron_omni_v3_items,
}  # fmt: skip
ITEMS.update(ENGINE_ONLY_ITEMS)
ITEMS.update(dict.fromkeys(MISTRAL_FORMAT, mistral_audio_items))


def compare(model_type: str) -> dict[str, Any]:
    """Both widths for each modality of ``model_type``, or the error that stopped vLLM."""
    from vllm.config import set_current_vllm_config
    from vllm.forward_context import set_forward_context

    how, widths = ecwidth_widths(model_type)
    result: dict[str, Any] = {"model_type": model_type, "ecwidth_is": how, "ecwidth": widths}
    try:
        folder, config = prepared(model_type)
        vllm_config, model = vllm_model(folder)
    except Exception as error:  # a family vLLM cannot build here is recorded, and the others go on
        traceback.print_exc()  # the whole trace to stderr, where the file and line that stopped it show
        result["vllm_error"] = f"{type(error).__name__}: {str(error)[:400]}"
        return result
    for modality, inputs in ITEMS[model_type](config).items():
        try:
            with set_current_vllm_config(vllm_config), torch.inference_mode(), set_forward_context(None, vllm_config):
                shapes = [list(item.shape) for item in model.embed_multimodal(**inputs)]
        except Exception as error:
            traceback.print_exc()
            result[modality] = {"vllm_error": f"{type(error).__name__}: {str(error)[:400]}"}
            continue
        measured = result["ecwidth"].get(modality)
        result[modality] = {"vllm_shapes": shapes, "ecwidth": measured, "agree": shapes[0][-1] == measured}
    return result


if __name__ == "__main__":
    for name in sys.argv[1:] or list(ITEMS):
        print(json.dumps(compare(name)), flush=True)
