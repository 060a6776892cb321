"""Holds the fusion's expected bias drift against a simulated recording's true bias.

usage: bias_drift.py ERRORS.csv SIM.csv SIM.bias [--after SECONDS]

ERRORS.csv is what `AttitudeBench --errors PREFIX SIM.csv` writes (the bias
estimate and drift_deg_s, √d² of the time constant's law, per sample); SIM.csv
and SIM.bias are what `AttitudeBench --simulate DIR` writes. The true error
along the observed rows is the bias error's part across the true vertical (the
part the inclination corrections see; the low-passed rows of the fusion are
shorter under fast turns, so this is an upper bound of what d² estimates).
Prints the course over time and, after SECONDS (10), the median of √d², the
median and RMS of that true error, and the share of samples where the motion
time constant is above its floor.
"""

import argparse

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("errors")
    p.add_argument("simulated")
    p.add_argument("bias")
    p.add_argument("--after", type=float, default=10.0)
    p.add_argument("--floor", type=float, default=2.7, help="minimumAccelerometerTimeConstant, s")
    a = p.parse_args()
    e = np.genfromtxt(a.errors, delimiter=",", names=True)
    d = np.genfromtxt(a.simulated, delimiter=",", names=True)
    true_bias = np.array([float(x) for x in open(a.bias).read().split()])
    w, x, y, z = d["opt_qw"], d["opt_qx"], d["opt_qy"], d["opt_qz"]
    up = np.c_[2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]
    n = min(len(e), len(up))
    t = e["t_s"][:n]
    error = np.c_[e["bias_x_deg_s"], e["bias_y_deg_s"], e["bias_z_deg_s"]][:n] - true_bias
    seen = np.sqrt(np.maximum(0, (error**2).sum(1) - (error * up[:n]).sum(1) ** 2))
    drift = e["drift_deg_s"][:n]
    tau = e["tau_s"][:n]
    print("| t s | true error across vertical °/s | √d² °/s | τ s | inclination error ° |")
    print("|---|---|---|---|---|")
    for mark in [1, 3, 5, 10, 20, 30, 45, 60, 90, 120, 150, 179]:
        k = np.searchsorted(t, mark)
        if k >= n:
            break
        print(f"| {mark} | {seen[k]:.3f} | {drift[k]:.3f} | {tau[k]:.2f} | {e['error_deg'][k]:.2f} |")
    m = t > a.after
    print(
        f"after {a.after:g} s: √d² median {np.median(drift[m]):.3f} °/s; true error median "
        f"{np.median(seen[m]):.3f}, RMS {np.sqrt(np.mean(seen[m] ** 2)):.3f} °/s; "
        f"τ above {a.floor:g} s on {np.mean(tau[m] > a.floor + 0.01):.3f} of samples"
    )


if __name__ == "__main__":
    main()
