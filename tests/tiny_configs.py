"""Tiny but real configs, small enough to build and encode in well under a second.

``tests/tiny/<model_type>.json`` holds one per registered model type: adding
a file there runs the whole family contract (``test_family_contract.py``) on it.
"""

import json
from pathlib import Path


def tiny_qwen3_vl(levels: int = 3, out_hidden_size: int = 96, text_hidden_size: int = 80) -> dict:
    """A Qwen3-VL config whose vision tower has four blocks and ``levels`` DeepStack layers."""
    return {
        "model_type": "qwen3_vl",
        "vision_config": {
            "depth": 4,
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_heads": 4,
            "out_hidden_size": out_hidden_size,
            "deepstack_visual_indexes": list(range(levels)),
            "num_position_embeddings": 64,
            "patch_size": 16,
        },
        "text_config": {
            "hidden_size": text_hidden_size,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 20,
            "intermediate_size": 128,
            "vocab_size": 128,
            "rope_scaling": {"rope_type": "default", "mrope_section": [4, 3, 3]},
        },
    }


def tiny_text_only() -> dict:
    """A text-only Qwen3 config: a model with no multimodal encoder."""
    return {
        "model_type": "qwen3",
        "hidden_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "intermediate_size": 128,
        "vocab_size": 128,
    }


TINY_DIR = Path(__file__).parent / "tiny"


def tiny_model_types() -> list[str]:
    """Every model type with a tiny config in ``tests/tiny/``: the registry the family contract runs over."""
    return sorted(path.stem for path in TINY_DIR.glob("*.json"))


def tiny_config(model_type: str) -> dict:
    """A fresh copy of the tiny config of ``model_type``."""
    return json.loads((TINY_DIR / f"{model_type}.json").read_text())
