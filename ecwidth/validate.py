"""Check a raw config's values before transformers or a tower sees them.

Hand-edited configs carry quoted numbers, floats, booleans, ``NaN`` and
zero or negative sizes. transformers accepts most of them silently and a
tower then divides by zero, allocates a negative shape or reports a width of
0; each deserves one error that names the file, the field and what was
expected.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from ecwidth.errors import ConfigError

#: Nesting deeper than this is no published config; it is a mistake or an attack on the parser.
MAX_DEPTH = 24
#: Fields that are counts or sizes: each must be a positive integer (or a list of them) where set.
_SIZE_FIELD = re.compile(
    r"^(hidden_size|out_hidden_size|intermediate_size|depth|patch_size|temporal_patch_size|spatial_merge_size"
    r"|image_size|num_hidden_layers|num_attention_heads|num_heads|num_key_value_heads|head_dim|vocab_size"
    r"|mm_tokens_per_image|num_mel_bins|d_model|output_dim|projection_dim|max_source_positions|scale_factor"
    r"|vision_output_dim|projector_input_dim|projector_output_dim|num_channels|in_channels)$"
)
#: Fields that list layer indexes: each must be a list of integers.
_INDEX_FIELD = re.compile(r"^(deepstack_visual_indexes|deepstack_layer_map|spatial_target_layers)$")


def _walk(value: Any, path: str, depth: int) -> Iterator[tuple[str, Any]]:
    if depth > MAX_DEPTH:
        raise ConfigError(f"field {path!r} is nested more than {MAX_DEPTH} levels deep; no real config is")
    yield path, value
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}" if path else str(key), depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]", depth + 1)


def _is_positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return f"the string {value!r}; write the number without quotes"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    return repr(value)


def check_values(raw: Mapping[str, Any], *, source: str) -> None:
    """Refuse values no real config holds: non-finite numbers, bad sizes, non-list index fields, deep nesting.

    Raises:
        ConfigError: Names the source, the field and what was expected.
    """
    for path, value in _walk(raw, "", 0):
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{source}: field {path!r} is {value}; a config needs finite numbers")
        key = path.rsplit(".", 1)[-1]
        if value is None or "[" in key:
            continue
        if _SIZE_FIELD.match(key):
            items = value if isinstance(value, list) and value else [value]
            if not all(_is_positive_int(item) for item in items):
                raise ConfigError(f"{source}: field {path!r} must be a positive integer, got {_describe(value)}")
        elif _INDEX_FIELD.match(key) and not isinstance(value, list):
            raise ConfigError(f"{source}: field {path!r} must be a list of layer indexes, got {_describe(value)}")
