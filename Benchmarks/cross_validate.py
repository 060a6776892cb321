"""Leave-one-kind-out cross-validation of the estimators' parameters on BROAD.

The trials are grouped by the kind of motion (KINDS). For each kind, the
parameter set of a grid that does best on the trials of the *other* kinds
(mean RMSE relative to the reference: VQF for the fusion, the low-pass
tau = 0.103 s for the accelerometer alone) is chosen, and the trials of the
held-out kind are scored with it. The figures so obtained are out of
sample: no choice was made with the trial, nor with any trial of its kind.

usage: .venv/bin/python Benchmarks/cross_validate.py --bench AttitudeBench CSV...
"""

import argparse
import itertools
import json
import re
import subprocess
import tempfile

import numpy as np

from compare_with_vqf import inclination_rmse, load, vqf

# By the motion, as BROAD names the trials: rotation (02 04 07 08), translation
# (10 15, and 25: tapping during translation), combined rotation and
# translation (21, 28 and 32: the magnets do not matter without a
# magnetometer), disturbed rotation (24 tapping, 26 vibration).
KINDS = {
    "rotation": ["02", "04", "07", "08"],
    "translation": ["10", "15", "25"],
    "combined": ["21", "28", "32"],
    "disturbed": ["24", "26"],
}

FUSION_GRID = {
    "accelerometerTimeConstant": [2, 3, 4],
    "motionBiasNoise": [0.2, 0.45],
    "shockScale": [2, 1e9],
    "gyroscopeScaleError": [0.0025, 0.0034, 0.005, 0],
    "minimumAccelerometerTimeConstant": [2, 2.5, 2.7],
}
# Parameters that only matter when another one is on: sets that differ only
# in them are the same estimator, and only the first is run.
DEPENDS = {"minimumAccelerometerTimeConstant": ("gyroscopeScaleError", 0)}
# The accelerometer-only estimator's constants (the cube-root law, fourth
# pass): the smoothing of the norm before its rate (tau_c), the window of the
# linear acceleration's means, the clamp of the time constant. The norm
# test's ratio is the law's definition of a turn, not searched (with it in
# the grid, 2/4, see docs/bench-attitude.md).
ACCEL_GRID = {
    "tiltNormSmoothing": [0.01, 0.02, 0.05],
    "tiltDisturbanceTimeConstant": [0.3, 1],
    "tiltTimeConstant": [0.01, 0.03],
    "tiltMaximumTimeConstant": [1, 3],
}
# Where to append every RMSE of the grids (--save-rows), for a look afterwards.
SAVE_ROWS = None
# Grid values given in degrees per second, passed to the benchmark in rad/s.
DEGREES = {"motionBiasNoise"}


def trial_number(path):
    return re.search(r"broad_(\d+)_", path).group(1)


def kind_of(number):
    return next(k for k, members in KINDS.items() if number in members)


def sets(grid):
    names = list(grid)
    out = []
    for values in itertools.product(*grid.values()):
        chosen = dict(zip(names, values))
        if any(
            n in chosen and chosen.get(on) == off and values[names.index(n)] != grid[n][0]
            for n, (on, off) in DEPENDS.items()
        ):
            continue
        out.append(
            " ".join(
                f"{n}={v * np.pi / 180 if n in DEGREES else v!r}" for n, v in zip(names, values)
            )
        )
    return out


def label(line):
    if line == "defaults":
        return "the shipped defaults"
    parts = []
    for assignment in line.split():
        name, value = assignment.split("=")
        v = float(value)
        if name in DEGREES:
            parts.append(f"{name} {v * 180 / np.pi:g}°/s")
        else:
            parts.append(f"{name} {'off' if v >= 1e8 else f'{v:g}'}")
    return ", ".join(parts) or "defaults"


def run_grid(bench, lines, trials, only):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("\n".join(lines) + "\n")
        f.flush()
        out = subprocess.run(
            [bench, "--grid", f.name, "--only", only, *trials],
            check=True,
            capture_output=True,
            text=True,
        )
    return [json.loads(line) for line in out.stdout.splitlines()]


def vqf_rmse(path):
    gyr, acc, truth, scored, ts, _ = load(path)
    return inclination_rmse(vqf.VQF(ts).updateBatch(gyr, acc)["quat6D"], truth, scored)


def cross_validate(bench, trials, grid, column, only, reference, reference_name, title, rule):
    numbers = [trial_number(t) for t in trials]
    names = {trial_number(t): t.rsplit("/", 1)[-1].removesuffix(".csv") for t in trials}
    lines = ["defaults"] + sets(grid)
    rows = run_grid(bench, lines, trials, only)
    if SAVE_ROWS:
        with open(SAVE_ROWS, "a") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    rmse = {(r["set"], trial_number(r["trial"] + "_")): r[column] for r in rows}
    kinds = sorted({kind_of(n) for n in numbers}, key=list(KINDS).index)

    def score(line, members):
        # The target is a bound on each trial's ratio, so the worst ratio over
        # the training trials decides (the mean breaks ties).
        ratios = [rmse[(line, n)] / reference[n] for n in members]
        if rule == "mean":
            return (np.mean(ratios),)
        return (max(ratios), np.mean(ratios))

    chosen = {}
    for kind in kinds:
        train = [n for n in numbers if kind_of(n) != kind]
        chosen[kind] = min(lines, key=lambda line: score(line, train))
    best_all = min(lines, key=lambda line: score(line, numbers))

    print(f"### {title}: leave one kind out\n")
    print(
        f"| trial | kind | {reference_name} ° | defaults (in-sample) ° | ratio "
        f"| cross-validated ° | ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    for n in numbers:
        k = kind_of(n)
        d = rmse[("defaults", n)]
        c = rmse[(chosen[k], n)]
        print(
            f"| {n} | {k} | {reference[n]:.3f} | {d:.3f} | {d / reference[n]:.3f} "
            f"| {c:.3f} | {c / reference[n]:.3f} |"
        )
    print()
    for k in kinds:
        print(f"- chosen without {k}: {label(chosen[k])}")
    print(f"- best on all twelve (in-sample): {label(best_all)}")
    print(f"- grid: {len(lines) - 1} sets, " + "; ".join(
        f"{n} " + "/".join(f"{v:g}" for v in vs) for n, vs in grid.items()))
    print()
    return rmse, chosen


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench", required=True)
    p.add_argument("--reference-json", help="VQF and low-pass RMSEs already measured (from compare_with_vqf.py)")
    p.add_argument(
        "--rule",
        choices=["worst", "mean"],
        default="worst",
        help="choose the set with the smallest worst ratio over the training trials (default) or mean ratio",
    )
    p.add_argument("--only", choices=["fusion", "accel"], help="cross-validate one estimator")
    p.add_argument("--save-rows", help="write every RMSE of the grid here (JSON lines)")
    p.add_argument("trials", nargs="+")
    a = p.parse_args()
    global SAVE_ROWS
    SAVE_ROWS = a.save_rows
    numbers = [trial_number(t) for t in a.trials]
    if a.reference_json:
        with open(a.reference_json) as f:
            ref = json.load(f)
        vqf_ref = {n: ref[n]["vqf"] for n in numbers}
        lowpass_ref = {n: ref[n]["lowpass"] for n in numbers}
    else:
        vqf_ref = {trial_number(t): vqf_rmse(t) for t in a.trials}
        out = subprocess.run(
            [a.bench, "--accuracy-only", *a.trials], check=True, capture_output=True, text=True
        ).stdout.splitlines()
        lowpass_ref = {
            trial_number(r["trial"] + "_"): r["lowpass_rmse_deg"] for r in map(json.loads, out)
        }
    print(f"Selection rule: {'smallest worst ratio (mean breaks ties)' if a.rule == 'worst' else 'smallest mean ratio'} over the training trials.\n")
    if a.only != "accel":
        cross_validate(
            a.bench, a.trials, FUSION_GRID, "fusion_rmse_deg", "fusion", vqf_ref, "VQF", "Fusion", a.rule
        )
    if a.only != "fusion":
        cross_validate(
            a.bench, a.trials, ACCEL_GRID, "accel_rmse_deg", "accel", lowpass_ref, "low-pass",
            "Accelerometer only", a.rule
        )


if __name__ == "__main__":
    main()
