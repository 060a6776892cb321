"""Where a simulated case's inclination error difference to VQF lies in time.

Usage (from the package root, after `swift build -c release --package-path Benchmarks`):

    d=$(mktemp -d)
    Benchmarks/.build/release/AttitudeBench --simulate $d --seeds 101,102 > /dev/null
    .venv/bin/python Benchmarks/phase_split.py --bench Benchmarks/.build/release/AttitudeBench \\
        [--set NAME=VALUE ...] $d/sim_breakaway_s101.csv $d/sim_breakaway_s102.csv

For each CSV it runs AttitudeBench --errors (our per-sample error, bias, √d², τ)
and VQF (compare_with_vqf.py's load/run alike, one pass), and splits the mean
square difference over the scored samples, ours² − VQF², into phases:

  start   the first 10 s;
  before  from 10 s to the burst;
  burst   from the first to the last sample whose gyroscope norm exceeds
          --threshold °/s (150), plus 2 s;
  after   the 10 s after the burst;
  rest    the remainder.

A phase's share is its samples' sum of (ours² − VQF²) over the case's sample
count, divided by VQF's mean square over the whole case: the shares add to
ratio² − 1 (ratio = our RMSE / VQF's), so a positive share is a loss there.
Per phase it also prints our RMSE and VQF's, the mean τ (s), the mean √d² and
the mean norm of our bias error and VQF's (°/s, against the simulated bias in
the `.bias` file beside the CSV). A case without a sample above the threshold
has an empty burst and after phase (its "before" runs to the end).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import vqf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_with_vqf import load, up_vectors  # noqa: E402

PHASES = ["start", "before", "burst", "after", "rest"]


def angles(estimate_up, truth_up):
    return np.degrees(
        np.arctan2(
            np.linalg.norm(np.cross(estimate_up, truth_up), axis=1),
            np.sum(estimate_up * truth_up, axis=1),
        )
    )


def phases(times, gyr, threshold):
    """Phase index (into PHASES) of every sample."""
    t = times - times[0]
    out = np.where(t < 10, 0, 1)
    fast = np.flatnonzero(np.degrees(np.linalg.norm(gyr, axis=1)) > threshold)
    if fast.size:
        begin, end = t[fast[0]], t[fast[-1]] + 2
        out = np.where((t >= begin) & (t < end), 2, out)
        out = np.where((t >= end) & (t < end + 10), 3, out)
        out = np.where(t >= end + 10, 4, out)
    return out


def bias_of(path):
    return os.path.splitext(path)[0] + ".bias"


def split(path, errors_csv, threshold):
    gyr, acc, truth, scored, ts, times = load(path)
    true_bias = np.array([float(v) for v in open(bias_of(path)).read().split()[:3]])
    filt = vqf.VQF(ts)
    out = filt.updateBatch(gyr, acc)
    valid = scored & np.all(np.isfinite(truth), axis=1)
    truth_up = up_vectors(truth[valid])
    theirs = angles(up_vectors(out["quat6D"][valid]), truth_up)
    vqf_bias_error = np.linalg.norm(np.degrees(out["bias"][valid]) - true_bias, axis=1)

    e = np.genfromtxt(errors_csv, delimiter=",", names=True)
    # AttitudeBench writes every sample with a ground truth; keep the scored ones.
    has_truth = np.all(np.isfinite(truth), axis=1)
    if len(e) != int(has_truth.sum()):
        sys.exit(f"phase_split: {errors_csv} has {len(e)} rows, {path} {int(has_truth.sum())} with truth")
    keep = e["scored"] == 1
    ours = e["error_deg"][keep]
    bias = np.c_[e["bias_x_deg_s"], e["bias_y_deg_s"], e["bias_z_deg_s"]][keep]
    bias_error = np.linalg.norm(bias - true_bias, axis=1)
    drift, tau = e["drift_deg_s"][keep], e["tau_s"][keep]

    phase = phases(times, gyr, threshold)[valid]
    n, vqf_ms = len(ours), np.mean(theirs**2)
    rows = {}
    for k, name in enumerate(PHASES):
        m = phase == k
        if not m.any():
            rows[name] = None
            continue
        rows[name] = dict(
            share=float(np.sum(ours[m] ** 2 - theirs[m] ** 2) / n / vqf_ms),
            seconds=float(m.sum() * ts),
            ours=float(np.sqrt(np.mean(ours[m] ** 2))),
            vqf=float(np.sqrt(np.mean(theirs[m] ** 2))),
            tau=float(np.mean(tau[m])),
            drift=float(np.mean(drift[m])),
            bias_error=float(np.mean(bias_error[m])),
            vqf_bias_error=float(np.mean(vqf_bias_error[m])),
        )
    ratio = float(np.sqrt(np.mean(ours**2)) / np.sqrt(vqf_ms))
    return ratio, rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", required=True, help="AttitudeBench executable")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--threshold", type=float, default=150.0, help="burst gyroscope norm, °/s")
    p.add_argument("--json", action="store_true", help="one JSON line per case instead of the table")
    p.add_argument("csv", nargs="+")
    a = p.parse_args()
    for path in a.csv:
        if not os.path.exists(path):
            sys.exit(f"phase_split: no such file {path}")
        if not os.path.exists(bias_of(path)):
            sys.exit(f"phase_split: no {bias_of(path)} (write the case with AttitudeBench --simulate)")
    if not os.access(a.bench, os.X_OK):
        sys.exit(f"phase_split: {a.bench} is not an executable (build the bench first)")
    extra = [x for s in a.set for x in ("--set", s)]
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "e")
        subprocess.run(
            [a.bench, "--passes", "1", "--accuracy-only", "--errors", prefix, *extra, *a.csv],
            check=True, stdout=subprocess.DEVNULL,
        )
        results = []
        for path in a.csv:
            name = os.path.splitext(os.path.basename(path))[0]
            results.append((name, *split(path, f"{prefix}-{name}.csv", a.threshold)))
    if a.json:
        for name, ratio, rows in results:
            print(json.dumps(dict(case=name, ratio=ratio, phases=rows)))
        return
    print("| case | ours/VQF | " + " | ".join(f"{x} share" for x in PHASES) + " |")
    print("|" + "---|" * (2 + len(PHASES)))
    for name, ratio, rows in results:
        cells = [f"{rows[x]['share']:+.3f}" if rows[x] else "—" for x in PHASES]
        print(f"| {name} | {ratio:.3f} | " + " | ".join(cells) + " |")
    print()
    print("| case | phase | s | ours RMSE | VQF RMSE | τ s | √d² °/s | bias error ours | VQF °/s |")
    print("|" + "---|" * 9)
    for name, ratio, rows in results:
        for x in PHASES:
            r = rows[x]
            if r:
                print(
                    f"| {name} | {x} | {r['seconds']:.1f} | {r['ours']:.3f} | {r['vqf']:.3f} | {r['tau']:.2f} "
                    f"| {r['drift']:.3f} | {r['bias_error']:.3f} | {r['vqf_bias_error']:.3f} |"
                )


if __name__ == "__main__":
    main()
