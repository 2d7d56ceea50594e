"""The README's section "Use it from C, C++, Python and Rust" shows files the tests build and
run: each fenced block whose info string names a file (```c file=tests/consumers/quickstart.c)
must equal that file, byte for byte, and a block marked `from=FILE` must appear in it
verbatim. Every fenced block of the section must be one or the other. Run by
scripts/consumers; `--list` prints the files."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECTION = "## Use it from C, C++, Python and Rust"


def blocks(readme: str):
    start = readme.index(SECTION)
    end = readme.find("\n## ", start + len(SECTION))
    section = readme[start : end if end >= 0 else len(readme)]
    for m in re.finditer(r"^```([^\n]*)\n(.*?)^```$", section, re.S | re.M):
        info = re.fullmatch(r"\w+ (file|from)=(\S+)", m.group(1))
        if not info:
            raise SystemExit(f"README: a block of the section names no file: {m.group(1)!r}")
        yield info.group(1), info.group(2), m.group(2)


def main() -> int:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = list(blocks(readme))
    if not found:
        print("README: no block names a file in its section", file=sys.stderr)
        return 1
    bad = 0
    for kind, name, text in found:
        if "--list" in sys.argv:
            print(name)
            continue
        path = ROOT / name
        content = path.read_text(encoding="utf-8") if path.is_file() else None
        if content is None or (content != text if kind == "file" else text not in content):
            how = "differs from" if kind == "file" else "is not part of"
            print(f"README block {name} {how} the file", file=sys.stderr)
            bad += 1
    if not bad and "--list" not in sys.argv:
        print(f"README snippets: {len(found)} blocks agree with their files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
