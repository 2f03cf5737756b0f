"""Runtime options of the serving engine that change what a producer ships.

The width is not a function of ``config.json`` alone: with video pruning
(EVS, vLLM's ``--video-pruning-rate R``, R > 0) the Qwen2.5-VL and Qwen3-VL
towers append position channels to every item. An option is therefore an
input of a measurement, with the engine's name, meaning and default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ecwidth.errors import UnsupportedOptionError

#: The options ecwidth knows, by the engine's name, with the engine's defaults.
OPTION_DEFAULTS: dict[str, Any] = {"video_pruning_rate": 0.0}


@dataclass(frozen=True)
class RuntimeOptions:
    """The engine's runtime options a measurement was made with; every default is the engine's.

    ``video_pruning_rate``: the fraction of video tokens to prune, in [0, 1);
    pruning is on when it is above 0 (vLLM's ``--video-pruning-rate``).
    """

    video_pruning_rate: float = 0.0

    def __post_init__(self) -> None:
        rate = self.video_pruning_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)):
            raise UnsupportedOptionError(f"video_pruning_rate must be a number in [0, 1), got {_shown(rate)}")
        if not 0 <= rate < 1:  # compared as it is: a 400-digit int is refused here, never converted; NaN fails too
            raise UnsupportedOptionError(
                f"video_pruning_rate must be in [0, 1) as in vLLM (0: off), got {_shown(rate)}"
            )
        object.__setattr__(self, "video_pruning_rate", float(rate))

    @property
    def pruning(self) -> bool:
        """Whether video pruning is on."""
        return self.video_pruning_rate > 0

    def set_options(self) -> dict[str, Any]:
        """The options that differ from the engine's defaults: what a table row and ``--json`` record."""
        return {
            name: getattr(self, name) for name, default in OPTION_DEFAULTS.items() if getattr(self, name) != default
        }


def _shown(value: Any) -> str:
    """``repr(value)``, shortened where it is long (a 400-digit integer), for one-line messages."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:12]}... ({len(text)} characters)"


def recorded_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as a table row or ``--json`` records them: known names, valid values, defaults left out.

    So one setting has one record: ``{"video_pruning_rate": 0}`` is ``{}``, the engine's default.

    Raises:
        UnsupportedOptionError: A name ecwidth does not know, or a value out of the option's range.
    """
    unknown = sorted(str(name) for name in options if name not in OPTION_DEFAULTS)
    if unknown:
        raise UnsupportedOptionError(
            f"unknown runtime option(s) {', '.join(unknown)}; the options are {', '.join(OPTION_DEFAULTS)}"
        )
    return RuntimeOptions(**options).set_options()


def describe_options(options: Mapping[str, Any]) -> str:
    """``"video_pruning_rate=0.5"`` for messages and labels; ``"engine defaults"`` when nothing is set."""
    return ", ".join(f"{name}={value:g}" for name, value in sorted(options.items())) or "engine defaults"
