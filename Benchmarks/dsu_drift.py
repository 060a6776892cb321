"""Bias-induced drift of a DSU server's gyroscope at rest, and its CPU:
evdevhook2's value path against tilt-cli dsu's, on the same recording.

usage: dsu_drift.py [--cli PATH] [--bias X Y Z] [--noise DPS] [--seed N] [--out DIR]

Writes a CSV recording (SPEC §2; card axes, 100 Hz) of a still, face-up
device whose gyroscope has a known bias (default (0.8, -0.5, 0.3) deg/s) and
white noise (0.05 deg/s): 4 s at rest, a 30 deg/s turn about each card axis
and back (1 s each way), then a minute at rest.

evdevhook2's path, from its description: each axis is the raw value over the
driver's resolution, no bias removed, put in DSU axes. For a recording that
already holds deg/s that is the recorded rate in DSU axes (SPEC §7's mapping),
so its drift per minute of rest is the bias times 60 s.

tilt's path: `tilt-cli dsu --replay FILE` on a free loopback port, subscribed
by the DSU client of Tests/vm/dsuclient.py for two loops of the recording; the
minute of rest is found in the datagrams (the longest stretch below 5 deg/s
between two turns) and its gyroscope integrated over its last 60 s of device
time. An emulator that integrates the gyroscope turns by that much.

CPU: user + system seconds of the dsu process (/proc/PID/stat) per second of
wall time, subscribed (100 datagrams a second) and then lapsed.
"""

import argparse
import math
import os
import random
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "vm"))
import dsuclient  # noqa: E402

RATE = 100.0
REST_S = 60.0


def recording(path, bias, noise, seed):
    """The rest-and-turns recording; returns its length in seconds."""
    rng = random.Random(seed)
    rows = []
    t = 0.0

    def add(a, w):
        nonlocal t
        g = [w[i] + bias[i] + rng.gauss(0, noise) for i in range(3)]
        acc = [a[i] + rng.gauss(0, 0.002) for i in range(3)]
        rows.append("%.4f,%.6f,%.6f,%.6f,%.5f,%.5f,%.5f" % (t, *acc, *g))
        t += 1 / RATE

    for _ in range(int(4 * RATE)):
        add((0, 0, 1), (0, 0, 0))
    for axis in range(3):
        for sign in (1, -1):
            n = int(RATE)
            for i in range(n):
                theta = math.radians(30.0 * ((i + 1) / n if sign > 0 else (n - i - 1) / n))
                a = (0, math.sin(theta), math.cos(theta)) if axis == 0 else \
                    (-math.sin(theta), 0, math.cos(theta)) if axis == 1 else (0, 0, 1)
                w = [0.0, 0.0, 0.0]
                w[axis] = 30.0 * sign
                add(a, w)
            for _ in range(int(0.5 * RATE)):
                add((0, 0, 1) if sign < 0 or axis == 2 else a, (0, 0, 0))
    for _ in range(int(REST_S * RATE)):
        add((0, 0, 1), (0, 0, 0))
    with open(path, "w") as f:
        f.write("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_deg_s,gyr_y_deg_s,gyr_z_deg_s\n")
        f.write("\n".join(rows) + "\n")
    return t


def dsu_gyro(w):
    """SPEC §7: (pitch, yaw, roll) = (+ω_x, −ω_z, +ω_y)."""
    return (w[0], -w[2], w[1])


def evdevhook2_drift(path):
    """deg per minute about each DSU axis over the recording's last minute (its rest)."""
    with open(path) as f:
        next(f)
        rows = [[float(x) for x in line.split(",")] for line in f]
    rest = rows[-int(REST_S * RATE):]
    total = [0.0, 0.0, 0.0]
    for r in rest:
        g = dsu_gyro(r[4:7])
        for i in range(3):
            total[i] += g[i] / RATE
    return [x * 60 / REST_S for x in total]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tilt_drift(cli, path, length):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    env = dict(os.environ, TILT_INPUT_DIR="/nonexistent-input-dir", TILT_IIO_DIR="/nonexistent-iio-dir",
               XDG_STATE_HOME="/nonexistent-state")
    p = subprocess.Popen([cli, "dsu", "--replay", path, "--listen", "127.0.0.1:%d" % port],
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
    try:
        line = p.stderr.readline().decode()
        if "serving DSU" not in line:
            raise SystemExit("tilt-cli dsu did not start: %r" % line)
        client = dsuclient.Client(port)
        c0, t0 = cpu_seconds(p.pid), time.monotonic()
        packets = client.pad_data(2 * length + 2)
        busy = (cpu_seconds(p.pid) - c0) / (time.monotonic() - t0)
        time.sleep(6)  # the subscription lapses
        c1, t1 = cpu_seconds(p.pid), time.monotonic()
        time.sleep(10)
        idle = (cpu_seconds(p.pid) - c1) / (time.monotonic() - t1)
    finally:
        p.terminate()
        p.wait(10)
    fields = [f for _, f in packets]
    moving = [max(abs(x) for x in f["gyro"]) > 5 for f in fields]
    # Stretches of rest bounded by motion on both sides.
    best = None
    start = None
    for i, m in enumerate(moving):
        if not m and start is None:
            start = i
        if m and start is not None:
            if start > 0 and (best is None or i - start > best[1] - best[0]):
                best = (start, i)
            start = None
    if best is None:
        raise SystemExit("no rest between turns in %d datagrams" % len(fields))
    rest = fields[best[0]:best[1]]
    end_t = rest[-1]["timestamp"]
    minute = [f for f in rest if end_t - f["timestamp"] <= REST_S * 1e6]
    total = [0.0, 0.0, 0.0]
    for a, b in zip(minute, minute[1:]):
        dt = (b["timestamp"] - a["timestamp"]) / 1e6
        for i in range(3):
            total[i] += a["gyro"][i] * dt
    span = (minute[-1]["timestamp"] - minute[0]["timestamp"]) / 1e6
    return [x * 60 / span for x in total], span, len(packets), busy, idle


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(HERE, "..", ".build", "release", "tilt-cli"))
    ap.add_argument("--bias", type=float, nargs=3, default=(0.8, -0.5, 0.3))
    ap.add_argument("--noise", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--out", default="/tmp")
    a = ap.parse_args()
    path = os.path.join(a.out, "dsu-drift-rest-and-turns.csv")
    length = recording(path, a.bias, a.noise, a.seed)
    hook = evdevhook2_drift(path)
    tilt, span, n, busy, idle = tilt_drift(a.cli, path, length)
    norm = lambda v: math.sqrt(sum(x * x for x in v))
    print("recording: %s, %.1f s, gyroscope bias (%.2f, %.2f, %.2f) deg/s, noise %.3f deg/s, seed %d" % (
        path, length, *a.bias, a.noise, a.seed))
    print("evdevhook2 path (raw/resolution, no bias removed): drift %.2f deg/min (pitch %.2f, yaw %.2f, roll %.2f)"
          % (norm(hook), *hook))
    print("tilt-cli dsu: drift %.3f deg/min (pitch %.3f, yaw %.3f, roll %.3f) over the last %.1f s of rest; "
          "%d datagrams" % (norm(tilt), *tilt, span, n))
    print("tilt-cli dsu CPU: %.4f s/s subscribed (100 datagrams/s), %.4f s/s lapsed" % (busy, idle))


if __name__ == "__main__":
    main()
