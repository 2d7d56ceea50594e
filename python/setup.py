"""Builds the wheel: `pip install ./python` (from a checkout) builds
* the compiled module chesscore._fast (rust/, PyO3 over the chesscore crate, the stable ABI of
  Python 3.8 and later) with setuptools-rust, which pip's isolated build installs from PyPI;
* the C library: `cargo build --release --lib` on ../Cargo.toml (into $CARGO_TARGET_DIR, else
  ../target), bundled stripped as chesscore/libchesscore.so for the parts on ctypes. With
  CHESSCORE_LIBRARY set at build time, that file is bundled instead and cargo is not run for it.
The wheel is tagged cp38-abi3-<platform>: one wheel for every CPython from 3.8 on."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution
from setuptools_rust import Binding, RustExtension

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
LIB = {"win32": "chesscore.dll", "darwin": "libchesscore.dylib"}.get(sys.platform, "libchesscore.so")


def package_version() -> str:
    """The version is Cargo.toml's (docs/release.md): ../Cargo.toml's [package] version from a
    checkout, PKG-INFO's from an sdist (which setuptools writes from this function)."""
    manifest = HERE.parent / "Cargo.toml"
    if manifest.is_file():
        found = re.search(r'^version = "([0-9]+\.[0-9]+\.[0-9]+)"', manifest.read_text(), re.M)
        if found:
            return found.group(1)
    pkg_info = HERE / "PKG-INFO"
    if pkg_info.is_file():
        found = re.search(r"^Version: (\S+)$", pkg_info.read_text(), re.M)
        if found:
            return found.group(1)
    sys.exit("chesscore: no version: build from a checkout (../Cargo.toml) or an sdist (PKG-INFO)")


def library() -> Path:
    given = os.environ.get("CHESSCORE_LIBRARY")
    if given:
        return Path(given)
    manifest = HERE.parent / "Cargo.toml"
    if not manifest.is_file():
        sys.exit("chesscore: build from a checkout (../Cargo.toml), or set CHESSCORE_LIBRARY")
    target = Path(os.environ.get("CARGO_TARGET_DIR") or HERE.parent / "target")
    if not target.is_absolute():
        target = HERE.parent / target
    cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    subprocess.check_call([cargo, "build", "--release", "--lib", "--manifest-path", str(manifest),
                           "--target-dir", str(target)])
    return target / "release" / LIB


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        dest = Path(self.build_lib) / "chesscore" / LIB
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library(), dest)
        strip = shutil.which("strip")
        if strip and sys.platform.startswith("linux"):
            subprocess.check_call([strip, str(dest)])


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # a platform wheel, installed in platlib
        return True


class BdistWheel(bdist_wheel):
    def finalize_options(self) -> None:
        self.py_limited_api = "cp38"  # abi3: the extension uses the stable ABI only
        super().finalize_options()
        self.root_is_pure = False


setup(
    version=package_version(),
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel},
    distclass=BinaryDistribution,
    rust_extensions=[
        RustExtension("chesscore._fast", path="rust/Cargo.toml", binding=Binding.PyO3,
                      py_limited_api=True, debug=False)
    ],
)
