"""Reconcile per-rank width reports and look widths up, as serving engines do.

A producer measures on every worker; ranks without an encoder report ``{}``.
The reports that remain must agree exactly, or transfers would be sized
differently depending on which rank answered.
"""

from collections.abc import Iterable, Mapping

from ecwidth.errors import MalformedReportError, MissingWidthError, NoEncoderError, WidthDisagreementError

#: Wider than any encoder ships (the widest known is 20480): a width past it is corrupt, not measured.
MAX_WIDTH = 1 << 20


def _show(value: object) -> str:
    """A short repr for messages, safe on hostile values (an int past Python's digits, a self-nesting value)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        if isinstance(value, int):
            return f"<an int of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _check_report(who: str, report: object) -> None:
    if not isinstance(report, Mapping):
        raise MalformedReportError(f"{who} {_show(report)}: a report must be a mapping of modality name to width")
    for modality, width in report.items():
        if not isinstance(modality, str):
            raise MalformedReportError(
                f"{who} modality {_show(modality)} of type {type(modality).__name__}: "
                "modalities must be strings such as 'image'"
            )
        if isinstance(width, bool) or not isinstance(width, int) or not 0 < width <= MAX_WIDTH:
            raise MalformedReportError(
                f"{who} width {_show(width)} for {_show(modality)}: "
                f"a width must be a positive int (at most {MAX_WIDTH})"
            )


def reconcile(reports: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Agree on one ``{modality: width}`` mapping from per-rank reports in rank order.

    Empty reports (ranks with no encoder) are dropped; the rest must be equal.

    Raises:
        MalformedReportError: ``reports`` is not a sequence of reports, or a report is not a mapping of str
            to positive int; names the rank.
        NoEncoderError: Every report is empty ("could not measure").
        WidthDisagreementError: Two non-empty reports differ ("disagree"); names every rank.
    """
    if isinstance(reports, (str, bytes, Mapping)) or not isinstance(reports, Iterable):
        raise MalformedReportError(f"reports must be a list of per-rank mappings, in rank order; got {_show(reports)}")
    reports = list(reports)
    for rank, report in enumerate(reports):
        _check_report(f"rank {rank} reported", report)
    measured = [(rank, dict(report)) for rank, report in enumerate(reports) if report]
    if not measured:
        raise NoEncoderError(
            f"could not measure the encoder output width: none of the {len(reports)} rank(s) "
            "encoded a dummy multimodal input. Check that the model has a multimodal encoder "
            "and that the first pipeline stage holds it."
        )
    first = measured[0][1]
    if any(report != first for _, report in measured):
        by_rank = "; ".join(f"rank {rank}: {report}" for rank, report in enumerate(reports))
        raise WidthDisagreementError(
            f"ranks disagree on the encoder output widths ({by_rank}). "
            "Every rank must build the same architecture; check each rank's config."
        )
    return first


def get_width(widths: Mapping[str, int], modality: str) -> int:
    """Width of one modality from a reconciled mapping.

    Raises:
        MalformedReportError: ``widths`` is not a mapping of str to positive int.
        MissingWidthError: ``modality`` was not measured; names it and lists the measured ones.
    """
    _check_report("get_width was given", widths)
    if not isinstance(modality, str) or modality not in widths:
        raise MissingWidthError(
            f"no encoder output width was measured for modality {_show(modality)}; measured: {sorted(widths)}"
        )
    return widths[modality]
