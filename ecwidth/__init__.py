"""ecwidth: measure the width of what a multimodal encoder ships to the language model.

DeepStack models pack several layers on the last dim, so a transfer sized
from the LM ``hidden_size`` can be several times too small. ecwidth measures
the real width per modality, reconciles per-rank reports, looks widths up
with clear errors, and exports width tables, the ``mm_encoder_output_widths``
mapping a producer records, and buffer plans for connectors that pre-register memory.

Importing ``ecwidth`` loads neither torch nor transformers: the names that
need them (``measure``, ``predict_widths`` ...) are imported on first use, so
table look-ups stay quick, and the record side (tables, ``reconcile``,
``record_producer_widths``) works where only an engine's own torch and
transformers are installed, or none.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ecwidth.errors import (
    ConfigError,
    EcwidthError,
    EncodeError,
    MalformedReportError,
    MissingWidthError,
    NoEncoderError,
    NoTokenRuleError,
    NotServedError,
    RankFailedError,
    RemoteCodeError,
    TableError,
    UnknownEngineError,
    UnknownModelTypeError,
    UnmeasurableError,
    UnsupportedOptionError,
    WidthDisagreementError,
)
from ecwidth.records.reconcile import get_width, reconcile
from ecwidth.records.table import WidthRow, WidthTable
from ecwidth.serving.producer import record_producer_widths
from ecwidth.serving.producer_config import producer_config

if TYPE_CHECKING:
    from ecwidth.measuring.measure import MeasureResult, WidthMismatchWarning, measure, measure_widths
    from ecwidth.measuring.predict import predict_widths

#: Public names that need torch, and the module each lives in.
_LAZY = {
    "MeasureResult": "ecwidth.measuring.measure",
    "WidthMismatchWarning": "ecwidth.measuring.measure",
    "measure": "ecwidth.measuring.measure",
    "measure_widths": "ecwidth.measuring.measure",
    "predict_widths": "ecwidth.measuring.predict",
}


def _installed_version() -> str:
    """The installed distribution's version, read only when asked: importlib.metadata is a third of import time."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ecwidth")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """Import a name that needs torch on first use (and the version when asked), and keep it."""
    if name == "__version__":
        value = _installed_version()
    elif name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'ecwidth' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "ConfigError",
    "EcwidthError",
    "EncodeError",
    "MalformedReportError",
    "MeasureResult",
    "MissingWidthError",
    "NoEncoderError",
    "NoTokenRuleError",
    "NotServedError",
    "RankFailedError",
    "RemoteCodeError",
    "TableError",
    "UnknownEngineError",
    "UnknownModelTypeError",
    "UnmeasurableError",
    "UnsupportedOptionError",
    "WidthDisagreementError",
    "WidthMismatchWarning",
    "WidthRow",
    "WidthTable",
    "get_width",
    "measure",
    "measure_widths",
    "predict_widths",
    "producer_config",
    "reconcile",
    "record_producer_widths",
]
