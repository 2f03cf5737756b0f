"""Read JSON the way a record should be read: no duplicate keys, no stack-deep nesting.

Python's ``json`` keeps the last of two equal keys and raises
``RecursionError`` on deep nesting. A hand-edited table or config with a
duplicated key says two things at once; ecwidth refuses to guess which one
was meant. ``NaN`` and ``Infinity`` parse as floats, so that the checks of
each field (``ecwidth.reading.validate``, the table's row checks) can name the field
and the row that holds them.
"""

from __future__ import annotations

import json
from typing import Any


class StrictJSONError(ValueError):
    """The text is not JSON, or is JSON that no config or table should hold."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    if duplicated:
        raise StrictJSONError(f"duplicate key {', '.join(map(repr, duplicated))} in one object")
    return dict(pairs)


def loads_strict(text: str) -> Any:
    """``json.loads`` that refuses duplicate keys and nesting deeper than Python's stack.

    Raises:
        StrictJSONError: What is wrong, with the line and column where JSON says where.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise StrictJSONError(f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})") from error
    except RecursionError as error:
        raise StrictJSONError("nested too deeply to be a real config or table") from error
