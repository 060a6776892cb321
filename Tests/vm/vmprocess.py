"""Processes under test in the test machine: output collected line by line
with its arrival time, descriptors and wake-ups read from /proc."""

import json
import os
import select
import signal
import stat
import subprocess
import threading
import time

from evdev import ecodes as e


class Failure(Exception):
    """A scenario's check failed; the message says what was expected and seen."""


class Watched:
    """A child process whose stdout lines are timestamped (CLOCK_REALTIME) as they arrive;
    with stdin=True, send() writes lines to its stdin (else it reads /dev/null)."""

    def __init__(self, argv, log_path, prefix=(), stdin=False):
        self.argv = list(argv)
        self.log_path = log_path
        self.proc = subprocess.Popen(
            list(prefix) + self.argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        )
        self.lines = []  # (arrival_realtime_s, text)
        self.err = []
        self._threads = [
            threading.Thread(target=self._pump_out, daemon=True),
            threading.Thread(target=self._pump_err, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _pump_out(self):
        for raw in self.proc.stdout:
            self.lines.append((time.clock_gettime(time.CLOCK_REALTIME), raw.decode(errors="replace").rstrip("\n")))

    def _pump_err(self):
        for raw in self.proc.stderr:
            self.err.append(raw.decode(errors="replace").rstrip("\n"))

    def send(self, line):
        """Writes one line to the process's stdin (made with stdin=True)."""
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    @property
    def pid(self):
        return self.proc.pid

    def stderr_text(self):
        return "\n".join(self.err)

    def describe_exit(self):
        return "%s exited with status %s; stderr: %s" % (
            " ".join(self.argv[:2]),
            self.proc.returncode,
            self.stderr_text()[-600:] or "(empty)",
        )

    def open_nodes(self):
        """The targets of the process's open descriptors."""
        out = []
        try:
            for fd in os.listdir("/proc/%d/fd" % self.pid):
                try:
                    out.append(os.readlink("/proc/%d/fd/%s" % (self.pid, fd)))
                except OSError:
                    pass
        except OSError:
            pass
        return out

    def holds(self, node):
        """Whether one of the process's descriptors is the device node (compared by st_rdev)."""
        try:
            rdev = os.stat(node).st_rdev
        except OSError:
            return False
        try:
            fds = os.listdir("/proc/%d/fd" % self.pid)
        except OSError:
            return False
        for fd in fds:
            try:
                st = os.stat("/proc/%d/fd/%s" % (self.pid, fd))
            except OSError:
                continue
            if stat.S_ISCHR(st.st_mode) and st.st_rdev == rdev:
                return True
        return False

    def wait_open(self, node, timeout=40):
        """Waits until the process holds a descriptor of node; fails if it exits first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.holds(node):
                return
            if self.proc.poll() is not None:
                self.finish_threads()
                raise Failure("did not open %s: %s" % (node, self.describe_exit()))
            time.sleep(0.05)
        raise Failure("did not open %s within %ds (open: %s)" % (node, timeout, ", ".join(self.open_nodes())))

    def wait_lines(self, count, timeout=30):
        deadline = time.monotonic() + timeout
        while len(self.lines) < count and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        return len(self.lines) >= count

    def wait_quiet(self, quiet_s=1.0, timeout=30):
        """Waits until no line has arrived for quiet_s seconds."""
        deadline = time.monotonic() + timeout
        last, since = len(self.lines), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            if len(self.lines) != last:
                last, since = len(self.lines), time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return

    def wait_exit(self, timeout):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self.finish_threads()
        return self.proc.returncode

    def finish_threads(self):
        for t in self._threads:
            t.join(5)

    def interrupt(self, timeout=15):
        """SIGINT (finish cleanly, DESIGN.md); returns the exit status, or kills and fails."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        rc = self.wait_exit(timeout)
        if rc is None:
            self.kill()
            raise Failure("%s did not exit within %ds of SIGINT" % (self.argv[1], timeout))
        return rc

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.finish_threads()

    def frames(self):
        """The stdout lines parsed as JSON; fails on a line that is not."""
        out = []
        for i, (_, text) in enumerate(self.lines):
            try:
                out.append(json.loads(text))
            except ValueError:
                raise Failure("stdout line %d is not JSON: %r" % (i + 1, text[:200]))
        return out

    def save_log(self):
        with open(self.log_path, "w") as f:
            f.write("$ %s\n" % " ".join(self.argv))
            f.write("exit status: %s\n--- stderr\n%s\n--- stdout\n" % (self.proc.returncode, self.stderr_text()))
            for _, text in self.lines:
                f.write(text + "\n")

    def context_switches(self):
        """(voluntary, involuntary, threads) summed over every thread of the process."""
        vol = invol = threads = 0
        for tid in os.listdir("/proc/%d/task" % self.pid):
            try:
                with open("/proc/%d/task/%s/status" % (self.pid, tid)) as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches:"):
                            vol += int(line.split()[1])
                        elif line.startswith("nonvoluntary_ctxt_switches:"):
                            invol += int(line.split()[1])
                threads += 1
            except OSError:
                pass
        return vol, invol, threads

    def cpu_ticks(self):
        """User plus system CPU time of the process so far, in clock ticks (/proc/PID/stat)."""
        with open("/proc/%d/stat" % self.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat


class EventCapture:
    """Reads a node in a thread and keeps every event: the reference of what the kernel sent."""

    def __init__(self, device):
        self.device = device
        self.events = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        fd = self.device.fd
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    self.events.extend(self.device.read())
                except (BlockingIOError, OSError):
                    pass

    def stop(self):
        self._stop.set()
        self._thread.join(5)
        return self.events

    def reports(self):
        return sum(1 for ev in self.events if ev.type == e.EV_SYN and ev.code == e.SYN_REPORT)
