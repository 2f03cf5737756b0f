"""The project installs what it says it does, the same way from either file."""

import re
import tomllib
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_requirements() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [req for group in project["optional-dependencies"].values() for req in group]
    return set(project["dependencies"]) | set(extras)


#: conda-forge's names for packages PyPI names otherwise.
CONDA_NAMES = {"pytorch-cpu": "torch"}


def _environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _makefile_torch() -> str:
    line = next(line for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith("TORCH ?="))
    return line.split("=", 1)[1].strip().removeprefix("torch")


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
        if name == "torch":  # pinned to the Makefile's CPU build, within pyproject's bound
            assert spec == _makefile_torch() and Version(spec.lstrip("=")) in SpecifierSet(required[name][5:])
        else:
            assert name + spec == required[name]


def test_environment_bounds_python_to_what_torch_supports():
    python = next(dep for dep in _environment()["dependencies"] if isinstance(dep, str) and dep.startswith("python"))
    bound = SpecifierSet(python.removeprefix("python"))
    assert "3.11" in bound and "3.10" not in bound and "3.16" not in bound


def test_runtime_and_notebook_dependencies_are_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {req.split(">")[0].split("=")[0].split("<")[0] for req in project["dependencies"]}
    assert {"torch", "transformers", "pandas", "matplotlib"} <= names
    notebook = {req.split(">")[0] for req in project["optional-dependencies"]["notebook"]}
    assert {"jupyterlab", "papermill", "ipykernel"} <= notebook


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
