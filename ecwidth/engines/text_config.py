"""The language model's part of a config, found the way the engines find it.

transformers' configs answer ``get_text_config()``. A config read as data (an
engine-only family's raw file) has no such method, so the sub-config is
looked up in the order SGLang's ``get_hf_text_config``
(``sglang/srt/utils/hf_transformers/common.py``) uses: ``thinker_config``
(its own ``text_config``), ``llm_config``, ``language_config``,
``text_config``, else the config itself. vLLM's own config classes for these
schemas name the same sub-configs.
"""

from __future__ import annotations

from typing import Any

#: The sub-configs a raw config may keep its language model in, first found first taken.
TEXT_SUB_CONFIGS = ("thinker_config", "llm_config", "language_config", "text_config")


def text_config_of(config: Any) -> Any:
    """``config.get_text_config()`` where the config has it, else its first text sub-config, else the config."""
    if hasattr(config, "get_text_config"):
        return config.get_text_config()
    for name in TEXT_SUB_CONFIGS:
        sub = getattr(config, name, None)
        if sub is not None:
            return getattr(sub, "text_config", sub) if name == "thinker_config" else sub
    return config
