"""The library names the loader tries on each platform (python/chesscore/_ffi.py). Only Linux
loads a library in this suite: Windows (chesscore.dll) and macOS (libchesscore.dylib) are
checked by name, with sys.platform patched; scripts/cross-windows tests the DLL itself from C
under wine."""

import ctypes.util

import pytest

from chesscore import _ffi


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package directory holding every platform's library file (empty files), as the one
    the loader looks in."""
    for name in ("chesscore.dll", "libchesscore.dylib", "libchesscore.so"):
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setattr(_ffi, "__file__", str(tmp_path / "_ffi.py"))
    monkeypatch.delenv("CHESSCORE_LIBRARY", raising=False)
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    return tmp_path


@pytest.mark.parametrize("platform, expected", [
    ("win32", ["chesscore.dll"]),
    ("darwin", ["libchesscore.dylib"]),
    ("linux", ["libchesscore.so", f"libchesscore.so.{_ffi.ABI_MAJOR}"]),
])
def test_bundled_library_name(package, monkeypatch, platform, expected):
    monkeypatch.setattr(_ffi.sys, "platform", platform)
    bundled = [str(package / name) for name in expected if (package / name).is_file()]
    others = [name for name in expected if not (package / name).is_file()]
    assert _ffi._candidates() == bundled + others


def test_windows_without_bundled_dll_uses_find_library(package, monkeypatch):
    # On Windows ctypes.util.find_library searches PATH for chesscore.dll.
    (package / "chesscore.dll").unlink()
    monkeypatch.setattr(_ffi.sys, "platform", "win32")
    found = r"C:\chesscore\bin\chesscore.dll"
    monkeypatch.setattr(ctypes.util, "find_library",
                        lambda name: found if name == "chesscore" else None)
    assert _ffi._candidates() == [found]


def test_environment_variable_wins(package, monkeypatch):
    monkeypatch.setattr(_ffi.sys, "platform", "win32")
    monkeypatch.setenv("CHESSCORE_LIBRARY", r"D:\x\chesscore.dll")
    assert _ffi._candidates() == [r"D:\x\chesscore.dll"]
