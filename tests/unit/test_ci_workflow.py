"""The example CI workflow (docs/ci/weir-deploy.yml) would run: a Python the package
installs on, an install the CLI works from, and `weir` commands with flags it has."""

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.specifiers import SpecifierSet

from backend.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / "docs" / "ci" / "weir-deploy.yml"


def steps() -> list[dict[str, Any]]:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    assert True in workflow or "on" in workflow, "no trigger"  # YAML 1.1 reads `on` as True
    return workflow["jobs"]["deploy"]["steps"]  # type: ignore[no-any-return]


def step_using(action: str) -> dict[str, Any]:
    found = [s for s in steps() if s.get("uses", "").startswith(f"{action}@")]
    assert len(found) == 1, action
    return found[0]


def command_lines() -> list[list[str]]:
    """Every command of the workflow's `run` steps, split as a shell splits it."""
    return [
        shlex.split(line)
        for step in steps()
        for line in step.get("run", "").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_workflow_sets_up_a_python_the_package_installs_on() -> None:
    step_using("actions/checkout")
    version = str(step_using("actions/setup-python")["with"]["python-version"])
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert version in SpecifierSet(project["requires-python"]), version


def test_the_workflow_installs_the_weir_package_without_the_servers_dependencies() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    [install] = [c for c in command_lines() if c[:2] == ["pip", "install"]]
    assert "--no-deps" in install
    assert install[-1] == "$WEIR_PACKAGE"
    name = re.match(r"[A-Za-z0-9_.-]+", workflow["env"]["WEIR_PACKAGE"])
    assert name is not None and name.group() == "weir"


def test_the_cli_needs_nothing_but_the_standard_library(tmp_path: Path) -> None:
    """What `pip install --no-deps` gives a CI job: this repo's code and a bare Python
    (-S: no site-packages). An unreachable server is exit 2, after every import."""
    program = tmp_path / "p.sql"
    program.write_text("CREATE TABLE t (x INT);\n")
    code = (
        f"import sys; sys.path.insert(0, {str(REPO)!r}); from backend.cli import main; "
        f"sys.exit(main(['deploy', {str(program)!r}, '--pipeline', 'p', "
        "'--url', 'http://127.0.0.1:9', '--api-key', 'k']))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-E", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert "cannot reach http://127.0.0.1:9" in done.stderr


def test_every_weir_command_of_the_workflow_parses_and_has_its_server_and_key() -> None:
    weir_steps = [s for s in steps() if re.search(r"^\s*weir ", s.get("run", ""), re.M)]
    assert weir_steps
    for step in weir_steps:
        env = step["env"]
        assert env["WEIR_URL"] == "${{ vars.WEIR_URL }}"
        assert env["WEIR_API_KEY"] == "${{ secrets.WEIR_API_KEY }}", "a key is a secret"
    commands = [c for c in command_lines() if c[0] == "weir"]
    assert any(c[1] == "deploy" for c in commands)
    for command in commands:
        try:
            build_parser().parse_args(command[1:])
        except SystemExit:
            pytest.fail(f"weir does not take: {shlex.join(command)}")


def test_the_api_reference_shows_this_workflow() -> None:
    api = (REPO / "docs" / "api.md").read_text()
    assert "```yaml\n" + WORKFLOW.read_text() + "```" in api
