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

With --edges 2,10 the phases are spans of time instead (0-2 s, 2-10 s, 10 s
to the end), for any kind of case; --by-kind then prints, per kind (the case
name less its seed), the median of ours/VQF over the whole case and in each
phase, how many seeds are above VQF in each phase, and the median bias errors.
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


def edge_phases(edges):
    """The names of the spans of time that --edges cuts (seconds)."""
    bounds = [0.0, *edges]
    return [f"{a:g}-{b:g} s" for a, b in zip(bounds, bounds[1:])] + [f"{bounds[-1]:g} s-end"]


def phases(times, gyr, threshold, edges=None):
    """Phase index (into the phase names) of every sample."""
    t = times - times[0]
    if edges:
        return np.searchsorted(np.asarray(edges, dtype=float), t, side="right")
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


def split(path, errors_csv, threshold, edges, names):
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

    phase = phases(times, gyr, threshold, edges)[valid]
    n, vqf_ms = len(ours), np.mean(theirs**2)
    rows = {}
    for k, name in enumerate(names):
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
    p.add_argument("--edges", help="phases as spans of time cut at these seconds (2,10) instead")
    p.add_argument("--by-kind", action="store_true", help="with --edges: a summary per kind of case")
    p.add_argument("csv", nargs="+")
    a = p.parse_args()
    try:
        edges = sorted(float(x) for x in a.edges.split(",")) if a.edges else None
    except ValueError:
        sys.exit(f"phase_split: --edges wants seconds separated by commas (2,10), not {a.edges!r}")
    if a.by_kind and not edges:
        sys.exit("phase_split: --by-kind goes with --edges")
    names = edge_phases(edges) if edges else PHASES
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
            results.append((name, *split(path, f"{prefix}-{name}.csv", a.threshold, edges, names)))
    if a.json:
        for name, ratio, rows in results:
            print(json.dumps(dict(case=name, ratio=ratio, phases=rows)))
        return
    if a.by_kind:
        return print_by_kind(results, names)
    print("| case | ours/VQF | " + " | ".join(f"{x} share" for x in names) + " |")
    print("|" + "---|" * (2 + len(names)))
    for name, ratio, rows in results:
        cells = [f"{rows[x]['share']:+.3f}" if rows[x] else "—" for x in names]
        print(f"| {name} | {ratio:.3f} | " + " | ".join(cells) + " |")
    print()
    print("| case | phase | s | ours RMSE | VQF RMSE | τ s | √d² °/s | bias error ours | VQF °/s |")
    print("|" + "---|" * 9)
    for name, ratio, rows in results:
        for x in names:
            r = rows[x]
            if r:
                print(
                    f"| {name} | {x} | {r['seconds']:.1f} | {r['ours']:.3f} | {r['vqf']:.3f} | {r['tau']:.2f} "
                    f"| {r['drift']:.3f} | {r['bias_error']:.3f} | {r['vqf_bias_error']:.3f} |"
                )


def print_by_kind(results, names):
    """Per kind of case: medians over its seeds, phase by phase."""
    kinds = {}
    for name, ratio, rows in results:
        kinds.setdefault(name.rsplit("_s", 1)[0], []).append((ratio, rows))
    head = " | ".join(f"{x}: ours/VQF, above 1" for x in names)
    bias_phase = names[1] if len(names) > 1 else names[0]
    print(f"| kind | seeds | ours/VQF | above 1 | {head} | bias error {bias_phase} ours / VQF °/s |")
    print("|" + "---|" * (4 + len(names) + 1))
    for kind, cases in kinds.items():
        ratios = [r for r, _ in cases]
        cells = []
        for x in names:
            per = [rows[x]["ours"] / rows[x]["vqf"] for _, rows in cases if rows[x] and rows[x]["vqf"] > 0]
            cells.append(f"{np.median(per):.3f}, {sum(v > 1 for v in per)}" if per else "—")
        ours_b = np.median([rows[bias_phase]["bias_error"] for _, rows in cases if rows[bias_phase]])
        vqf_b = np.median([rows[bias_phase]["vqf_bias_error"] for _, rows in cases if rows[bias_phase]])
        print(
            f"| {kind} | {len(cases)} | {np.median(ratios):.3f} | {sum(r > 1 for r in ratios)} | "
            + " | ".join(cells)
            + f" | {ours_b:.2f} / {vqf_b:.2f} |"
        )


if __name__ == "__main__":
    main()
