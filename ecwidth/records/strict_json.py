"""Read JSON the way a record should be read: no duplicate keys, no stack-deep nesting, nothing past a bound.

Python's ``json`` keeps the last of two equal keys and raises
``RecursionError`` on deep nesting. A hand-edited table or config with a
duplicated key says two things at once; ecwidth refuses to guess which one
was meant. ``NaN`` and ``Infinity`` parse as floats, so that the checks of
each field (``ecwidth.reading.validate``, the table's row checks) can name the field
and the row that holds them.

Reading is linear in the text: duplicate keys are found in one pass over each
object, and ``read_bounded`` refuses a file past a size no real config or
table reaches before reading it, so a hostile file costs a bounded time.
"""

from __future__ import annotations

import json
import os
from typing import Any

#: Duplicate keys an error names before it says how many more there are.
_SHOWN_DUPLICATES = 5


class StrictJSONError(ValueError):
    """The text is not JSON, or is JSON that no config or table should hold."""


class TooLargeError(StrictJSONError):
    """A file is past the size limit of what it should hold; the message names the limit."""


def _short(key: str) -> str:
    text = repr(key)
    return text if len(text) <= 60 else text[:57] + "..."


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; one pass, so a 200,000-key object costs what its size does."""
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    seen: set[str] = set()
    duplicated: dict[str, None] = {}  # in order of first repeat
    for key, _ in pairs:
        if key in seen:
            duplicated[key] = None
        else:
            seen.add(key)
    names = [_short(key) for key in duplicated]
    shown = ", ".join(names[:_SHOWN_DUPLICATES])
    more = f" and {len(names) - _SHOWN_DUPLICATES} more" if len(names) > _SHOWN_DUPLICATES else ""
    raise StrictJSONError(f"duplicate key {shown}{more} in one object")


def loads_strict(text: str) -> Any:
    """``json.loads`` that refuses duplicate keys, nesting deeper than Python's stack, and numbers past Python's digits.

    Raises:
        StrictJSONError: What is wrong, with the line and column where JSON says where.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise StrictJSONError(f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})") from error
    except RecursionError as error:
        raise StrictJSONError("nested too deeply to be a real config or table") from error
    except StrictJSONError:
        raise
    except ValueError as error:  # an int past Python's digit limit (sys.get_int_max_str_digits)
        raise StrictJSONError(f"holds a number with more digits than any real value ({error})") from error


def format_limit(limit: int) -> str:
    """``"32 MiB"`` for a limit that is a whole number of MiB, else the bytes."""
    return f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit} bytes"


def read_bounded(path: str | os.PathLike[str], limit: int, *, what: str) -> bytes:
    """The bytes of the regular file ``path``, refused unread when it is past ``limit`` bytes.

    The size is checked before reading and again while reading (a file that
    grows meanwhile), so no more than ``limit + 1`` bytes are ever read.

    Raises:
        TooLargeError: The file holds more than ``limit`` bytes; names ``what``, the size and the limit.
        OSError: The file cannot be opened or read.
    """
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = b"" if size > limit else handle.read(limit + 1)
    if size > limit or len(data) > limit:
        shown = f"{size} bytes" if size > limit else f"more than {limit} bytes"
        raise TooLargeError(
            f"{shown}, past the {format_limit(limit)} that any real {what} stays under; "
            f"ecwidth refuses it rather than reading it"
        )
    return data
