"""Builds the wheel with the shared library inside: `pip install ./python` (from a checkout)
runs `cargo build --release --lib` on ../Cargo.toml (into $CARGO_TARGET_DIR, else ../target)
and bundles a stripped copy of the library as chesscore/libchesscore.so. With
CHESSCORE_LIBRARY set at build time, that file is bundled instead and cargo is not run. The
wheel is tagged py3-none-<platform>: ctypes needs no particular Python ABI."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
LIB = {"win32": "chesscore.dll", "darwin": "libchesscore.dylib"}.get(sys.platform, "libchesscore.so")


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
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):  # type: ignore[no-untyped-def]
        return ("py3", "none", super().get_tag()[2])


setup(cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel}, distclass=BinaryDistribution)
