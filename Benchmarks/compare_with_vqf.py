"""Runs VQF and this project's AttitudeBench on BROAD trials; prints one table.

Inclination error (../shared/data/README.md): the angle between estimated and
true vertical in the sensor frame (the true one is the third row of the
ground-truth rotation matrix); RMSE over samples with movement = 1 and a
ground truth. Costs are thread CPU time over the whole trial divided by the
number of samples, median of the passes, for both sides alike.
"""

import argparse
import json
import platform
import statistics
import subprocess
import time
from importlib.metadata import version

import numpy as np
import vqf


def load(path):
    d = np.genfromtxt(path, delimiter=",", names=True)
    gyr = np.ascontiguousarray(np.c_[d["gyr_x_rad_s"], d["gyr_y_rad_s"], d["gyr_z_rad_s"]])
    acc = np.ascontiguousarray(np.c_[d["acc_x_m_s2"], d["acc_y_m_s2"], d["acc_z_m_s2"]])
    truth = np.c_[d["opt_qw"], d["opt_qx"], d["opt_qy"], d["opt_qz"]]
    scored = d["movement"] == 1
    ts = float(np.median(np.diff(d["t_s"])))
    return gyr, acc, truth, scored, ts, d["t_s"]


def up_vectors(q):
    """Third row of the rotation matrix of each scalar-first quaternion."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.c_[2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]


def inclination_rmse(estimate, truth, scored):
    valid = scored & np.all(np.isfinite(truth), axis=1)
    e = up_vectors(estimate[valid])
    t = up_vectors(truth[valid])
    angle = np.arctan2(np.linalg.norm(np.cross(e, t), axis=1), np.sum(e * t, axis=1))
    return float(np.degrees(np.sqrt(np.mean(angle**2))))


def inclination_windows(estimate, truth, scored, times, length=10.0):
    """RMSE, degrees, of every 10 s window, one starting each second from the
    first sample, over the scored samples with a ground truth (0 for a window
    without any): AttitudeBench's BroadTrial.inclinationWindows, alike."""
    valid = scored & np.all(np.isfinite(truth), axis=1)
    e = up_vectors(estimate[valid])
    t = up_vectors(truth[valid])
    angle2 = np.arctan2(np.linalg.norm(np.cross(e, t), axis=1), np.sum(e * t, axis=1)) ** 2
    offset = times[valid] - times[0]
    count = max(1, int(np.floor(times[-1] - times[0] - length + 1e-9)) + 1)
    out = []
    for k in range(count):
        inside = (offset >= k) & (offset < k + length)
        out.append(float(np.degrees(np.sqrt(np.mean(angle2[inside])))) if inside.any() else 0.0)
    return out


def window_excess(ours, theirs):
    """The worst of ours / (1.5 × theirs + 0.5°) over the same windows: at most
    1 meets issue 19's bound; and the index of that window."""
    ratios = [o / (1.5 * v + 0.5) for o, v in zip(ours, theirs)]
    k = int(np.argmax(ratios))
    return ratios[k], k


def run_vqf(path, passes, make=vqf.VQF):
    gyr, acc, truth, scored, ts, times = load(path)
    costs = []
    out = None
    for _ in range(max(passes, 1)):
        filt = make(ts)
        start = time.thread_time_ns()
        out = filt.updateBatch(gyr, acc)
        costs.append((time.thread_time_ns() - start) / len(gyr))
    windows = inclination_windows(out["quat6D"], truth, scored, times)
    return inclination_rmse(out["quat6D"], truth, scored), statistics.median(costs), windows


def run_vqf_learning_late(path):
    """VQF with its motion bias learning off for its first tauAcc seconds (it
    learns at rest and after): what VQF gives without the corrections its
    start's mean makes, which its bias learns from as if they were drift."""
    gyr, acc, truth, scored, ts, times = load(path)
    filt = vqf.VQF(ts)
    filt.setMotionBiasEstEnabled(False)
    k = int(np.searchsorted(times, times[0] + filt.params["tauAcc"]))
    first = filt.updateBatch(np.ascontiguousarray(gyr[:k]), np.ascontiguousarray(acc[:k]))["quat6D"]
    filt.setMotionBiasEstEnabled(True)
    rest = filt.updateBatch(np.ascontiguousarray(gyr[k:]), np.ascontiguousarray(acc[k:]))["quat6D"]
    return inclination_rmse(np.vstack([first, rest]), truth, scored)


def print_spread(rows):
    """Per kind of simulated case (its name less the seed), over its seeds:
    the distribution of ours / VQF, and how much of it is VQF's start (the
    same with VQF's motion bias learning off for its first tauAcc seconds)."""
    kinds = {}
    for name, ours, theirs, late in rows:
        kind = name.rsplit("_s", 1)[0]
        kinds.setdefault(kind, []).append((name, ours / theirs, late / theirs, ours / late))
    print("| kind | seeds | ours/VQF median | mean | worst | share above 1 "
          "| VQF late/VQF median | share above 1 | ours/VQF late worst | share above 1 "
          "| corr(log ours/VQF, log VQF late/VQF) |")
    print("|" + "---|" * 11)
    for kind, cases in kinds.items():
        r = np.array([c[1] for c in cases])
        g = np.array([c[2] for c in cases])
        q = np.array([c[3] for c in cases])
        worst = cases[int(np.argmax(r))][0].rsplit("_s", 1)[1]
        corr = float(np.corrcoef(np.log(r), np.log(g))[0, 1]) if len(cases) > 2 else float("nan")
        print(
            f"| {kind} | {len(cases)} | {np.median(r):.3f} | {r.mean():.3f} "
            f"| {r.max():.3f} (seed {worst}) "
            f"| {np.mean(r > 1):.3f} | {np.median(g):.3f} | {np.mean(g > 1):.3f} | {q.max():.3f} "
            f"| {np.mean(q > 1):.3f} | {corr:.2f} |"
        )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench", required=True)
    p.add_argument("--passes", type=int, default=7)
    p.add_argument("--command", required=True)
    p.add_argument("--save-reference", help="write VQF, BasicVQF and low-pass RMSEs here (JSON)")
    p.add_argument(
        "--spread",
        action="store_true",
        help="after the table, per kind of simulated case: the distribution of ours/VQF over its "
        "seeds, beside VQF with its motion bias learning off for its first tauAcc seconds",
    )
    p.add_argument("trials", nargs="+")
    a = p.parse_args()

    ours = {}
    lines = subprocess.run(
        [a.bench, "--passes", str(a.passes), *a.trials], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    for line in lines:
        r = json.loads(line)
        ours[r["trial"]] = r

    print(
        "| trial | VQF ° | BasicVQF ° | ours fusion ° | fusion/VQF | VQF worst 10 s ° "
        "| ours worst 10 s ° | worst window / (1.5 VQF + 0.5°) | ours accel-only ° "
        "| low-pass τ=0.103 s ° | accel/low-pass | VQF ns/sample | ours ns/sample | ours/VQF "
        "| allocations |"
    )
    print("|" + "---|" * 15)
    reference = {}
    spread = []
    met = 0
    for path in a.trials:
        name = path.rsplit("/", 1)[-1].removesuffix(".csv")
        vqf_rmse, vqf_ns, vqf_windows = run_vqf(path, a.passes)
        basic_rmse, _, _ = run_vqf(path, 1, vqf.BasicVQF)
        r = ours[name]
        number = name.split("_")[1] if name.startswith("broad_") else name
        reference[number] = {"vqf": vqf_rmse, "basicvqf": basic_rmse, "lowpass": r["lowpass_rmse_deg"]}
        if a.spread:
            spread.append((name, r["fusion_rmse_deg"], vqf_rmse, run_vqf_learning_late(path)))
        excess, k = window_excess(r["fusion_windows_deg"], vqf_windows)
        met += excess <= 1 and r["fusion_rmse_deg"] <= vqf_rmse
        print(
            f"| {name} | {vqf_rmse:.3f} | {basic_rmse:.3f} | {r['fusion_rmse_deg']:.3f} "
            f"| {r['fusion_rmse_deg'] / vqf_rmse:.2f} | {max(vqf_windows):.2f} "
            f"| {max(r['fusion_windows_deg']):.2f} | {excess:.2f} (from {k} s) "
            f"| {r['accel_rmse_deg']:.2f} "
            f"| {r['lowpass_rmse_deg']:.2f} | {r['accel_rmse_deg'] / r['lowpass_rmse_deg']:.2f} "
            f"| {vqf_ns:.0f} | {r['fusion_ns_per_sample']:.0f} "
            f"| {r['fusion_ns_per_sample'] / vqf_ns:.2f} | {r['allocations_in_timed_loops']} |"
        )
    print()
    print(
        f"Issue 19's bound (RMSE at most VQF's, every 10 s window at most 1.5 × VQF's + 0.5°) "
        f"met on {met} of {len(a.trials)}."
    )
    manager = sum(r["motion_manager_allocations"] for r in ours.values())
    print(
        f"MotionManager.process (fusion + default One Euro filter + reference + handler) over all "
        f"trials: {manager} allocations."
    )
    print(
        f"VQF and BasicVQF {version('vqf')} (defaults, 6D, C++ updateBatch); costs are thread CPU "
        f"time per sample, median of {a.passes} passes over each whole trial; allocations = malloc "
        f"calls counted inside all timed fusion passes. Machine: {platform.machine()}, "
        f"{platform.processor() or 'cpu n/a'}."
    )
    if a.spread:
        print()
        print_spread(spread)
    print(f"Command: {a.command}")
    if a.save_reference:
        with open(a.save_reference, "w") as f:
            json.dump(reference, f)


if __name__ == "__main__":
    main()
