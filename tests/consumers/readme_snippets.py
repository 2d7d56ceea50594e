"""The README's section "Use it from C, C++, Python and Rust" shows files the tests build and
run: each fenced block whose info string names a file (```c file=tests/consumers/quickstart.c)
must equal that file, byte for byte. Run by scripts/consumers; `--list` prints the files."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECTION = "## Use it from C, C++, Python and Rust"


def blocks(readme: str):
    start = readme.index(SECTION)
    end = readme.find("\n## ", start + len(SECTION))
    section = readme[start : end if end >= 0 else len(readme)]
    for m in re.finditer(r"^```(\w+) file=(\S+)\n(.*?)^```$", section, re.S | re.M):
        yield m.group(2), m.group(3)


def main() -> int:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = list(blocks(readme))
    if not found:
        print("README: no block names a file in its section", file=sys.stderr)
        return 1
    bad = 0
    for name, text in found:
        if "--list" in sys.argv:
            print(name)
            continue
        path = ROOT / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            print(f"README block {name} differs from the file", file=sys.stderr)
            bad += 1
    if not bad and "--list" not in sys.argv:
        print(f"README snippets: {len(found)} blocks equal their files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
