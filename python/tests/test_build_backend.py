"""The package's build backend (python/build_backend): its TOML reader against
Python's own, and the wheel, editable wheel and sdist it writes against
pyproject.toml and the files they must hold. The libraries come from the
installed package (OCC_PYTHON_LIBS), so nothing is compiled here;
tests/install/test_python.sh builds them through pip with each python3."""

from __future__ import annotations

import base64
import hashlib
import os
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import occ
from conftest import ROOT

PACKAGE = ROOT / "python"
sys.path.insert(0, str(PACKAGE / "build_backend"))
import occ_build  # noqa: E402
import occ_pyproject  # noqa: E402

LIBRARIES = ("libocc.so.0", "libocc-inspect.so.0", "libocc-profile.so.0")


@pytest.fixture
def prebuilt(monkeypatch):
    """The installed package's libraries and _abi.py stand in for a build."""
    monkeypatch.setenv("OCC_PYTHON_LIBS", os.path.dirname(occ.__file__))


def test_toml_reader_equals_tomllib():
    tomllib = pytest.importorskip("tomllib", reason="the oracle is Python 3.11's TOML reader")
    text = (PACKAGE / "pyproject.toml").read_text()
    assert occ_pyproject.loads(text) == tomllib.loads(text)


TOML_CASES = [
    # id, document, what tomllib reads (None: refused, with this text)
    ("toml-1", 'a = "x\\ty\\u00e9"  # comment\n', {"a": "x\ty\u00e9"}),
    ("toml-2", "[t.u]\nk = 'lit\\'\n", {"t": {"u": {"k": "lit\\"}}}),
    ("toml-3", "a = [\n  1,\n  # c\n  true, \"s\",\n]\n", {"a": [1, True, "s"]}),
    ("toml-4", 'a = { b = "c", d = [1_000] }\n', {"a": {"b": "c", "d": [1000]}}),
    ("toml-5", "a.b = 1\n[x]\n", {"a": {"b": 1}, "x": {}}),
    ("toml-6", "[[a]]\n", "toml-6:1: arrays of tables"),
    ("toml-7", 'a = """x"""\n', "toml-7:1: multi-line strings"),
    ("toml-8", "\na = 1.5\n", "toml-8:2: a value of a kind"),
    ("toml-9", "a = 1\na = 2\n", "toml-9:2: 'a' is given twice"),
    ("toml-10", 'a = "x" b\n', "toml-10:1: unexpected 'b'"),
    ("toml-11", 'a = "x\n', "toml-11:1: a string is not closed"),
]


@pytest.mark.parametrize("case_id,document,want", TOML_CASES, ids=[c[0] for c in TOML_CASES])
def test_toml_subset(case_id, document, want):
    if isinstance(want, dict):
        assert occ_pyproject.loads(document, case_id) == want
        try:
            import tomllib
        except ImportError:
            return
        assert tomllib.loads(document) == want
    else:
        with pytest.raises(occ_pyproject.TomlError, match="^" + want):
            occ_pyproject.loads(document, case_id)


def _metadata_fields(text: str) -> dict[str, list[str]]:
    head = text.split("\n\n", 1)[0]
    fields: dict[str, list[str]] = {}
    for line in head.splitlines():
        key, _, value = line.partition(": ")
        fields.setdefault(key, []).append(value)
    return fields


def _check_record(z: zipfile.ZipFile) -> None:
    record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
    rows = [line.split(",") for line in z.read(record).decode().splitlines()]
    assert sorted(r[0] for r in rows) == sorted(z.namelist())
    for name, digest, size in rows:
        if name != record:
            data = z.read(name)
            b64 = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={b64}", len(data)), name


def test_wheel(tmp_path, prebuilt):
    name = occ_build.build_wheel(str(tmp_path))
    version = occ_build._version(ROOT)
    assert name.startswith(f"occ-{version}-py3-none-linux_")
    z = zipfile.ZipFile(tmp_path / name)
    _check_record(z)
    modules = sorted(p.name for p in (PACKAGE / "src" / "occ").glob("*.py"))
    names = z.namelist()
    assert sorted(n[4:] for n in names if n.startswith("occ/") and n.endswith(".py")) == \
        sorted(modules + ["_abi.py"])
    for lib in LIBRARIES:
        assert (z.getinfo(f"occ/{lib}").external_attr >> 16) & 0o777 == 0o755
        assert z.read(f"occ/{lib}") == (Path(occ.__file__).parent / lib).read_bytes()
    # METADATA says what [project] says, and prepare_metadata gives the same
    project = occ_pyproject.load(PACKAGE / "pyproject.toml")["project"]
    metadata = z.read(f"occ-{version}.dist-info/METADATA").decode()
    fields = _metadata_fields(metadata)
    assert fields["Name"] == [project["name"]] and fields["Version"] == [version]
    assert fields["Requires-Python"] == [project["requires-python"]]
    assert fields["Classifier"] == project["classifiers"]
    assert fields["Provides-Extra"] == list(project["optional-dependencies"])
    assert metadata.endswith((PACKAGE / project["readme"]).read_text())
    wheel_info = z.read(f"occ-{version}.dist-info/WHEEL").decode()
    assert f"Tag: {name[len(f'occ-{version}-'):-len('.whl')]}\n" in wheel_info
    meta_dir = tmp_path / "meta"
    dist_info = occ_build.prepare_metadata_for_build_wheel(str(meta_dir))
    assert (meta_dir / dist_info / "METADATA").read_text() == metadata


def test_editable_wheel(tmp_path, prebuilt):
    z = zipfile.ZipFile(tmp_path / occ_build.build_editable(str(tmp_path)))
    _check_record(z)
    pth = z.read("_occ_editable.pth").decode().splitlines()
    assert pth == [str((PACKAGE / "src").resolve()), "import _occ_editable_env"]
    assert not any(n.startswith("occ/") for n in z.namelist())
    assert {f"_occ_editable/{lib}" for lib in LIBRARIES} <= set(z.namelist())


def test_sdist(tmp_path):
    name = occ_build.build_sdist(str(tmp_path))
    top = name[:-len(".tar.gz")]
    with tarfile.open(tmp_path / name) as tar:
        names = set(tar.getnames())
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    for want in ("pyproject.toml", "README.md", "CMakeLists.txt", "build_backend/occ_build.py",
                 "src/occ/__init__.py", "occ-source/include/occ.h", "occ-source/CMakeLists.txt",
                 "occ-source/src", "occ-source/inspect", "occ-source/profile"):
        assert f"{top}/{want}" in names or any(n.startswith(f"{top}/{want}/") for n in names), want
    # the package once, at the top; no build output
    assert not any(n.startswith(f"{top}/occ-source/python/") for n in names)
    assert not any("/build/" in n or n.endswith((".so.0", ".egg-info")) for n in names)
    assert _metadata_fields(pkg_info)["Name"] == ["occ"]


def test_hooks_require_nothing():
    assert occ_build.get_requires_for_build_wheel() == []
    assert occ_build.get_requires_for_build_sdist() == []
    assert occ_build.get_requires_for_build_editable() == []
