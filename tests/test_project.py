"""The project installs what it says it does, the same way from either file."""

import re
import tomllib
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_requirements() -> set[str]:
    """Every third-party requirement, base and extras; an extra naming ecwidth's own extras is left out."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [req for group in project["optional-dependencies"].values() for req in group]
    return {req for req in set(project["dependencies"]) | set(extras) if not req.startswith("ecwidth[")}


#: conda-forge's names for packages PyPI names otherwise.
CONDA_NAMES = {"pytorch-cpu": "torch"}


def _environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _makefile_pin(name: str) -> str:
    """The version spec the Makefile installs ``name`` at (``TORCH ?= torch==2.13.0`` -> ``==2.13.0``)."""
    line = next(line for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith(f"{name.upper()} ?="))
    return line.split("=", 1)[1].strip().removeprefix(name)


def _environment_requirements() -> dict[str, str]:
    """``{PyPI name: version spec}`` of the conda-forge packages, python and pip left out."""
    found = {}
    for dependency in _environment()["dependencies"]:
        if isinstance(dependency, str):
            name = re.split(r"[<>=!]", dependency, maxsplit=1)[0]
            if name not in ("python", "pip"):
                found[CONDA_NAMES.get(name, name)] = dependency[len(name) :]
    return found


def test_environment_takes_the_pyproject_dependencies_from_conda_forge():
    environment = _environment()
    assert environment["channels"][0] == "conda-forge"
    pip = next(dep["pip"] for dep in environment["dependencies"] if isinstance(dep, dict))
    assert [req.split("#")[0].strip() for req in pip] == ["-e ."]  # only ecwidth itself from pip
    required = {re.split(r"[<>=!]", req, maxsplit=1)[0]: req for req in _pyproject_requirements()}
    conda = _environment_requirements()
    assert set(conda) == set(required)
    for name, spec in conda.items():
        if name in ("torch", "transformers"):  # the Makefile's development pins, within pyproject's bound
            assert spec == _makefile_pin(name)
            floor = re.search(r"[>=]=?([0-9.]+)", spec).group(1)
            assert Version(floor) in SpecifierSet(required[name][len(name) :])
        else:
            assert name + spec == required[name]


def test_environment_bounds_python_to_what_torch_supports():
    python = next(dep for dep in _environment()["dependencies"] if isinstance(dep, str) and dep.startswith("python"))
    bound = SpecifierSet(python.removeprefix("python"))
    assert "3.11" in bound and "3.10" not in bound and "3.16" not in bound


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!\[]", req, maxsplit=1)[0] for req in requirements}


def test_the_base_install_needs_nothing_and_measuring_is_an_extra():
    """Tables, look-ups and the producer hook install beside an engine without touching its torch or transformers."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == []
    extras = project["optional-dependencies"]
    assert {"torch", "transformers"} <= _names(extras["measure"])
    transformers = next(req for req in extras["measure"] if req.startswith("transformers"))
    for engine_pin in ("5.16.1", "5.19.0", "5.20.2"):  # vLLM 0.32 and 0.33's floors and SGLang 0.5.23's pin
        assert Version(engine_pin) in SpecifierSet(transformers.removeprefix("transformers"))
    assert "ecwidth[measure]" in extras["notebook"] and {"pandas", "matplotlib"} <= _names(extras["notebook"])
    assert {"jupyterlab", "papermill", "ipykernel"} <= _names(extras["notebook"])
    assert "ecwidth[notebook]" in extras["test"]


def test_python_311_or_newer():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"


def test_catalog_json_ships_as_package_data():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "*.json" in setuptools["package-data"]["ecwidth.reading.catalog"]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make test" in ci
