"""Shared fixtures. The library is whatever chesscore loads: CHESSCORE_LIBRARY (scripts/python-tests
sets it to the cargo build), the copy bundled by pip, or the system's."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def suite_fens():
    fens = []
    for name in ("standard.epd", "edge.epd"):
        path = ROOT / "testdata" / name
        if path.is_file():
            for line in path.read_text().splitlines():
                if line.strip():
                    fens.append(line.split(";")[0].strip())
    return fens


def suite_counts():
    out = []
    for name in ("standard.epd", "edge.epd"):
        path = ROOT / "testdata" / name
        if path.is_file():
            for line in path.read_text().splitlines():
                parts = [p.strip() for p in line.split(";")]
                counts = {int(p.split()[0][1:]): int(p.split()[1]) for p in parts[1:] if p}
                out.append((parts[0], counts))
    return out


@pytest.fixture(scope="session")
def fens():
    found = suite_fens()
    if not found:
        pytest.skip("testdata/ is not there (run from a checkout)")
    return found
