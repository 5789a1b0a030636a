#!/usr/bin/python3
"""The README's quick start works as printed.

  python3 tests/test_quick_start.py SEARCHBENCH [--timeout SECONDS]

Takes the shell code blocks of README.md's "Quick start" section (```sh, ```bash, ```shell,
```console; the ```text blocks are outputs), joins lines continued with a backslash, and
runs every command that starts with `build/release/searchbench` (or `searchbench`) with the
executable SEARCHBENCH in its place, from the repository root: each must exit with status 0
and print something, within the time limit (120 s by default). Other commands of a line
(`cmake ... &&`) are not run. The build and package lines are not run either, but the
section must hold a `cmake --build` line for the target searchbench, so that a reader who
starts there gets the program the rest of the section runs. Pattern databases a command
builds go to a scratch cache folder (XDG_CACHE_HOME), not the user's.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
README = os.path.join(ROOT, "README.md")
SHELLS = {"sh", "bash", "shell", "console", "zsh"}
PROGRAMS = ("build/release/searchbench", "searchbench")
SEPARATORS = {"&&", "||", ";", "|", "&"}
EXE = None  # set from the command line
TIMEOUT = 120.0


def quick_start(text):
    """The README's "Quick start" section: from its heading to the next heading of its level."""
    match = re.search(r"^(#{1,6}) Quick start\s*$", text, re.M)
    if not match:
        raise AssertionError("README.md has no 'Quick start' heading")
    level = len(match.group(1))
    end = re.search(rf"^#{{1,{level}}} ", text[match.end():], re.M)
    return text[match.end():match.end() + end.start() if end else len(text)]


def code_lines(section):
    """The logical lines of the section's shell code blocks: continuations joined, prompts
    ("$ ") and blank lines dropped."""
    lines = []
    for lang, body in re.findall(r"^```([\w-]*)[^\n]*\n(.*?)^```", section, re.S | re.M):
        if lang.lower() not in SHELLS:
            continue
        for line in re.sub(r"\\\n", " ", body).splitlines():
            line = re.sub(r"^\s*\$ ", "", line).strip()
            if line:
                lines.append(line)
    return lines


def simple_commands(line):
    """A shell line as its simple commands (split at &&, ||, ;, | and &; comments dropped),
    each as (environment assignments, words)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out, words = [], []
    for token in list(lexer) + [";"]:
        if token in SEPARATORS:
            if words:
                env = {}
                while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                    key, value = words.pop(0).split("=", 1)
                    env[key] = value
                out.append((env, words))
            words = []
        else:
            words.append(token)
    return out


def runs_searchbench(words):
    return bool(words) and words[0] in PROGRAMS


def is_build_of_searchbench(words):
    """`cmake --build ... --target searchbench` (or -t, or a list of targets naming it)."""
    if not words or os.path.basename(words[0]) != "cmake" or "--build" not in words:
        return False
    targets = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--target", "-t")]
    targets += [w.split("=", 1)[1] for w in words if w.startswith("--target=")]
    return any("searchbench" in t.replace(",", " ").split() for t in targets)


class QuickStart(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(README, encoding="utf-8") as f:
            cls.lines = code_lines(quick_start(f.read()))
        cls.commands = [c for line in cls.lines for c in simple_commands(line)]

    def test_the_section_builds_searchbench(self):
        self.assertTrue(any(is_build_of_searchbench(words) for _, words in self.commands),
                        "the quick start has no `cmake --build ... --target searchbench` line:\n" + "\n".join(self.lines))

    def test_every_searchbench_command_runs_as_printed(self):
        chosen = [(env, words) for env, words in self.commands if runs_searchbench(words)]
        self.assertTrue(chosen, "the quick start runs no searchbench command")
        with tempfile.TemporaryDirectory() as cache:
            for env, words in chosen:
                printed = shlex.join(words)
                with self.subTest(command=printed):
                    try:
                        proc = subprocess.run([EXE] + words[1:], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
                                              env=dict(os.environ, XDG_CACHE_HOME=cache, **env), stdin=subprocess.DEVNULL)
                    except subprocess.TimeoutExpired:
                        self.fail(f"{printed}: still running after {TIMEOUT:g} s")
                    self.assertEqual(proc.returncode, 0, f"{printed}: exit status {proc.returncode}: {proc.stderr.strip()}")
                    self.assertTrue(proc.stdout.strip(), f"{printed}: printed nothing")


class Reading(unittest.TestCase):
    """How the test reads a quick start (no executable run)."""

    def test_continuations_comments_chains_and_prompts(self):
        section = ("\n```sh\ncmake --preset release && cmake --build --preset release --target searchbench\n"
                   "build/release/searchbench list   # every puzzle\n$ XDG_CACHE_HOME=/x searchbench run --puzzle a \\\n"
                   "  --start \"1 2\"\n```\n\n```text\nbuild/release/searchbench not-run\n```\n")
        commands = [c for line in code_lines(section) for c in simple_commands(line)]
        self.assertEqual([words for _, words in commands if runs_searchbench(words)],
                         [["build/release/searchbench", "list"], ["searchbench", "run", "--puzzle", "a", "--start", "1 2"]])
        self.assertEqual(commands[-1][0], {"XDG_CACHE_HOME": "/x"})
        self.assertTrue(any(is_build_of_searchbench(words) for _, words in commands))
        self.assertFalse(is_build_of_searchbench(["cmake", "--build", "build/release", "--target", "bench_search"]))

    def test_the_section_ends_at_the_next_heading(self):
        text = "# t\n## Quick start\n```sh\nsearchbench list\n```\n## Next\n```sh\nsearchbench other\n```\n"
        self.assertEqual(code_lines(quick_start(text)), ["searchbench list"])


def main(argv):
    global EXE, TIMEOUT
    args = argv[1:]
    if "--timeout" in args:
        i = args.index("--timeout")
        try:
            TIMEOUT = float(args[i + 1])
        except (IndexError, ValueError):
            sys.exit("test_quick_start.py: --timeout needs a number of seconds")
        del args[i:i + 2]
    if not args or args[0].startswith("-"):
        sys.exit("usage: test_quick_start.py SEARCHBENCH [--timeout SECONDS] [unittest arguments]")
    EXE = os.path.abspath(args[0])
    if not (os.path.isfile(EXE) and os.access(EXE, os.X_OK)):
        sys.exit(f"test_quick_start.py: {args[0]}: no executable there")
    unittest.main(argv=[argv[0]] + args[1:])


if __name__ == "__main__":
    main(sys.argv)
