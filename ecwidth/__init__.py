"""ecwidth: measure the width of what a multimodal encoder ships to the language model.

DeepStack models pack several layers on the last dim, so a transfer sized
from the LM ``hidden_size`` can be several times too small. ecwidth measures
the real width per modality, reconciles per-rank reports, looks widths up
with clear errors, and exports width tables that producer configs load.
"""

from importlib.metadata import PackageNotFoundError, version

from ecwidth.errors import (
    ConfigError,
    EcwidthError,
    EncodeError,
    MalformedReportError,
    MissingWidthError,
    NoEncoderError,
    RankFailedError,
    RemoteCodeError,
    TableError,
    UnknownModelTypeError,
    WidthDisagreementError,
)
from ecwidth.measure import MeasureResult, WidthMismatchWarning, measure, measure_widths
from ecwidth.predict import predict_widths
from ecwidth.producer import record_producer_widths
from ecwidth.reconcile import get_width, reconcile
from ecwidth.table import WidthRow, WidthTable

try:
    __version__ = version("ecwidth")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "ConfigError",
    "EcwidthError",
    "EncodeError",
    "MalformedReportError",
    "MeasureResult",
    "MissingWidthError",
    "NoEncoderError",
    "RankFailedError",
    "RemoteCodeError",
    "TableError",
    "UnknownModelTypeError",
    "WidthDisagreementError",
    "WidthMismatchWarning",
    "WidthRow",
    "WidthTable",
    "get_width",
    "measure",
    "measure_widths",
    "predict_widths",
    "reconcile",
    "record_producer_widths",
]
