"""The package and its examples pass ``mypy --strict`` (the settings are pyproject.toml's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]


def test_mypy_strict_passes_on_the_package_and_its_examples() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir=/dev/null", "src/dataplatform", "examples"],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_is_python_3_9_syntax() -> None:
    # The tests run on the machine's Python; this keeps newer syntax (match, `except*`, …) out of the package.
    import ast

    for file in sorted((PACKAGE / "src" / "dataplatform").rglob("*.py")):
        ast.parse(file.read_text("utf-8"), filename=str(file), feature_version=(3, 9))
