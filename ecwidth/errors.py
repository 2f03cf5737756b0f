"""Errors ecwidth raises.

Every error is a ``ValueError`` subclass so that callers who only know the
serving engine's contract (``ValueError`` on a bad width) keep working.
"""

import re

#: The lines torch adds to an error's message to say where in its C++ it was raised.
_CPP_CONTEXT = re.compile(r"(Exception raised from |frame #\d+: |<omitting python frames>)")


class EcwidthError(ValueError):
    """Base class of every error ecwidth raises on purpose."""


class NoEncoderError(EcwidthError):
    """No rank reported a width: the model encoded no dummy input."""


class WidthDisagreementError(EcwidthError):
    """Two ranks reported different widths for the same model."""


class MalformedReportError(EcwidthError):
    """A rank's report is not a ``{str: positive int}`` mapping."""


class MissingWidthError(EcwidthError):
    """A width was asked for a modality that was not measured."""


class UnknownModelTypeError(EcwidthError):
    """No family adapter is registered for a config's ``model_type``."""


class ConfigError(EcwidthError):
    """A config cannot be read, or lacks a field the family needs."""


class RemoteCodeError(ConfigError):
    """A config asks for remote code and the user did not allow it."""


class EncodeError(EcwidthError):
    """The encoder raised or ran out of memory while encoding a dummy item."""


class TableError(EcwidthError):
    """A width table file is malformed, or two tables conflict."""


class RankFailedError(EcwidthError):
    """A rank raised, hung or died while measuring across ranks."""


class NoTokenRuleError(EcwidthError):
    """A family has no rule for how many embedding tokens an item yields; its width still measures."""


class UnmeasurableError(EcwidthError):
    """A family's shipped items cannot be built without real weights (text-token embeddings in the item)."""


class UnsupportedOptionError(EcwidthError):
    """A runtime option the family's engine class does not take, or a setting the engine cannot serve."""


class UnknownEngineError(EcwidthError):
    """An engine or release ecwidth does not know; the message names the known ones."""


class NotServedError(EcwidthError):
    """The chosen engine release does not serve this model type at all; the message says why."""


class ResourceError(EcwidthError):
    """What a config asks to build does not fit the machine; the estimate, the limit and the override are named."""


def one_line(error: BaseException | str) -> str:
    """An error's message as the one line a command prints after ``error:``.

    torch appends its C++ context to a message ("Exception raised from ...",
    then a stack of frames) and transformers' field validators spread theirs
    over several lines; the line keeps what was wrong and drops the frames.
    """
    lines = (line.strip() for line in str(error).splitlines())
    return " ".join(line for line in lines if line and not _CPP_CONTEXT.match(line))
