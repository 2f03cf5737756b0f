"""What a user sees besides the data (ecwidth.notices): ecwidth's warnings once, as one line; transformers quiet."""

import logging
import warnings

from ecwidth.cli import notices
from ecwidth.reading.configs import NativeClassesWarning


def test_a_command_shows_each_ecwidth_warning_once_without_its_source_line(capsys):
    with notices.warnings_on_stderr():
        for _ in range(2):
            warnings.warn("catalog:x: ignoring auto_map", NativeClassesWarning, stacklevel=1)
        warnings.warn("a library's complaint", UserWarning, stacklevel=1)
    assert capsys.readouterr().err == "ecwidth: warning: catalog:x: ignoring auto_map\n"


def test_a_notebook_session_keeps_other_libraries_warnings_and_one_display(monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(warnings, "showwarning", lambda message, *rest, **keywords: seen.append(str(message)))
    monkeypatch.setenv("TRANSFORMERS_VERBOSITY", "warning")  # the user's choice is kept
    notices.show_in_this_session()
    notices.show_in_this_session()  # a setup cell run twice wraps the display once
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn("catalog:y: ignoring auto_map", NativeClassesWarning, stacklevel=1)
        warnings.warn("catalog:y: ignoring auto_map", NativeClassesWarning, stacklevel=1)
        warnings.warn("pandas says", FutureWarning, stacklevel=1)
    assert capsys.readouterr().err == "ecwidth: warning: catalog:y: ignoring auto_map\n"
    assert seen == ["pandas says"]


def test_transformers_is_quieted_after_its_import(monkeypatch):
    from transformers.utils import logging as hf_logging

    before = hf_logging.get_verbosity()
    monkeypatch.delenv("TRANSFORMERS_VERBOSITY", raising=False)
    try:
        hf_logging.set_verbosity_warning()
        notices.quiet_transformers()
        assert hf_logging.get_verbosity() == logging.ERROR
    finally:
        hf_logging.set_verbosity(before)
