"""tilt-cli service (contract §8): what a sample and a Motion signal cost,
counted by callgrind (instructions, repeatable on a shared machine), and the
time from Claim to the first Motion signal beside a plain method call on the
same bus.

  swift build -c release --product tilt-cli && /usr/bin/python3 Benchmarks/service_cost.py

Needs valgrind, dbus-daemon, busctl and python3-jeepney. A private
dbus-daemon; a 100 Hz CSV (the client tests' recording of the four edges)
replayed by the release tilt-cli (a copy without its DWARF 5, which valgrind
3.19 cannot read). One client claims every 0.001 s, so that each sample is
one signal; the counters are zeroed after the first signal and dumped 10 s
later, so the window holds the steady state only."""

import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests/service-client"))
from motion_client import MANAGER, PrivateBus, motion_rule, write_edges_recording  # noqa: E402

DEVICE = MANAGER + "/devices/0"
WINDOW = 10.0


def wait_for_name(client, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        has = client.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
                          ("org.tilt.Motion1",), destination="org.freedesktop.DBus")[0]
        if has:
            return
        time.sleep(0.2)
    raise RuntimeError("the service did not take its name")


def inclusive(annotated, pattern):
    """The inclusive instructions of the functions whose demangled name matches."""
    total = 0
    for line in annotated.splitlines():
        m = re.match(r"\s*([\d,]+)\s.*?\s(\S.*)$", line)
        if m and re.search(pattern, m.group(2)):
            total = max(total, int(m.group(1).replace(",", "")))
    return total


def callgrind(work, binary, recording):
    bus = PrivateBus()
    out = os.path.join(work, "callgrind.out")
    service = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out + ".%p", binary,
         "service", "--replay", recording],
        env=bus.environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    client = bus.connect()
    try:
        wait_for_name(client)
        queue = client.watch(motion_rule(DEVICE), subscribe=False)
        client.claim(DEVICE, 0.001)
        client.pump_until(lambda: len(queue) > 0, 30)
        subprocess.run(["callgrind_control", "--zero", str(service.pid)], check=True,
                       capture_output=True)
        queue.clear()
        client.pump(WINDOW)
        subprocess.run(["callgrind_control", "--dump", str(service.pid)], check=True,
                       capture_output=True)
        signals = len(queue)
        client.release(DEVICE)
    finally:
        client.close()
        service.terminate()
        service.wait(60)
        bus.close()
    dumps = sorted(glob.glob(out + ".*.1"))
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", dumps[-1]],
                               capture_output=True, text=True).stdout
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input=annotated,
                               capture_output=True, text=True).stdout
    total = int(re.search(r"([\d,]+).*PROGRAM TOTALS", demangled).group(1).replace(",", ""))
    deliver = inclusive(demangled, r"MotionBusService\.deliver\(_:from:\)")
    send = inclusive(demangled, r"MotionBusService\.sendMotion\(")
    if send == 0:
        raise RuntimeError("sendMotion was inlined: its cost cannot be told apart")
    return signals, total, deliver, send


def latency(binary, recording, rounds=20):
    bus = PrivateBus()
    service = subprocess.Popen([binary, "service", "--replay", recording],
                               env=bus.environment(), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = bus.connect()
    claims, calls, busctl = [], [], []
    try:
        wait_for_name(client)
        queue = client.watch(motion_rule(DEVICE), subscribe=False)
        for _ in range(rounds):
            time.sleep(1.2)  # closed again (within 1 s of the release)
            queue.clear()
            start = time.perf_counter()
            client.claim(DEVICE, 0.01)
            client.pump_until(lambda: len(queue) > 0, 5)
            claims.append(time.perf_counter() - start)
            client.release(DEVICE)
            start = time.perf_counter()
            client.list_devices()
            calls.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(["busctl", "--user", "call", "org.tilt.Motion1", MANAGER,
                            "org.tilt.Motion1", "ListDevices"], env=bus.environment(),
                           check=True, capture_output=True)
            busctl.append(time.perf_counter() - start)
    finally:
        client.close()
        service.terminate()
        service.wait(10)
        bus.close()
    return claims, calls, busctl


def main():
    binary = os.path.join(ROOT, ".build/release/tilt-cli")
    with tempfile.TemporaryDirectory(prefix="tilt-service-bench-") as work:
        recording = os.path.join(work, "edges.csv")
        write_edges_recording(recording)
        stripped = os.path.join(work, "tilt-cli")
        shutil.copy(binary, stripped)
        subprocess.run(["strip", "--strip-debug", stripped], check=True)
        signals, total, deliver, send = callgrind(work, stripped, recording)
        print("callgrind, %.0f s claimed at 0.001 s (one Motion signal a sample): %d signals"
              % (WINDOW, signals))
        print("  whole process per sample (read, fusion, service, signal): %d instructions"
              % (total / signals))
        print("  service per sample, without the signal (orientation, pacing): %d instructions"
              % ((deliver - send) / signals))
        print("  one Motion signal (built and queued by sd-bus): %d instructions" % (send / signals))
        claims, calls, busctl = latency(binary, recording)
        ms = lambda xs: "median %.2f ms, max %.2f ms" % (statistics.median(xs) * 1e3, max(xs) * 1e3)
        print("Claim to the first Motion signal (device closed before), %d rounds: %s"
              % (len(claims), ms(claims)))
        print("ListDevices round trip, same client: %s" % ms(calls))
        print("busctl --user call … ListDevices, whole process: %s" % ms(busctl))
    print("command: swift build -c release --product tilt-cli && /usr/bin/python3 "
          "Benchmarks/service_cost.py")


if __name__ == "__main__":
    main()
