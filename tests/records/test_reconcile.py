"""Reconcile and look-up semantics, as the serving engine's startup step keeps them."""

import pytest

import ecwidth
from ecwidth import MalformedReportError, MissingWidthError, NoEncoderError, WidthDisagreementError


def test_agreeing_reports_are_recorded_and_empty_ranks_dropped():
    reports = [{}, {"image": 16384, "video": 16384}, {}, {"image": 16384, "video": 16384}]
    assert ecwidth.reconcile(reports) == {"image": 16384, "video": 16384}


def test_single_rank_report_is_the_answer():
    assert ecwidth.reconcile([{"audio": 2048}]) == {"audio": 2048}


@pytest.mark.parametrize("reports", [[], [{}], [{}, {}, {}]])
def test_no_encoder_anywhere_could_not_measure(reports):
    with pytest.raises(NoEncoderError, match="could not measure"):
        ecwidth.reconcile(reports)


def test_disagreement_names_every_rank_and_its_report():
    reports = [{"image": 4096}, {}, {"image": 16384}]
    with pytest.raises(WidthDisagreementError, match="disagree") as caught:
        ecwidth.reconcile(reports)
    message = str(caught.value)
    for rank, report in enumerate(reports):
        assert f"rank {rank}: {report}" in message


def test_disagreement_on_the_set_of_modalities():
    with pytest.raises(WidthDisagreementError, match="disagree"):
        ecwidth.reconcile([{"image": 8}, {"image": 8, "audio": 8}])


@pytest.mark.parametrize("width", [True, False, 0, -4, 4096.0, "4096", None])
def test_malformed_width_names_the_rank(width):
    with pytest.raises(MalformedReportError, match="rank 1"):
        ecwidth.reconcile([{"image": 8}, {"image": width}])


@pytest.mark.parametrize("report", [{1: 8}, {("image",): 8}, ["image", 8], None])
def test_malformed_report_names_the_rank(report):
    with pytest.raises(MalformedReportError, match="rank 0"):
        ecwidth.reconcile([report])


@pytest.mark.parametrize("error", [NoEncoderError, WidthDisagreementError, MalformedReportError, MissingWidthError])
def test_errors_are_value_errors(error):
    assert issubclass(error, ValueError)


def test_lookup_returns_the_width():
    assert ecwidth.get_width({"image": 16384, "audio": 2048}, "audio") == 2048


def test_lookup_of_unmeasured_modality_names_it_and_lists_measured_sorted():
    with pytest.raises(MissingWidthError) as caught:
        ecwidth.get_width({"video": 1, "image": 2}, "audio")
    assert "'audio'" in str(caught.value)
    assert "['image', 'video']" in str(caught.value)
