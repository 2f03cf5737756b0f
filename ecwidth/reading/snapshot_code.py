"""A checkpoint's own configuration code, loaded only where the user trusts it (``--trust-remote-code``).

transformers loads the classes a config's ``auto_map`` names from the files
beside ``config.json`` (``module.Class`` is ``module.py`` there). ecwidth
never fetches code: a file that is not in the folder, or an entry naming
another hub repository (``repo--module.Class``), is one error that says what
to do, before any code runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ecwidth.errors import ConfigError, EcwidthError, one_line


def code_file(code: str) -> str:
    """The file an ``auto_map`` entry's ``module.Class`` is read from, relative to the checkpoint folder."""
    module, _, _ = code.rpartition(".")
    return module.replace(".", "/") + ".py"


def check_code_files(auto_map: Mapping[str, Any], auto_classes: tuple[str, ...], folder: Path, *, source: str) -> None:
    """Every file the named ``auto_map`` entries need is in ``folder``.

    Raises:
        ConfigError: An entry is missing, names another hub repository, or names a file ``folder`` lacks.
    """
    files = []
    for auto_class in auto_classes:
        code = auto_map.get(auto_class)
        if not isinstance(code, str) or "." not in code:
            raise ConfigError(
                f'{source}: auto_map has no {auto_class} entry ("module.Class"), so the checkpoint\'s own code '
                "cannot build this model; leave out --trust-remote-code to answer from the engine's rule"
            )
        if "--" in code:
            raise ConfigError(
                f"{source}: auto_map.{auto_class} names code in another hub repository ({code.split('--')[0]}), "
                "which ecwidth never fetches; copy that code beside config.json, or leave out --trust-remote-code"
            )
        files.append(code_file(code))
    missing = sorted({name for name in files if not (folder / name).is_file()})
    if missing:
        raise ConfigError(
            f"{source}: auto_map names {', '.join(missing)}, which {folder} does not hold; put the checkpoint's "
            "code files beside config.json, or leave out --trust-remote-code to answer from the engine's rule"
        )


def snapshot_config(folder: Path, raw: Mapping[str, Any], *, auto_class: str, source: str) -> Any:
    """The config as the checkpoint's own configuration class makes it, loaded from ``folder`` alone.

    Raises:
        ConfigError: A file ``auto_map`` needs is missing (``check_code_files``), or the code raised.
    """
    check_code_files(raw.get("auto_map") or {}, ("AutoConfig", auto_class), folder, source=source)
    from transformers import AutoConfig

    try:
        return AutoConfig.from_pretrained(folder, trust_remote_code=True, local_files_only=True)
    except EcwidthError:  # a deadline that expired while the code ran is the deadline's to report
        raise
    except Exception as error:  # the checkpoint's code may raise anything; it is named, not hidden
        raise ConfigError(f"{source}: the checkpoint's configuration code failed: {one_line(error)}") from error
