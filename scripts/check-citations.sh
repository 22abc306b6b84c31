#!/usr/bin/env bash
# CI check: every repository file that a comment, a document, a build file or a script cites exists.
#
# Scans the tracked (and untracked, not ignored) C++, Markdown, CMake, shell and Python files for
#   - project-relative paths: docs/..., include/nldr/..., benchmarks/..., scripts/..., tests/...,
#     examples/..., tools/..., cmake/..., python/..., .ci/... (a trailing "/" names a directory; a placeholder
#     such as tests/<dir>/ or benchmarks/<name>.cpp is checked up to the placeholder);
#   - headers named as the library installs them: nldr/embed/lle.hpp -> include/nldr/embed/lle.hpp;
#   - relative links and images in Markdown, [text](path) and ![alt](path), resolved from the page;
#   - bare file names (lle.hpp, tool.md, run-tests.sh, ...): some file of that name must exist;
# and fails on citations of documents outside the repository: ALGORITHMS.md (cite
# docs/algorithms.md), "seed 00x" (cite the paper by author and year, docs/algorithms.md,
# References) and ../shared/.
# Prints "file:line cites X, which does not exist" for each, and exits 1 if there is any.
# Usage: bash scripts/check-citations.sh [path ...]   (default: the whole repository)
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
[ -x "$python" ] || python=python3
exec "$python" - "$@" <<'PY'
import os
import re
import subprocess
import sys

SCANNED_SUFFIXES = (".hpp", ".cpp", ".h", ".md", ".txt", ".cmake", ".in", ".sh", ".py")
SCANNED_NAMES = {"run", "CMakeLists.txt"}
SELF = "scripts/check-citations.sh"

ROOTS = r"(?:docs|include/nldr|benchmarks|scripts|tests|examples|tools|cmake|python|\.ci)"
# A path starts at a word boundary that is not part of a longer path or URL.
PROJECT_PATH = re.compile(r"(?<![\w./:~-])(" + ROOTS + r"/[\w./<>*{}+-]*)")
HEADER = re.compile(r"(?<![\w./:~-])(nldr/[\w/]*\.hpp)\b")
MD_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# .cmake is left out: nldrConfig.cmake and nldrTargets.cmake are generated at configure/install time.
BARE_NAME = re.compile(r"(?<![\w./:~<-])([A-Za-z][\w-]*\.(?:hpp|cpp|md|sh|py))\b(?![\w/-])")
FORBIDDEN = [
    (re.compile(r"(?<!docs/)ALGORITHMS\.md"), "which is not in the repository: cite docs/algorithms.md sec. N"),
    (re.compile(r"\b[Ss]eeds?[ -]?00[0-9]"), "a seed document by number: cite the paper by author and year "
                                              "(docs/algorithms.md, References)"),
    (re.compile(r"\.\./shared\b|/work/shared\b"), "which is not in the repository"),
]


def repository_files():
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             check=True, capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk("."):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(top, n)) for n in names]
    return sorted(f for f in files if os.path.isfile(f))


def scanned(path):
    name = os.path.basename(path)
    return name.endswith(SCANNED_SUFFIXES) or name in SCANNED_NAMES or path.startswith(".ci/")


def exists_up_to_placeholder(path, files):
    """A path with a placeholder (<dir>, *, {a,b}) is checked up to the directory holding it; a path
    without an extension may name a target after its source (tests/fuzz/graph_lists)."""
    cut = min([i for i in (path.find(c) for c in "<*{") if i >= 0], default=-1)
    if cut >= 0:
        path = path[:cut]
        path = path[: path.rfind("/") + 1] if "/" in path else "."
    path = path.rstrip("/") or "."
    if os.path.exists(path):
        return True
    return "." not in os.path.basename(path) and any(f.startswith(path + ".") for f in files)


def trim(path):
    # Sentence punctuation and code-span ends are not part of a path.
    while path and path[-1] in ".,;:)'\"`":
        path = path[:-1]
    return path


def main(arguments):
    files = repository_files()
    basenames = {os.path.basename(f) for f in files}
    targets = [f for f in files if scanned(f) and f != SELF]
    if arguments:
        targets = [f for f in targets if any(f == a.rstrip("/") or f.startswith(a.rstrip("/") + "/")
                                             for a in arguments)]
    problems = []

    def report(where, cited, why=None):
        problems.append(f"{where} cites {cited}, " + (why or "which does not exist"))

    for path in targets:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().split("\n")
        except OSError as error:
            problems.append(f"{path}: unreadable ({error})")
            continue
        markdown = path.endswith(".md")
        here = os.path.dirname(path)
        for number, line in enumerate(lines, 1):
            where = f"{path}:{number}"
            seen = set()
            for pattern, why in FORBIDDEN:
                for match in pattern.finditer(line):
                    report(where, match.group(0), why)
                    seen.add(match.group(0))
            for match in PROJECT_PATH.finditer(line):
                cited = trim(match.group(1))
                if cited in seen or "/" not in cited:
                    continue
                seen.add(cited)
                if not exists_up_to_placeholder(cited, files):
                    report(where, cited)
            for match in HEADER.finditer(line):
                cited = match.group(1)
                # A header CMake generates from cmake/<name>.in (nldr/version.hpp) exists once configured.
                generated = os.path.exists(os.path.join("cmake", os.path.basename(cited) + ".in"))
                if not (generated or os.path.exists(os.path.join("include", cited))
                        or os.path.exists(os.path.join(here, cited))):
                    report(where, cited, f"which does not exist (as include/{cited})")
            if markdown:
                for match in MD_LINK.finditer(line):
                    target = match.group(1).split("#", 1)[0]
                    if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
                        continue
                    if not os.path.exists(os.path.normpath(os.path.join(here, target))):
                        report(where, match.group(1), f"which does not exist (from {here or '.'}/)")
            for match in BARE_NAME.finditer(line):
                cited = match.group(1)
                # A name joined to a directory in code (dir / "out.md") is a file the program writes.
                if re.search(r'/\s*"$', line[: match.start()]):
                    continue
                if cited not in basenames and cited not in seen:
                    report(where, cited, "and no file of that name exists in the repository")

    for problem in problems:
        print(problem)
    if problems:
        print(f"check-citations: {len(problems)} problem(s) in {len(targets)} files scanned",
              file=sys.stderr)
        return 1
    print(f"check-citations: every cited file exists ({len(targets)} files scanned)")
    return 0


sys.exit(main(sys.argv[1:]))
PY
