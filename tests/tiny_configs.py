"""Tiny but real configs, small enough to build and encode in well under a second.

``tests/tiny/<model_type>.json`` holds one per registered model type: adding
a file there runs the whole family contract (``test_family_contract.py``) on it.
"""

import json
from collections.abc import Iterable
from pathlib import Path

TINY_DIR = Path(__file__).parent / "tiny"


def tiny_model_types() -> list[str]:
    """Every model type with a tiny config in ``tests/tiny/``: the registry the family contract runs over."""
    return sorted(path.stem for path in TINY_DIR.glob("*.json"))


def tiny_config(model_type: str) -> dict:
    """A fresh copy of the tiny config of ``model_type``."""
    return json.loads((TINY_DIR / f"{model_type}.json").read_text())


def tiny_qwen3_vl(levels: int = 3, out_hidden_size: int = 96, text_hidden_size: int = 80) -> dict:
    """Qwen3-VL's tiny config with a four-block tower, ``levels`` DeepStack layers and the widths given.

    The CLI, engine and source tests vary the levels; their defaults keep the
    merger, the packed width and the LM's width apart.
    """
    config = tiny_config("qwen3_vl")
    config["vision_config"].update(
        depth=4, out_hidden_size=out_hidden_size, deepstack_visual_indexes=list(range(levels))
    )
    config["text_config"]["hidden_size"] = text_hidden_size
    return config


def deepstack_width(config: dict) -> int:
    """A Qwen3-VL-style config's packed width, from its fields: the merger output, then one slice per level."""
    vision = config["vision_config"]
    return vision["out_hidden_size"] * (1 + len(vision.get("deepstack_visual_indexes") or ()))


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


def measurable_model_types(leaving_out: Iterable[str] = ()) -> list[str]:
    """The tiny model types with at least one modality a measurement encodes (not predicted only), less
    ``leaving_out`` (types the installed transformers cannot read)."""
    from ecwidth.families.adapter import adapter_for
    from ecwidth.reading.configs import resolve_spec

    return [
        t
        for t in tiny_model_types()
        if t not in leaving_out and adapter_for(t).config_modalities(resolve_spec(tiny_config(t)).config)
    ]
