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
#: No published config comes near this in any size field (vocabularies are under a million); past it is a typo.
MAX_SIZE = 2**24
#: Fields that list layer indexes: each must be a list of integers (or of lists of them).
_INDEX_FIELD = re.compile(r"^(deepstack_visual_indexes|deepstack_layer_map|spatial_target_layers)$")
#: Head-count fields a sibling ``hidden_size`` is split across, unless the config sets ``head_dim``.
_HEAD_FIELDS = ("num_attention_heads", "num_heads")


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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_positive_int(value: Any) -> bool:
    """A whole number above 0, and not a bool (JSON's ``true`` is no count)."""
    return _is_int(value) and value > 0


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return f"the string {value!r}; write the number without quotes"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    return repr(value)


def _check_related_fields(config: Mapping[str, Any], path: str, source: str) -> None:
    """The checks that read two fields of one (sub-)config: head splits and layer indexes against the depth."""
    where = f"{path}." if path else ""
    hidden, head_dim = config.get("hidden_size"), config.get("head_dim")
    for field in _HEAD_FIELDS:
        heads = config.get(field)
        if head_dim is None and is_positive_int(hidden) and is_positive_int(heads) and hidden % heads:
            raise ConfigError(
                f"{source}: field {where}hidden_size ({hidden}) does not divide into {where}{field} ({heads}) "
                "heads; set head_dim, or use sizes from the published config.json"
            )
    indexes, depth = config.get("deepstack_visual_indexes"), config.get("depth")
    if isinstance(indexes, list) and all(map(_is_int, indexes)) and is_positive_int(depth):
        wrong = [index for index in indexes if not 0 <= index < depth]
        if wrong or len(set(indexes)) != len(indexes):
            raise ConfigError(
                f"{source}: field {where}deepstack_visual_indexes {indexes} must list distinct layers of the "
                f"tower, each in [0, {where}depth={depth})"
            )


def _check_feature_layers(raw: Mapping[str, Any], source: str) -> None:
    """``vision_feature_layer`` picks from the tower's hidden states: one per layer plus the embeddings."""
    layers, vision = raw.get("vision_feature_layer"), raw.get("vision_config")
    depth = vision.get("num_hidden_layers") if isinstance(vision, Mapping) else None
    if layers is None or not is_positive_int(depth):
        return
    picked = list(_leaves(layers))
    if not picked or not all(_is_int(layer) and -(depth + 1) <= layer <= depth for layer in picked):
        raise ConfigError(
            f"{source}: field 'vision_feature_layer' must be a layer index (or a list of them) in "
            f"[{-(depth + 1)}, {depth}] for vision_config.num_hidden_layers={depth}, got {_describe(layers)}"
        )


def check_values(raw: Mapping[str, Any], *, source: str) -> None:
    """Refuse values no real config holds: non-finite numbers, bad sizes, bad index fields, deep nesting.

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
            if not all(is_positive_int(item) for item in items):
                raise ConfigError(f"{source}: field {path!r} must be a positive integer, got {_describe(value)}")
            if any(item > MAX_SIZE for item in items):
                raise ConfigError(f"{source}: field {path!r} is {value}, past any real config (at most {MAX_SIZE})")
        elif _INDEX_FIELD.match(key) and not (isinstance(value, list) and all(map(_is_int, _leaves(value)))):
            raise ConfigError(
                f"{source}: field {path!r} must be a list of layer indexes (integers), got {_describe(value)}"
            )
        elif isinstance(value, Mapping):
            _check_related_fields(value, path, source)
    _check_feature_layers(raw, source)
