"""The code blocks of the README's section "Use it from C, C++, Python and Rust" and of
docs/install.md show files the tests build and run: each fenced block whose info string names
a file (```c file=tests/consumers/quickstart.c) must equal that file, byte for byte, and a
block marked `from=FILE` must appear in it verbatim. Every fenced block of those places must
be one or the other. Run by scripts/consumers; `--list` prints the files."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# (document, section heading or None for the whole document)
PLACES = [
    ("README.md", "## Use it from C, C++, Python and Rust"),
    ("docs/install.md", None),
]


def blocks(doc: str, text: str, section):
    if section is not None:
        start = text.index(section)
        end = text.find("\n## ", start + len(section))
        text = text[start : end if end >= 0 else len(text)]
    for m in re.finditer(r"^```([^\n]*)\n(.*?)^```$", text, re.S | re.M):
        info = re.fullmatch(r"\w+ (file|from)=(\S+)", m.group(1))
        if not info:
            raise SystemExit(f"{doc}: a block names no file: {m.group(1)!r}")
        yield info.group(1), info.group(2), m.group(2)


def main() -> int:
    found = []
    for doc, section in PLACES:
        text = (ROOT / doc).read_text(encoding="utf-8")
        here = list(blocks(doc, text, section))
        if not here:
            print(f"{doc}: no block names a file", file=sys.stderr)
            return 1
        found += [(doc, *b) for b in here]
    bad = 0
    for doc, kind, name, text in found:
        if "--list" in sys.argv:
            print(name)
            continue
        path = ROOT / name
        content = path.read_text(encoding="utf-8") if path.is_file() else None
        if content is None or (content != text if kind == "file" else text not in content):
            how = "differs from" if kind == "file" else "is not part of"
            print(f"{doc}: block {name} {how} the file", file=sys.stderr)
            bad += 1
    if not bad and "--list" not in sys.argv:
        print(f"README and docs/install.md snippets: {len(found)} blocks agree with their files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
