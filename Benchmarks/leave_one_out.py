"""Leave-one-out check of the estimators' default parameters on BROAD.

For each of the trials, chooses the parameter set that does best on the
other trials (mean RMSE relative to the reference method: VQF for fusion,
the low-pass tau = 0.103 s for accelerometer-only) from a grid, and scores
the held-out trial with it. Prints one markdown table per estimator.

usage: .venv/bin/python Benchmarks/leave_one_out.py --bench AttitudeBench CSV...
"""

import argparse
import itertools
import json
import subprocess
import tempfile

import numpy as np

from compare_with_vqf import inclination_rmse, load, vqf

FUSION_GRID = {
    "accelerometerTimeConstant": [2, 3, 4, 5, 7, 10],
    "motionBiasTimeConstant": [5, 10, 20, 40],
    "disturbanceScale": [0.5, 1, 1.5, 3, 1e9],
    "disturbanceTimeConstant": [2, 6, 15],
}
ACCEL_GRID = {
    "tiltTimeConstant": [0.005, 0.01, 0.02, 0.05],
    "tiltDisturbanceScale": [0.03, 0.1, 0.3],
    "tiltDisturbanceTimeConstant": [0.3, 1, 3],
    "tiltMaximumTimeConstant": [0.3, 1, 3],
}


def sets(grid):
    names = list(grid)
    return [" ".join(f"{n}={v}" for n, v in zip(names, values)) for values in itertools.product(*grid.values())]


def run_grid(bench, lines, trials):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("\n".join(lines) + "\n")
        f.flush()
        out = subprocess.run([bench, "--grid", f.name, *trials], check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    return rows


def vqf_rmse(path):
    gyr, acc, truth, scored, ts = load(path)
    return inclination_rmse(vqf.VQF(ts).updateBatch(gyr, acc)["quat6D"], truth, scored)


def lowpass_rmse(path, tau=0.103):
    _, acc, truth, scored, ts = load(path)
    alpha = 1 - np.exp(-ts / tau)
    state = acc[0].copy()
    up = np.empty_like(acc)
    for i, a in enumerate(acc):
        state += alpha * (a - state)
        up[i] = state / np.linalg.norm(state)
    # Up vector in the sensor frame -> the rotation that takes it onto +z, as a quaternion.
    z = np.array([0.0, 0.0, 1.0])
    c = np.cross(up, z)
    q = np.c_[1 + up @ z, c]
    return inclination_rmse(q, truth, scored)


def table(title, column, reference_name, reference, rmse, defaults_line, trials):
    names = [t.rsplit("/", 1)[-1].removesuffix(".csv") for t in trials]
    print(f"### {title}\n")
    print(
        f"| held-out trial | {reference_name} ° | defaults (in-sample) ° | chosen on the others ° "
        f"| chosen parameters |"
    )
    print("|---|---|---|---|---|")
    lines = sorted({line for line, _ in rmse})
    for held in names:
        train = [n for n in names if n != held]
        score = {line: np.mean([rmse[(line, n)] / reference[n] for n in train]) for line in lines}
        best = min(lines, key=score.get)
        print(
            f"| {held} | {reference[held]:.3f} | {rmse[(defaults_line, held)]:.3f} "
            f"| {rmse[(best, held)]:.3f} | `{best}` |"
        )
    score = {line: np.mean([rmse[(line, n)] / reference[n] for n in names]) for line in lines}
    best = min(lines, key=score.get)
    print(f"\nBest on all three (in-sample): `{best}`: " + ", ".join(f"{rmse[(best, n)]:.3f}" for n in names))
    print()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench", required=True)
    p.add_argument("trials", nargs="+")
    a = p.parse_args()
    names = [t.rsplit("/", 1)[-1].removesuffix(".csv") for t in a.trials]

    for title, grid, column, ref_name, ref_fn in [
        ("Fusion", FUSION_GRID, "fusion_rmse_deg", "VQF", vqf_rmse),
        ("Accelerometer only", ACCEL_GRID, "accel_rmse_deg", "low-pass", lowpass_rmse),
    ]:
        lines = sets(grid)
        rows = run_grid(a.bench, ["defaults"] + lines, a.trials)
        rmse = {(r["set"], r["trial"]): r[column] for r in rows}
        reference = {n: ref_fn(t) for n, t in zip(names, a.trials)}
        table(title, column, ref_name, reference, rmse, "defaults", a.trials)


main()
