"""Run vLLM 0.32's own model classes on a CPU and compare what ``embed_multimodal`` ships with ``ecwidth measure``.

ecwidth reads each family's packing from vLLM's source; this runs that
source. Each tiny config in ``tests/tiny/`` is built by vLLM with dummy
weights (``load_format="dummy"``, no tokenizer, eager), one item per modality
goes through ``embed_multimodal``, and the last dimension of each returned
tensor is set beside the width ``ecwidth measure --config`` reports.

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
}

#: Language-model fields vLLM's classes need that a tiny config leaves out or sets in a way they refuse.
LM_ONLY_CHANGES: dict[str, dict[str, Any]] = {
    # vLLM's Qwen3-MoE block reads norm_topk_prob; its CPU MoE kernel wants a hidden size divisible by 32.
    "qwen3_vl_moe": {"text_config": {"norm_topk_prob": True, "hidden_size": 64, "head_dim": 32,
                                     "moe_intermediate_size": 32}},  # fmt: skip
}


def prepared(model_type: str) -> tuple[Path, dict[str, Any]]:
    """A folder holding the tiny config as vLLM reads it, and that config."""
    config = json.loads((TINY / f"{model_type}.json").read_text())
    config.setdefault("architectures", [ARCHITECTURES[model_type]])
    for key, value in LM_ONLY_CHANGES.get(model_type, {}).items():
        config[key] = {**config.get(key, {}), **value}
    folder = WORK / model_type
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1))
    return folder, config


def vllm_model(folder: Path) -> tuple[Any, torch.nn.Module]:
    """vLLM's config and model for ``folder``, dummy weights, in a fresh world-size-1 gloo group."""
    from vllm.config import set_current_vllm_config
    from vllm.distributed import init_distributed_environment, initialize_model_parallel
    from vllm.distributed import parallel_state
    from vllm.engine.arg_utils import EngineArgs
    from vllm.model_executor.model_loader import get_model

    config = EngineArgs(
        model=str(folder), load_format="dummy", skip_tokenizer_init=True, enforce_eager=True,
        dtype="float32", max_model_len=1024,
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
    return {"pixel_values_videos": pixels, "video_grid_thw": grid} if video else {"pixel_values": pixels,
                                                                                 "image_grid_thw": grid}


def _tile(config: dict[str, Any]) -> torch.Tensor:
    side = config["vision_config"]["image_size"]
    return torch.randn(1, 3, side, side)


def qwen_items(config: dict[str, Any]) -> dict[str, dict[str, torch.Tensor]]:
    return {"image": _patches(config), "video": _patches(config, video=True)}


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


ITEMS = {
    "qwen3_vl": qwen_items, "qwen3_vl_moe": qwen_items, "qwen2_5_vl": qwen_items, "qwen2_vl": qwen_items,
    "glm4v": qwen_items, "llava": tile_items, "paligemma": tile_items, "mistral3": tile_items,
    "llava_next": llava_next_items, "gemma3": gemma3_items, "idefics3": idefics3_items, "smolvlm": idefics3_items,
    "qwen2_audio": qwen2_audio_items,
}  # fmt: skip


def compare(model_type: str) -> dict[str, Any]:
    """Both widths for each modality of ``model_type``, or the error that stopped vLLM."""
    from vllm.config import set_current_vllm_config
    from vllm.forward_context import set_forward_context

    folder, config = prepared(model_type)
    result: dict[str, Any] = {"model_type": model_type, "ecwidth": ecwidth_widths(model_type)}
    try:
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
