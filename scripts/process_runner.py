"""Child processes run and measured, one way for every script that times whole processes
(scripts/scale_runs.py, scripts/long_run.py, scripts/judge_speed.py).

run(cmd, ...) starts the command, reads its stdout (and its stderr, unless it is left to the
terminal) on threads of their own so that neither pipe can fill and stall the child, and reaps
it with wait4, which gives this child's own rusage: its CPU time (user + system) and its peak
resident set (ru_maxrss, KiB on Linux; for a launcher such as mpirun, the largest process it
waited for). With poll_seconds it also samples the child's VmHWM from /proc while it runs and
calls on_poll(peak bytes so far) after each sample; with timeout it kills the child after that
many seconds. The wall time runs from just before the start to the reaping.
"""
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Finished:
    """One child process, ended."""
    cmd: list
    wait_status: int          # as wait4 returned it
    status: int               # the exit status; minus the signal's number when a signal ended it
    wall_seconds: float
    usage: object             # wait4's resource.struct_rusage
    stdout: object            # bytes, or str with text=True
    stderr: object = None     # None where stderr was left to the terminal
    stderr_lines: list = field(default_factory=list)
    polled_peak_bytes: int = 0
    timed_out: bool = False

    @property
    def cpu_seconds(self):
        return self.usage.ru_utime + self.usage.ru_stime

    @property
    def peak_rss_bytes(self):
        """wait4's peak resident set, in bytes (with polling: the larger of it and /proc's)."""
        return max(self.polled_peak_bytes, self.usage.ru_maxrss * 1024)


def vm_hwm(pid):
    """Peak resident set of a running process, from /proc (bytes), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def load_average():
    """The 1-, 5- and 15-minute load averages, as a list."""
    return list(os.getloadavg())


class OthersProbe:
    """The CPU time other processes took while this one (and the children it waited for) ran,
    as bench_search counts it for each case (bench/load_counters.hpp): the user time of every
    CPU (/proc/stat: user, nice, and the hypervisor's steal) less this process's and its
    children's. Kernel time is left out on both sides. No lag, unlike the load average, which
    after a phase of a few seconds still shows the minute before it."""

    def __init__(self):
        self.start = self._sample()

    @staticmethod
    def _sample():
        try:
            with open("/proc/stat") as f:
                fields = f.readline().split()
            machine = (int(fields[1]) + int(fields[2]) + int(fields[8])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            machine = None
        t = os.times()
        return machine, t.user + t.children_user, time.monotonic()

    def figures(self):
        """{"others_cpu_seconds", "probe_seconds"} since the probe began; {} where /proc/stat
        could not be read."""
        machine, own, when = self._sample()
        if machine is None or self.start[0] is None:
            return {}
        return {"others_cpu_seconds": max(0.0, (machine - self.start[0]) - (own - self.start[1])),
                "probe_seconds": when - self.start[2]}


def _reader(stream, sink, on_line=None):
    """Reads a pipe to its end on a thread: whole (sink[0]) or line by line (on_line)."""
    def body():
        if on_line is None:
            sink.append(stream.read())
            return
        for line in stream:
            on_line(line)
    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return thread


def _wait(proc, poll_seconds, on_poll):
    """wait4 until the child ends: blocking, or polling /proc's VmHWM every poll_seconds."""
    if poll_seconds is None:
        _, raw, usage = os.wait4(proc.pid, 0)
        return raw, usage, 0
    peak = 0
    while True:
        pid, raw, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid != 0:
            return raw, usage, peak
        time.sleep(poll_seconds)
        peak = max(peak, vm_hwm(proc.pid) or 0)
        if on_poll is not None:
            on_poll(peak)


def run(cmd, *, stdin_path=None, env=None, text=False, capture_stderr=True, on_stderr_line=None,
        timeout=None, poll_seconds=None, on_poll=None):
    """Runs cmd to its end and returns a Finished. stdin_path: a file for its stdin (else this
    process's). on_stderr_line(line), with text=True, sees each stderr line as it comes (the
    lines are kept in stderr_lines and joined in stderr as well)."""
    stdin = open(stdin_path, "rb") if stdin_path else None
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE if capture_stderr else None, env=env, text=text)
    finally:
        if stdin_path:
            stdin.close()
    out, err, lines = [], [], []

    def keep_line(line):
        lines.append(line.rstrip("\n"))
        on_stderr_line(line)
    readers = [_reader(proc.stdout, out)]
    if capture_stderr:
        readers.append(_reader(proc.stderr, err, keep_line if on_stderr_line else None))
    killed = []
    timer = None
    if timeout is not None:
        timer = threading.Timer(timeout, lambda: (killed.append(True), proc.send_signal(signal.SIGKILL)))
        timer.start()
    raw, usage, peak = _wait(proc, poll_seconds, on_poll)
    wall = time.perf_counter() - start
    if timer is not None:
        timer.cancel()
    for thread in readers:
        thread.join(timeout=5)
    proc.returncode = status = os.waitstatus_to_exitcode(raw)
    empty = "" if text else b""
    stderr = None
    if capture_stderr:
        stderr = err[0] if err else "".join(line + "\n" for line in lines) if text else empty
    return Finished(cmd=list(cmd), wait_status=raw, status=status, wall_seconds=wall, usage=usage,
                    stdout=out[0] if out else empty, stderr=stderr, stderr_lines=lines, polled_peak_bytes=peak,
                    timed_out=bool(killed))


def run_or_exit(cmd, *, stdin_path=None, env=None, capture_stderr=True):
    """run(); a failed child ends this script with the command (and its stderr, if captured)."""
    done = run(cmd, stdin_path=stdin_path, env=env, capture_stderr=capture_stderr)
    if done.wait_status != 0:
        where = f" < {stdin_path}" if stdin_path else ""
        tail = "\n" + (done.stderr.decode() if isinstance(done.stderr, bytes) else done.stderr) if capture_stderr else ""
        sys.exit(f"failed (status {done.wait_status}): {' '.join(cmd)}{where}{tail}")
    return done
