"""Builds the C libraries the package binds, with the project's CMake.

setuptools runs this during `pip install ./python`: it configures the
project's top-level CMakeLists.txt and builds three of its targets,
occ_shared (libocc.so.0, from src/), occ_inspect_shared
(libocc-inspect.so.0, from inspect/) and occ_profile_shared
(libocc-profile.so.0, from profile/), then python/CMakeLists.txt, which
measures the headers' structs for the binding's check (occ/_abi.py). The
libraries and _abi.py go inside the package, beside the modules that load
them with ctypes.

OCC_PYTHON_LIBS=DIR takes libocc.so.0, libocc-inspect.so.0,
libocc-profile.so.0 and _abi.py from DIR instead of building them (a build
folder that already holds them).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HEADER = ROOT / "include" / "occ.h"
LIBRARIES = ("libocc.so.0", "libocc-inspect.so.0", "libocc-profile.so.0")
# the struct sizes the compiler gave the headers, which the package checks
LAYOUTS = "_abi.py"


def occ_version() -> str:
    """The C library's version, OCC_VERSION_STRING: one version for both."""
    if not HEADER.is_file():
        raise SystemExit(
            f"occ: {HEADER} not found: the package builds from an occ checkout "
            "(pip install ./python in the repository)"
        )
    m = re.search(r'#define OCC_VERSION_STRING "([0-9.]+)"', HEADER.read_text())
    if m is None:
        raise SystemExit(f"occ: no OCC_VERSION_STRING in {HEADER}")
    return m.group(1)


class build_with_cmake(build_py):
    """build_py, then the libraries into the package's build folder."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "occ"
        target.mkdir(parents=True, exist_ok=True)
        prebuilt = os.environ.get("OCC_PYTHON_LIBS")
        source = Path(prebuilt) if prebuilt else self._cmake()
        if not (source / LIBRARIES[0]).exists():
            raise SystemExit(f"occ: {source / LIBRARIES[0]} was not built")
        for name in LIBRARIES:
            if (source / name).exists():
                # the file the soname link points to, under the soname
                shutil.copyfile((source / name).resolve(), target / name)
                os.chmod(target / name, 0o755)
        if (source / LAYOUTS).exists():
            shutil.copyfile(source / LAYOUTS, target / LAYOUTS)

    def _cmake(self) -> Path:
        cmake = shutil.which("cmake")
        if cmake is None:
            raise SystemExit("occ: cmake (3.20 or newer) is needed to build libocc; "
                             "Debian: apt-get install cmake gcc pkg-config libjansson-dev "
                             "liblz4-dev libzstd-dev libiberty-dev libsqlite3-dev libyajl-dev "
                             "zlib1g-dev (scripts/deps.sh build)")
        temp = (Path(self.get_finalized_command("build").build_temp) / "occ-cmake").resolve()
        lib_dir = temp / "lib"
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        # The libraries only: no tests, benchmarks or CUDA lab. Built with the
        # install rpath ($ORIGIN): libocc-inspect.so.0 and libocc-profile.so.0
        # find libocc.so.0 beside them, and no path of this build folder stays
        # in the files.
        subprocess.run([cmake, "-S", str(ROOT), "-B", str(temp / "occ"),
                        "-DCMAKE_BUILD_TYPE=Release", "-DOCC_TESTS=OFF", "-DOCC_BENCH=OFF",
                        "-DOCC_LAB=OFF", "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON",
                        "-DCMAKE_INSTALL_RPATH=$ORIGIN",
                        f"-DCMAKE_LIBRARY_OUTPUT_DIRECTORY={lib_dir}"], check=True)
        subprocess.run([cmake, "--build", str(temp / "occ"), "--target", "occ_shared",
                        "occ_inspect_shared", "occ_profile_shared", "-j", jobs], check=True)
        subprocess.run([cmake, "-S", str(HERE), "-B", str(temp / "abi"),
                        f"-DOCC_PYTHON_LIB_DIR={lib_dir}"], check=True)
        return lib_dir


cmdclass = {"build_py": build_with_cmake}

try:
    from wheel.bdist_wheel import bdist_wheel

    class bdist_wheel_ctypes(bdist_wheel):
        """A platform wheel (it holds shared libraries) for any Python 3: the
        modules are pure Python and load the libraries with ctypes."""

        def finalize_options(self) -> None:
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    cmdclass["bdist_wheel"] = bdist_wheel_ctypes
except ImportError:  # no wheel package: pip falls back to setup.py install
    pass

setup(version=occ_version(), cmdclass=cmdclass)
