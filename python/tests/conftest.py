"""What the tests share: the occ command they hold the package to, and the
repository's files.

The oracle is the CLI built from the same tree (OCC_BINARY, by default
build/occ): the package must give the same answers as ``occ ... --json``
and ``occ calc --batch``. A missing CLI fails the tests by name rather than
skipping them (CONTRIBUTING.md: skips only for a missing GPU, nvcc or CUDA
header).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(os.environ.get("OCC_SOURCE_DIR") or Path(__file__).resolve().parents[2])


def occ_binary() -> Path:
    path = Path(os.environ.get("OCC_BINARY") or ROOT / "build" / "occ")
    if not os.access(path, os.X_OK):
        pytest.fail(f"the occ command is not at {path}: build it (make) or set OCC_BINARY",
                    pytrace=False)
    return path


def run_cli(args: list[str], stdin: str | None = None, check: bool = True):
    proc = subprocess.run([str(occ_binary()), *args], input=stdin, capture_output=True,
                          text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"occ {' '.join(args)}: exit {proc.returncode}: {proc.stderr}")
    return proc


def cli_json(args: list[str]) -> dict:
    return json.loads(run_cli([*args, "--json"]).stdout)


def cli_csv(args: list[str], stdin: str | None = None, check: bool = True) -> list[dict]:
    return list(csv.DictReader(io.StringIO(run_cli(args, stdin, check).stdout)))


@pytest.fixture(scope="session")
def cli_gpus() -> list[dict]:
    """The database as ``occ gpus --json`` lists it."""
    return cli_json(["gpus"])["gpus"]


def inspect_fixtures() -> Path | None:
    """The build's nvcc-compiled inputs of occ inspect (tests/inspect/), if
    this build has them (nvcc present)."""
    explicit = os.environ.get("OCC_INSPECT_FIXTURES")
    path = Path(explicit) if explicit else occ_binary().parent / "inspect-fixtures"
    return path if (path / "stamp").exists() else None
