"""occ's PEP 517 build backend: `pip install ./python` with any Python 3 and
nothing but the standard library.

pyproject.toml names this module (backend-path), so the build needs no
package from PyPI or Debian: no setuptools, no wheel. It builds the C
libraries the package binds with the project's CMake, in a temporary folder
of its own (two installs at once never share a build tree, and the source
tree is left as it was):

  1. the top-level CMakeLists.txt, its targets occ_shared (libocc.so.0),
     occ_inspect_shared (libocc-inspect.so.0) and occ_profile_shared
     (libocc-profile.so.0), without tests, benchmarks or the CUDA lab, built
     with the install rpath ($ORIGIN) so that the libraries find each other
     in the package and no path of the build stays in them;
  2. python/CMakeLists.txt, which measures the headers' structs into _abi.py;

then writes the wheel itself (occ_archive.py): the modules of src/occ, the
libraries and _abi.py beside them, METADATA from pyproject.toml's [project]
(occ_pyproject.py), the version from include/occ.h. The wheel is tagged
py3-none-PLATFORM: the modules are pure Python and load the libraries with
ctypes, so one build serves every Python.

OCC_PYTHON_LIBS=DIR takes libocc.so.0, libocc-inspect.so.0,
libocc-profile.so.0 and _abi.py from DIR instead of building them.

The hooks: build_wheel, build_sdist, build_editable, their
get_requires_for_* (none) and prepare_metadata_for_build_*.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

import occ_archive
import occ_pyproject

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # python/, or an sdist's top folder
LIBRARIES = ("libocc.so.0", "libocc-inspect.so.0", "libocc-profile.so.0")
LAYOUTS = "_abi.py"  # the struct sizes the compiler gave the headers
# In an sdist the repository's sources sit in this folder beside the package.
SDIST_SOURCES = "occ-source"
CMAKE_PACKAGES = ("Debian: apt-get install cmake gcc pkg-config libjansson-dev liblz4-dev "
                  "libzstd-dev libiberty-dev libsqlite3-dev libyajl-dev zlib1g-dev "
                  "(scripts/deps.sh build)")


def _source_root() -> Path:
    """The repository whose C sources the package builds: the checkout
    around python/, or the sources an sdist carries."""
    for root in (PACKAGE_DIR / SDIST_SOURCES, PACKAGE_DIR.parent):
        if (root / "include" / "occ.h").is_file() and (root / "CMakeLists.txt").is_file():
            return root
    raise SystemExit(f"occ: no include/occ.h in {PACKAGE_DIR.parent}: the package builds from "
                     "an occ checkout (pip install ./python in the repository) or its sdist")


def _version(root: Path) -> str:
    """OCC_VERSION_STRING: the C library's version is the package's."""
    header = root / "include" / "occ.h"
    m = re.search(r'#define OCC_VERSION_STRING "([0-9.]+)"', header.read_text())
    if m is None:
        raise SystemExit(f"occ: no OCC_VERSION_STRING in {header}")
    return m.group(1)


class _Distribution:
    """Name, version, tag and metadata, read once per hook."""

    def __init__(self) -> None:
        pyproject = occ_pyproject.load(PACKAGE_DIR / "pyproject.toml")
        self.project = pyproject["project"]
        dynamic = self.project.get("dynamic", [])
        self.version = (_version(_source_root()) if "version" in dynamic
                        else self.project["version"])
        self.name = occ_pyproject.normalized_name(self.project["name"])
        self.dist_info = f"{self.name}-{self.version}.dist-info"
        platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
        self.tag = f"py3-none-{platform}"
        self.metadata = occ_pyproject.core_metadata(self.project, self.version, PACKAGE_DIR)

    def wheel_name(self) -> str:
        return f"{self.name}-{self.version}-{self.tag}.whl"

    def dist_info_files(self) -> dict[str, str]:
        return {
            "METADATA": self.metadata,
            "WHEEL": ("Wheel-Version: 1.0\nGenerator: occ python/build_backend\n"
                      f"Root-Is-Purelib: false\nTag: {self.tag}\n"),
            "top_level.txt": "occ\n",
        }


def _run(command: list[str]) -> None:
    print("occ build:", " ".join(command), flush=True)
    # its own process group, so that an interrupted build is stopped whole
    # (cmake --build, make and the compilers) before its folder is removed
    proc = subprocess.Popen(command, start_new_session=True)
    try:
        code = proc.wait()
    except BaseException:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        raise
    if code != 0:
        raise SystemExit(f"occ: {' '.join(command)}: exit status {code}")


def _exit_on_sigterm(signum, frame):
    # SystemExit unwinds the `with` that removes the temporary build folder,
    # which a plain SIGTERM would leave behind in /tmp
    raise SystemExit(128 + signum)


def _build_libraries(work: Path) -> Path:
    """The folder that holds the three libraries and _abi.py, built under work."""
    prebuilt = os.environ.get("OCC_PYTHON_LIBS")
    if prebuilt:
        lib_dir = Path(prebuilt)
    else:
        cmake = shutil.which("cmake")
        if cmake is None:
            raise SystemExit("occ: cmake (3.20 or newer) is needed to build libocc; "
                             + CMAKE_PACKAGES)
        root = _source_root()
        lib_dir = work / "lib"
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        _run([cmake, "-S", str(root), "-B", str(work / "occ"), "-DCMAKE_BUILD_TYPE=Release",
              "-DOCC_TESTS=OFF", "-DOCC_BENCH=OFF", "-DOCC_LAB=OFF",
              "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON", "-DCMAKE_INSTALL_RPATH=$ORIGIN",
              f"-DCMAKE_LIBRARY_OUTPUT_DIRECTORY={lib_dir}"])
        _run([cmake, "--build", str(work / "occ"), "-j", jobs, "--target", "occ_shared",
              "occ_inspect_shared", "occ_profile_shared"])
        _run([cmake, "-S", str(PACKAGE_DIR), "-B", str(work / "abi"), f"-DOCC_ROOT={root}",
              f"-DOCC_PYTHON_LIB_DIR={lib_dir}"])
    for name in LIBRARIES + (LAYOUTS,):
        if not (lib_dir / name).is_file():
            raise SystemExit(f"occ: {lib_dir / name} was not built")
    return lib_dir


def _package_modules() -> list[Path]:
    """The package's own files: src/occ's modules and py.typed."""
    source = PACKAGE_DIR / "src" / "occ"
    return sorted(p for p in source.iterdir()
                  if p.is_file() and (p.suffix == ".py" or p.name == "py.typed")
                  and p.name != LAYOUTS)


def _write_wheel(wheel_directory: str, editable: bool) -> str:
    dist = _Distribution()
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if on_main_thread else None
    try:
        return _write_wheel_in(wheel_directory, editable, dist)
    finally:
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _write_wheel_in(wheel_directory: str, editable: bool, dist: _Distribution) -> str:
    with tempfile.TemporaryDirectory(prefix="occ-python-build-") as work:
        lib_dir = _build_libraries(Path(work))
        path = Path(wheel_directory) / dist.wheel_name()
        wheel = occ_archive.Wheel(path, dist.dist_info)
        if editable:
            # The modules stay in src/ (a path in the .pth); the libraries, built
            # now, go to site-packages/_occ_editable/, which OCC_LIBRARY_DIR
            # names (occ/_native.py loads from there; a value the user set wins).
            source = (PACKAGE_DIR / "src").resolve()
            wheel.add("_occ_editable.pth",
                      f"{source}\nimport _occ_editable_env\n".encode())
            wheel.add("_occ_editable_env.py", (
                '"""occ installed with pip install -e: its C libraries are here."""\n'
                "import os\n\n"
                "os.environ.setdefault('OCC_LIBRARY_DIR', os.path.join(\n"
                "    os.path.dirname(os.path.abspath(__file__)), '_occ_editable'))\n").encode())
            target = "_occ_editable"
        else:
            for module in _package_modules():
                wheel.add_file(f"occ/{module.name}", module)
            target = "occ"
        for name in LIBRARIES:
            # the file the soname link points to, under the soname
            wheel.add(f"{target}/{name}", (lib_dir / name).resolve().read_bytes(),
                      executable=True)
        wheel.add_file(f"{target}/{LAYOUTS}", lib_dir / LAYOUTS)
        for name, text in dist.dist_info_files().items():
            wheel.add(f"{dist.dist_info}/{name}", text.encode())
        wheel.close()
    return path.name


def _listed_files(root: Path) -> list[str]:
    """The repository's files as git sees them (tracked, and untracked that
    it does not ignore), else every file but builds, caches and VCS data."""
    if (root / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True)
        if out.returncode == 0:
            return sorted({f for f in out.stdout.decode().split("\0")
                           if f and (root / f).is_file()})
    skipped = re.compile(r"(^|/)(\.git|__pycache__|\.pytest_cache|node_modules|build|build-[^/]*"
                         r"|[^/]*\.egg-info|venv|\.venv)(/|$)")
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames
                       if not skipped.search(d if rel == "." else f"{rel}/{d}")]
        files += [os.path.normpath(os.path.join(rel, f)) for f in filenames]
    return sorted(files)


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The .dist-info without building the libraries: pip reads the name,
    version and Requires-Python from it first (Python 3.9 is refused here,
    before any compiler runs)."""
    dist = _Distribution()
    folder = Path(metadata_directory) / dist.dist_info
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in dist.dist_info_files().items():
        (folder / name).write_text(text, encoding="utf-8")
    return dist.dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """pip install -e ./python: src/ on the path, the libraries built now.
    A change to the C sources needs the install again."""
    return _write_wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    """NAME-VERSION.tar.gz: the package (python/) at the top, as pyproject.toml
    must be, and the repository's other sources in occ-source/, which the
    wheel is then built from."""
    dist = _Distribution()
    root = _source_root()
    top = f"{dist.name}-{dist.version}"
    path = Path(sdist_directory) / f"{top}.tar.gz"
    sdist = occ_archive.Sdist(path, top)
    sdist.add("PKG-INFO", dist.metadata.encode())
    if root == PACKAGE_DIR / SDIST_SOURCES:  # an sdist's own tree, packed again
        for name in _listed_files(PACKAGE_DIR):
            if name != "PKG-INFO":
                sdist.add_file(name, PACKAGE_DIR / name)
    else:
        package = PACKAGE_DIR.relative_to(root).as_posix() + "/"
        for name in _listed_files(root):
            here = name[len(package):] if name.startswith(package) else f"{SDIST_SOURCES}/{name}"
            sdist.add_file(here, root / name)
    sdist.close()
    return path.name


if __name__ == "__main__":
    # python3 python/build_backend/occ_build.py wheel|sdist|editable DIR: the
    # hooks without pip (the tests' way in).
    hooks = {"wheel": build_wheel, "sdist": build_sdist, "editable": build_editable}
    if len(sys.argv) != 3 or sys.argv[1] not in hooks:
        sys.exit("usage: occ_build.py wheel|sdist|editable DIR")
    print(hooks[sys.argv[1]](sys.argv[2]))
