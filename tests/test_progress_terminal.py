#!/usr/bin/python3
"""run --progress and compare's case line on a terminal: the searchbench executable under a
pseudo-terminal (stdout and stderr both the terminal, 60 columns), as a user at a shell sees it.

  usage: test_progress_terminal.py SEARCHBENCH

run: the progress arrives as one line redrawn in place ("\\r", the text, "\\033[K"), never wider
than the terminal, ended by one newline before the summary; a log (stderr not a terminal)
keeps its line per depth, which test_progress.cpp checks. compare: "case i/n: ..." redrawn,
erased before the tables are printed.
"""
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
import unittest

EXE = sys.argv.pop(1) if len(sys.argv) > 1 else "searchbench"
COLUMNS = 60


def run_on_terminal(args, env=None, limit=60):
    """Runs EXE with args on a new pseudo-terminal; returns (exit status, everything written)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is COLUMNS wide, its output raw (no \n -> \r\n)
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
        attrs = termios.tcgetattr(0)
        attrs[1] &= ~termios.OPOST
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        os.execve(EXE, [EXE] + args, dict(os.environ, **(env or {})))
    out = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


class RunProgress(unittest.TestCase):
    def test_one_line_redrawn_then_the_summary(self):
        status, out = run_on_terminal(["run", "--puzzle", "msquare-2x5", "--engine", "ring", "--progress"],
                                      {"SEARCHBENCH_HEARTBEAT_SECONDS": "0.02"})
        self.assertEqual(status, 0, out)
        progress, _, summary = out.partition("\n")
        # The progress: redrawn at least twice (the first event, and the newest one as the run
        # ends), each draw "\r" + text + "\033[K", and nothing but draws before its newline.
        draws = re.findall(r"\r([^\r\n\033]*)\033\[K", progress)
        self.assertGreaterEqual(len(draws), 2, repr(progress))
        self.assertEqual("".join("\r" + d + "\033[K" for d in draws), progress, "only redraws on the progress line")
        for d in draws:
            self.assertLess(len(d), COLUMNS, "a redrawn line must not wrap: " + repr(d))
            self.assertRegex(d, r"^depth \d+")
        # Then the summary, each line once: the progress took one line of the terminal. Its
        # last draw is of the last depth, every state reached.
        radius = re.match(r"result    3,628,800 states, radius (\d+)\n", summary)
        self.assertTrue(radius, repr(summary))
        self.assertRegex(draws[-1], r"^depth %s  100\.0%%  [0-9.]+ [kMG ]*states/s  elapsed [0-9.]+ s$" % radius.group(1))
        self.assertIn("\nsettings  msquare-2x5, engine ring", summary)
        self.assertEqual(out.count("\n"), 1 + summary.count("\n"))
        self.assertNotIn("\r", summary)

    def test_quiet_and_errors_leave_no_line_behind(self):
        status, out = run_on_terminal(["run", "--puzzle", "msquare-2x3", "--quiet"])
        self.assertEqual(status, 0, out)
        self.assertNotIn("\r", out)
        # A failure mid-run: the progress line ends before the error's line starts.
        status, out = run_on_terminal(["run", "--puzzle", "pancake-11", "--engine", "ring", "--timeout", "0.5"])
        self.assertEqual(status, 4, out)
        progress, _, rest = out.partition("\n")
        self.assertIn("\033[K", progress)
        self.assertTrue(rest.startswith("searchbench: the time limit of 0.5 s passed"), repr(out))


class CompareProgress(unittest.TestCase):
    def test_case_line_redrawn_and_erased(self):
        status, out = run_on_terminal(["compare", "--puzzle", "msquare-2x3", "--random", "2", "--threads", "1"])
        self.assertEqual(status, 0, out)
        before, _, tables = out.partition("\n")
        cases = re.findall(r"\rcase (\d+)/(\d+): ([^\r\033]*)\033\[K", before)
        self.assertGreater(len(cases), 3, repr(before))
        self.assertEqual([int(c[0]) for c in cases], list(range(1, len(cases) + 1)))
        self.assertEqual({int(c[1]) for c in cases}, {len(cases)})
        self.assertRegex(cases[0][2], r"^\w+(:\w+)?/[\w-]+, 1 thread$")
        # Erased ("\r\033[K") before the first line of the output.
        self.assertIn("\033[K\r\033[K2 targets: 2 random (seed 1)", before)
        self.assertTrue(before.endswith("2 random (seed 1)"), repr(before[-80:]))
        self.assertNotIn("\r", tables)
        self.assertIn("whole-space engines, fastest first", tables)


if __name__ == "__main__":
    unittest.main()
