"""The ctypes declarations equal the headers as a C compiler lays them out:
every field's offset, every struct's size, every constant the package
copies; and the libraries export the public API only."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess

import pytest

import occ
from occ import _native as n
from conftest import ROOT

# ctypes struct -> the C type it declares (nested ones included)
TYPES = dict(n.STRUCTS)
TYPES.update({"occ_explain_step": n.ExplainStep, "occ_explain_option": n.ExplainOption,
              "occ_explain_change": n.ExplainChange})

# Python constant -> the C expression it copies
CONSTANTS = {
    "UNLIMITED": "OCC_UNLIMITED",
    "CARVEOUT_DEFAULT": "OCC_CARVEOUT_DEFAULT",
    "OPTIN_MAX": "OCC_DYN_SMEM_OPTIN_MAX",
    "NO_OPTIN": "OCC_DYN_SMEM_NO_OPTIN",
    "INSPECT_UNKNOWN": "OCC_INSPECT_UNKNOWN",
    "INSPECT_LAUNCH_OVER_BOUNDS": "OCC_INSPECT_LAUNCH_OVER_BOUNDS",
    "INSPECT_LAUNCH_NOT_REQNTID": "OCC_INSPECT_LAUNCH_NOT_REQNTID",
    "INSPECT_LAUNCH_CLUSTER": "OCC_INSPECT_LAUNCH_CLUSTER",
    "INSPECT_LAUNCH_FROM_PROFILE": "OCC_INSPECT_LAUNCH_PROFILE",
    "ERR_NULL_POINTER": "OCC_ERR_NULL_POINTER",
    "ERROR_MESSAGE_BYTES": "OCC_ERROR_MESSAGE_BYTES",
    "MAX_CARVEOUT_STEPS": "OCC_MAX_CARVEOUT_STEPS",
    "DEVICE_NAME_BYTES": "OCC_DEVICE_NAME_BYTES",
    "MAX_GPCS": "OCC_MAX_GPCS",
    "EXPLAIN_TEXT_BYTES": "OCC_EXPLAIN_TEXT_BYTES",
    "EXPLAIN_TEXT_MAX": "OCC_EXPLAIN_TEXT_MAX",
    "INSPECT_ERROR_MESSAGE_BYTES": "OCC_INSPECT_ERROR_MESSAGE_BYTES",
    "PROFILE_UNKNOWN": "OCC_PROFILE_UNKNOWN",
    "PROFILE_ERROR_MESSAGE_BYTES": "OCC_PROFILE_ERROR_MESSAGE_BYTES",
    "PROFILE_HISTOGRAM_BINS": "OCC_PROFILE_HISTOGRAM_BINS",
    "PROFILE_KINETO_CAUSES": "sizeof(((occ_profile_summary *)0)->kineto_by_cause) / "
                             "sizeof(long long)",
}
HEADERS = ("occ.h", "occ_inspect.h", "occ_diff.h", "occ_regs.h", "occ_profile.h")


def c_program() -> str:
    lines = ["#include <stddef.h>", "#include <stdio.h>",
             *(f'#include "{h}"' for h in HEADERS), "int main(void)", "{"]
    for c_name, cls in TYPES.items():
        lines.append(f'    printf("{c_name} %zu\\n", sizeof({c_name}));')
        for field, _ in cls._fields_:
            lines.append(f'    printf("{c_name}.{field} %zu\\n", offsetof({c_name}, {field}));')
    for py_name, c_expr in CONSTANTS.items():
        lines.append(f'    printf("{py_name} %lld\\n", (long long)({c_expr}));')
    for name, _ in n.LIMITER_BITS:
        c = {"shared_mem": "SHARED_MEM"}.get(name, name.upper())
        lines.append(f'    printf("limiter.{name} %d\\n", (int)OCC_LIMITER_{c});')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory) -> dict[str, int]:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler (cc) to check the struct layouts with", pytrace=False)
    d = tmp_path_factory.mktemp("abi")
    (d / "abi.c").write_text(c_program())
    subprocess.run([cc, "-std=c11", f"-I{ROOT / 'include'}", str(d / "abi.c"), "-o",
                    str(d / "abi")], check=True)
    out = subprocess.run([str(d / "abi")], check=True, capture_output=True, text=True).stdout
    return {key: int(value) for key, value in (line.split() for line in out.splitlines())}


def test_struct_layouts_equal_the_headers(c_layout):
    for c_name, cls in TYPES.items():
        assert ctypes.sizeof(cls) == c_layout[c_name], c_name
        for field, _ in cls._fields_:
            assert getattr(cls, field).offset == c_layout[f"{c_name}.{field}"], (c_name, field)


def test_every_field_of_the_headers_is_declared():
    """A field added to a header shows here even where it does not change
    the size (padding): each struct lists every field of its C body."""
    text = "".join((ROOT / "include" / h).read_text() for h in HEADERS)
    for c_name, cls in TYPES.items():
        m = re.search(r"typedef struct " + c_name + r" \{(.*?)\n\} " + c_name + ";", text, re.S)
        assert m, c_name
        body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
        declared = []
        for decl in body.split(";"):
            decl = decl.strip()
            if not decl:
                continue
            for part in decl.split(","):
                # the declarator's name: the last identifier, arrays aside
                declared.append(re.findall(r"\w+", re.sub(r"\[.*?\]", "", part))[-1])
        assert declared == [f for f, _ in cls._fields_], c_name


def test_constants_equal_the_headers(c_layout):
    for py_name in CONSTANTS:
        assert getattr(n, py_name) == c_layout[py_name], py_name
    for name, bit in n.LIMITER_BITS:
        assert bit == c_layout[f"limiter.{name}"], name
    assert occ.UNLIMITED == n.UNLIMITED and occ.CARVEOUT_DEFAULT == n.CARVEOUT_DEFAULT


def test_version_is_the_headers():
    m = re.search(r'#define OCC_VERSION_STRING "(.*)"', (ROOT / "include" / "occ.h").read_text())
    assert occ.__version__ == m.group(1)


def exported(path: str) -> list[str]:
    nm = shutil.which("nm")
    if nm is None:
        pytest.fail("no nm (binutils) to list the exported symbols", pytrace=False)
    out = subprocess.run([nm, "-D", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


def test_libraries_export_the_public_api_only():
    libocc = exported(os.path.join(n.LIBRARY_DIR, "libocc.so.0"))
    assert libocc and all(re.fullmatch(r"occ_[a-z][a-z0-9_]*", s) for s in libocc), libocc
    # everything the header declares is there
    header = (ROOT / "include" / "occ.h").read_text()
    declared = set(re.findall(r"^[a-z][a-z_ *]*?\b(occ_[a-z0-9_]+)\(", header, re.M))
    assert declared <= set(libocc), declared - set(libocc)
    inspect = exported(os.path.join(n.LIBRARY_DIR, "libocc-inspect.so.0"))
    assert inspect and all(re.fullmatch(r"occ_(inspect|diff|regs)_[a-z0-9_]+", s)
                           for s in inspect), inspect
    header = "".join((ROOT / "include" / h).read_text()
                     for h in ("occ_inspect.h", "occ_diff.h", "occ_regs.h"))
    declared = set(re.findall(r"^[a-z][a-z_ *]*?\b(occ_(?:inspect|diff|regs)_[a-z0-9_]+)\(",
                              header, re.M))
    assert {"occ_inspect_gpu_file", "occ_inspect_gpu_from_json"} <= declared
    assert declared <= set(inspect), declared - set(inspect)
    profile = exported(os.path.join(n.LIBRARY_DIR, "libocc-profile.so.0"))
    assert profile and all(re.fullmatch(r"occ_profile_[a-z0-9_]+", s) for s in profile), profile
    header = (ROOT / "include" / "occ_profile.h").read_text()
    declared = set(re.findall(r"^[a-z][a-z_ *]*?\b(occ_profile_[a-z0-9_]+)\(", header, re.M))
    assert declared and declared <= set(profile), declared - set(profile)
