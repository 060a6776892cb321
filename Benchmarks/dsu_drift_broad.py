"""Drift during the rests of a real IMU recording: evdevhook2's value path
against tilt-cli dsu's, on BROAD trial 04 (slow rotation with breaks).

usage: dsu_drift_broad.py [--cli PATH] [--trial CSV]

The trial (../shared/data/broad, read in place: never copied) is served by
`tilt-cli dsu --replay` (SPEC §2 reads its gyr_*_rad_s and acc_*_m_s2
columns; CSV axes are card axes) and a DSU client (Tests/vm/dsuclient.py)
takes one loop of datagrams. Its rests are the trial's own stretches of
`movement` 0 longer than 5 s (0.5 s trimmed at each end). evdevhook2's path
(the value over its resolution, mapped, no bias removed) is the recorded rate
in DSU axes; tilt's is the datagrams' gyroscope, matched to the recording's
time by aligning the datagrams' gyroscope with the recording's (the
datagrams' timestamps are the recording's time plus one offset). Each rest's
drift is the integral of the gyroscope over it, per minute.
"""

import argparse
import os
import socket
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "vm"))
import dsuclient  # noqa: E402

TRIAL = os.path.join(HERE, "..", "..", "shared", "data", "broad",
                     "broad_04_undisturbed_slow_rotation_with_breaks_A.csv")


def read_trial(path):
    try:
        t = np.genfromtxt(path, delimiter=",", names=True)
    except OSError:
        raise SystemExit("%s is absent: the shared data is not here" % path)
    gyro = np.degrees(np.column_stack([t["gyr_x_rad_s"], t["gyr_y_rad_s"], t["gyr_z_rad_s"]]))
    dsu = np.column_stack([gyro[:, 0], -gyro[:, 2], gyro[:, 1]])  # SPEC §7: (+ω_x, −ω_z, +ω_y)
    return t["t_s"], dsu, t["movement"]


def rests(t, movement, shortest=5.0, trim=0.5):
    """(start, end) in recording seconds of the stretches of movement 0."""
    out, start = [], None
    for i, m in enumerate(movement):
        if m == 0 and start is None:
            start = t[i]
        if (m != 0 or i == len(t) - 1) and start is not None:
            if t[i] - start >= shortest:
                out.append((start + trim, t[i] - trim))
            start = None
    return out


def drift(times, gyro, a, b):
    """deg/min about each axis: the integral of the gyroscope over [a, b]."""
    keep = (times >= a) & (times <= b)
    tt, gg = times[keep], gyro[keep]
    total = (gg[:-1] * np.diff(tt)[:, None]).sum(axis=0)
    return total * 60 / (tt[-1] - tt[0])


def serve(cli, path, seconds):
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
        return [f for _, f in dsuclient.Client(port).pad_data(seconds)]
    finally:
        p.terminate()
        p.wait(10)


def align(t, rec, packets, span=45.0, search=10.0):
    """The recording time of each datagram: its timestamp minus the offset
    that makes the datagrams' gyroscope over their first `span` seconds (long
    enough to reach past a rest into motion) match the recording's, the first
    datagram taken at most `search` seconds into the recording. Compared
    after subtracting each side's median over the span, so that the bias tilt
    removes does not weigh."""
    stamps = np.array([p["timestamp"] for p in packets], dtype=np.float64) / 1e6
    rate = (len(t) - 1) / (t[-1] - t[0])
    n = int(span * rate)
    g = np.array([p["gyro"] for p in packets[:n]])
    g = g - np.median(g, axis=0)
    best = None
    for j in range(int(search * rate)):
        r = rec[j:j + n]
        e = np.abs(r - np.median(r, axis=0) - g).mean()
        if best is None or e < best[1]:
            best = (j, e)
    j, error = best
    return stamps - stamps[0] + t[j], error


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(HERE, "..", ".build", "release", "tilt-cli"))
    ap.add_argument("--trial", default=TRIAL)
    a = ap.parse_args()
    t, rec, movement = read_trial(a.trial)
    packets = serve(a.cli, a.trial, t[-1] + 4)
    times, fit = align(t, rec, packets)
    first_loop = times <= t[-1]
    times = times[first_loop]
    gyro = np.array([p["gyro"] for p in packets])[first_loop]
    print("trial %s: %.1f s, %d datagrams in its first loop (aligned to the recording within a mean of %.4f "
          "deg/s an axis)" % (os.path.basename(a.trial), t[-1], len(times), fit))
    print("rest (s)         | evdevhook2 path deg/min (pitch, yaw, roll) | tilt-cli dsu deg/min (pitch, yaw, roll)")
    for start, end in rests(t, movement):
        if end > times[-1]:
            continue
        hook = drift(t, rec, start, end)
        tilt = drift(times, gyro, start, end)
        print("%6.1f-%6.1f    | %7.2f  (%6.2f, %6.2f, %6.2f)        | %7.3f  (%6.3f, %6.3f, %6.3f)" % (
            start, end, np.linalg.norm(hook), *hook, np.linalg.norm(tilt), *tilt))


if __name__ == "__main__":
    main()
