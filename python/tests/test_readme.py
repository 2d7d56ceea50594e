"""The README's Python snippet is python/examples/quickstart.py (tests/consumers/readme_snippets.py
checks that they agree): it runs here."""

import pathlib
import runpy


def test_quickstart_runs(capsys):
    runpy.run_path(str(pathlib.Path(__file__).resolve().parents[1] / "examples" / "quickstart.py"))
    assert "bestmove" in capsys.readouterr().out
