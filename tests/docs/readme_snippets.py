#!/usr/bin/env python3
"""Runs every ```sh block of a README in a temporary directory, as a user who
pastes them in order would, so the README cannot drift from the tools.

    readme_snippets.py README.md BUILD_DIR [--list]

The temporary directory gets symbolic links to the repository's top-level
folders (so `samples/programs/x.mlir` resolves as in a checkout) and `build`
pointing at BUILD_DIR. Blocks run in document order in that one directory
(a later block may read what an earlier one wrote), each with `bash -e -o
pipefail`. A block preceded by `<!-- readme-snippets: skip (reason) -->` is
not run (installing packages, needing two machines); the reason is printed.
Exit 1 names the first block that failed (its line in the README) with its
output.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = re.compile(r"<!--\s*readme-snippets:\s*skip\s*\((.*)\)\s*-->")


def blocks(readme_text):
    """Yields (line number, skip reason or None, code) for each ```sh block."""
    lines = readme_text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start = i + 1
            reason = None
            if i > 0:
                m = SKIP.search(lines[i - 1])
                if m:
                    reason = m.group(1)
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise SystemExit(f"README line {i + 1}: ```sh block is never closed")
            yield start, reason, "\n".join(lines[start:j]) + "\n"
            i = j
        i += 1


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: readme_snippets.py README.md BUILD_DIR [--list]")
    readme, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    root = os.path.dirname(readme)
    found = list(blocks(open(readme, encoding="utf-8").read()))
    if "--list" in sys.argv:
        for line, reason, code in found:
            print(f"line {line}: {'skip: ' + reason if reason else 'run'}")
        return 0
    work = tempfile.mkdtemp(prefix="meshvk-readme-")
    try:
        for name in os.listdir(root):
            if name not in ("build",) and not name.startswith("."):
                os.symlink(os.path.join(root, name), os.path.join(work, name))
        os.symlink(build, os.path.join(work, "build"))
        env = dict(os.environ)
        # mpirun refuses to start as root without these (CI runs as root).
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        ran = 0
        for line, reason, code in found:
            if reason:
                print(f"README line {line}: skipped ({reason})")
                continue
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=work, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=600)
            if proc.returncode != 0:
                print(proc.stdout[-6000:])
                print(f"README line {line}: the block exited {proc.returncode}:\n{code}")
                return 1
            print(f"README line {line}: ok")
            ran += 1
        print(f"{ran} blocks ran, {len(found) - ran} skipped")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
