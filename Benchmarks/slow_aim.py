"""Slow aim after a table rest (issue 41): how much of a 1 °/s pan held in the
hand reaches the client, VQF's defaults beside tilt.

usage: slow_aim.py [--print-checksum]

The motion is generated here and, sample for sample, by
Tests/AttitudeTests/SlowAimTests.swift (the same integer generator, the
same formulas; both print the stream's checksum), which gives tilt's figure:

- 200 Hz; a gyroscope bias of (1.2, -0.8, 0.6) °/s, card frame; white
  noise, uniform, 0.07 °/s and 0.002 g standard deviation per sample;
- 0-5 s on a table, flat and still;
- 5-20 s in the hand: a pan about the vertical at 1 °/s, with a hand's
  tremor (0.01° at 7.7-9.1 Hz about each axis, 0.5 °/s peak) and sway
  (0.2° at 0.23-0.37 Hz) and a slow push across (0.003 g at 1.1 Hz).

The figure is the integral over the pan of the bias-removed rate about the
vertical (what an emulator integrates) over the 15° panned. VQF: the PyPI
`vqf` package's defaults, 6D, bias from `getBiasEstimate()` at each sample.
"""

import argparse
import math

import numpy as np

RATE_HZ = 200
TABLE_S = 5.0
PAN_S = 15.0
BIAS_DPS = (1.2, -0.8, 0.6)
PAN_DPS = 1.0
GYRO_NOISE_DPS = 0.07
ACCEL_NOISE_G = 0.002
G = 9.80665
MASK = (1 << 64) - 1


class Noise:
    """xorshift64, uniform on [-1, 1): the Swift test's generator."""

    def __init__(self, seed=0x41_5EED):
        self.x = seed

    def uniform(self):
        x = self.x
        x ^= (x << 13) & MASK
        x ^= x >> 7
        x ^= (x << 17) & MASK
        self.x = x
        return (x >> 11) * (2.0 ** -53) * 2 - 1


TREMOR = [(0.01, 8.3, 0.0), (0.01, 9.1, 1.0), (0.01, 7.7, 2.0)]  # degrees, Hz, phase per axis
SWAY = [(0.2, 0.31, 0.5), (0.2, 0.23, 1.5), (0.2, 0.37, 2.5)]


def angle_and_rate(t):
    """The hand's small rotation about each card axis at t seconds into the
    hand, degrees, and its rate, °/s."""
    angle, rate = [], []
    for (a, f, p), (b, g, q) in zip(TREMOR, SWAY):
        w, v = 2 * math.pi * f, 2 * math.pi * g
        angle.append(a * math.sin(w * t + p) + b * math.sin(v * t + q) - a * math.sin(p) - b * math.sin(q))
        rate.append(a * w * math.cos(w * t + p) + b * v * math.cos(v * t + q))
    return angle, rate


def stream():
    """(t s, gyroscope °/s, accelerometer g) rows, card frame."""
    noise = Noise()
    u = math.sqrt(3)  # a uniform on [-1, 1) has standard deviation 1/√3
    n = int(round((TABLE_S + PAN_S) * RATE_HZ))
    rows = []
    for k in range(n):
        t = k / RATE_HZ
        hand = t >= TABLE_S
        s = t - TABLE_S
        if hand:
            angle, rate = angle_and_rate(s)
        else:
            angle, rate = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        ax, ay = math.radians(angle[0]), math.radians(angle[1])
        push = 0.003 * math.sin(2 * math.pi * 1.1 * s) if hand else 0.0
        gyro = [BIAS_DPS[i] + rate[i] + (PAN_DPS if hand and i == 2 else 0.0) + GYRO_NOISE_DPS * u * noise.uniform()
                for i in range(3)]
        acc = [-ay + push, ax, 1.0]
        acc = [acc[i] + ACCEL_NOISE_G * u * noise.uniform() for i in range(3)]
        rows.append((t, gyro, acc))
    return rows


def checksum(rows):
    return sum(g[0] + 2 * g[1] + 3 * g[2] + a[0] + 2 * a[1] + 3 * a[2] for _, g, a in rows)


def kept_share(rows, biases_dps):
    """The pan's share that reaches the client: ∫ (ω_z − b̂_z) dt over the
    hand, over the 15° panned."""
    dt = 1 / RATE_HZ
    total = sum((g[2] - b[2]) * dt for (t, g, _), b in zip(rows, biases_dps) if t >= TABLE_S)
    return total / (PAN_DPS * PAN_S)


def vqf_biases(rows):
    import vqf

    f = vqf.VQF(1 / RATE_HZ)
    out = []
    for _, g, a in rows:
        f.update(np.radians(np.array(g, dtype=float)), np.array(a, dtype=float) * G)
        out.append(np.degrees(f.getBiasEstimate()[0]))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--print-checksum", action="store_true")
    a = p.parse_args()
    rows = stream()
    print("stream: %d samples, checksum %.9f" % (len(rows), checksum(rows)))
    if a.print_checksum:
        return
    from importlib.metadata import version

    biases = vqf_biases(rows)
    share = kept_share(rows, biases)
    b = biases[-1]
    print("VQF %s defaults: %.3f of the 1 deg/s pan reaches the client; bias at the end (%.3f, %.3f, %.3f) deg/s"
          % (version("vqf"), share, b[0], b[1], b[2]))
    table_end = int(TABLE_S * RATE_HZ) - 1
    b = biases[table_end]
    print("VQF bias at the end of the table rest (%.3f, %.3f, %.3f) deg/s, true (%.1f, %.1f, %.1f)"
          % (b[0], b[1], b[2], *BIAS_DPS))


if __name__ == "__main__":
    main()
