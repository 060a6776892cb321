"""Each tunable constant of FusionParameters at 0.5 and 1.5 times its default:
the worst ratio it gives over the given trials (BROAD's twelve and the
simulated stress suite, issue 19).

Fusion constants are scored by issue 19's rule against VQF on the same
samples: per trial the larger of RMSE / VQF's RMSE and the worst 10 s window
/ (1.5 x VQF's same window + 0.5 deg); at most 1 meets the rule. The
accelerometer-only estimator's constants (tilt...) are scored by its RMSE /
the low-pass tau = 0.103 s on BROAD's trials. A constant whose rows equal the defaults' does
nothing on these trials.

usage: .venv/bin/python Benchmarks/sensitivity.py --bench AttitudeBench
           [--reference-json FILE] [--factors 0.5,1.5] [--only NAME,...]
           [--estimator fusion|accel] CSV...
"""

import argparse
import json
import os
import subprocess

from compare_with_vqf import run_vqf
from cross_validate import run_grid

# The accelerometer-only estimator's constants; every other one is the fusion's.
ACCEL_ONLY = {
    "tiltTimeConstant",
    "tiltMaximumTimeConstant",
    "tiltDisturbanceTimeConstant",
    "tiltNormSmoothing",
    "tiltDisturbanceScale",
    "tiltShockScale",
    "tiltSpeedTimeConstant",
    "tiltTranslationRatio",
}
# Constants shared by both estimators: scored on both.
SHARED = {"maximumStep"}


def name_of(path):
    return os.path.basename(path).removesuffix(".csv")


def references(bench, trials, cache):
    """VQF's RMSE and windows, and the low-pass's RMSE, per trial (cached in `cache`)."""
    known = {}
    if cache and os.path.exists(cache):
        with open(cache) as f:
            known = json.load(f)
    missing = [t for t in trials if name_of(t) not in known]
    if missing:
        lines = subprocess.run(
            [bench, "--accuracy-only", *missing], check=True, capture_output=True, text=True
        ).stdout.splitlines()
        lowpass = {r["trial"]: r["lowpass_rmse_deg"] for r in map(json.loads, lines)}
        for t in missing:
            rmse, _, windows = run_vqf(t, 1)
            known[name_of(t)] = {"vqf": rmse, "vqf_windows": windows, "lowpass": lowpass[name_of(t)]}
        if cache:
            with open(cache, "w") as f:
                json.dump(known, f)
    return known


def fusion_ratio(row, ref):
    rmse = row["fusion_rmse_deg"] / ref["vqf"]
    window = max(o / (1.5 * v + 0.5) for o, v in zip(row["fusion_windows_deg"], ref["vqf_windows"]))
    return max(rmse, window)


def accel_ratio(row, ref):
    return row["accel_rmse_deg"] / ref["lowpass"]


def summarise(rows, refs, ratio):
    by_set = {}
    for r in rows:
        by_set.setdefault(r["set"], []).append((ratio(r, refs[r["trial"]]), r["trial"]))
    return {
        s: (max(v), sum(x <= 1 for x, _ in v), len(v)) for s, v in by_set.items()
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench", required=True)
    p.add_argument("--reference-json", help="cache of VQF's and the low-pass's figures per trial")
    p.add_argument("--factors", default="0.5,1.5")
    p.add_argument("--only", help="only these constants (comma-separated)")
    p.add_argument("--estimator", choices=["fusion", "accel"], help="only this estimator's constants")
    p.add_argument("trials", nargs="+")
    a = p.parse_args()
    factors = [float(x) for x in a.factors.split(",")]
    defaults = json.loads(
        subprocess.run([a.bench, "--defaults"], check=True, capture_output=True, text=True).stdout
    )
    names = sorted(defaults) if not a.only else a.only.split(",")
    refs = references(a.bench, a.trials, a.reference_json)

    def sets(estimator):
        out = ["defaults"]
        for n in names:
            d = defaults[n]
            on = n in ACCEL_ONLY if estimator == "accel" else n not in ACCEL_ONLY
            if not on and n not in SHARED:
                continue
            if d in (0, float("inf")) or d != d:
                continue
            out += [f"{n}={d * f!r}" for f in factors]
        return out

    # The accelerometer alone is held to the low-pass on BROAD's trials; on a
    # simulated slow turn no accelerometer-only filter can be.
    broad = [t for t in a.trials if name_of(t).startswith("broad_")]
    results = {}
    for estimator, ratio, trials in (
        ("fusion", fusion_ratio, a.trials),
        ("accel", accel_ratio, broad),
    ):
        lines = sets(estimator)
        if len(lines) > 1 and trials and (a.estimator in (None, estimator)):
            results[estimator] = summarise(run_grid(a.bench, lines, trials, estimator), refs, ratio)

    print(
        f"{len(a.trials)} trials. Fusion: worst over the trials of max(RMSE / VQF's, worst 10 s "
        f"window / (1.5 x VQF's + 0.5 deg)); accelerometer only: worst RMSE / the low-pass's "
        f"over BROAD's trials. "
        f"'met' counts the trials at most 1.\n"
    )
    print("| constant | default | estimator | " + " | ".join(f"x{f:g} worst (met)" for f in factors)
          + " | defaults worst (met) |")
    print("|---|---|---|" + "---|" * (len(factors) + 1))
    for n in names:
        for estimator in ("fusion", "accel"):
            r = results.get(estimator)
            if not r:
                continue
            keys = [f"{n}={defaults[n] * f!r}" for f in factors]
            if not all(k in r for k in keys):
                continue
            base = r["defaults"]
            cells = []
            for k in keys:
                worst, met, total = r[k]
                cells.append(f"{worst[0]:.3f} {worst[1]} ({met}/{total})")
            print(
                f"| {n} | {defaults[n]:g} | {estimator} | " + " | ".join(cells)
                + f" | {base[0][0]:.3f} ({base[1]}/{base[2]}) |"
            )
        if defaults[n] in (0, float("inf")):
            print(f"| {n} | {defaults[n]:g} | | off at the default: scaling it changes nothing | | |")


if __name__ == "__main__":
    main()
