"""The project installs what it says it does, the same way from either file."""

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_requirements() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [req for group in project["optional-dependencies"].values() for req in group]
    return set(project["dependencies"]) | set(extras)


def _environment_requirements() -> set[str]:
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(dep["pip"] for dep in environment["dependencies"] if isinstance(dep, dict))
    return {req for req in pip_section if not req.startswith("-e")}


def test_environment_and_pyproject_name_the_same_dependencies():
    assert _environment_requirements() == _pyproject_requirements()


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
    assert "*.json" in setuptools["package-data"]["ecwidth.catalog"]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make test" in ci
