"""Scenario 40: `tilt-cli dsu`'s latency from the kernel event to the
pad-data datagram, beside a bare C libevdev → UDP loop (evdev-udp-floor.c) in
the same run, and the CPU and wake-ups of each while serving. Registered by
dsuscenarios.register(); S is scenarios.py.
"""

import math
import os
import struct
import threading
import time

import vmdevices as dev

S = None  # scenarios.py, the module that runs this

UDP_FLOOR = "Tests/vm/cache/evdev-udp-floor"  # Tests/vm/evdev-udp-floor.c, built by Tests/vm/run
LATENCY_SAMPLES = 300
LATENCY_RATE_HZ = 100


def _marked_up(i):
    """An up vector that names sample i (mod 100) by its card x."""
    x = 0.004 * (i % 100)
    return (x, 0.0, math.sqrt(1 - x * x))


def _latency_dsu(parts):
    """Kernel SYN_REPORT time → pad-data datagram arrival (CLOCK_REALTIME) for
    tilt-cli dsu, and its CPU and wake-ups over the played samples."""
    from dsuscenarios import Served  # the module that registers this one
    ui = dev.dualsense_motion()
    node = dev.node_of(ui)
    capture = S.EventCapture(dev.open_reader(node))
    server = None
    try:
        server = Served("s40-dsu-%d.txt" % parts)
        client = server.client()
        m = dev.Motion(ui, LATENCY_RATE_HZ, res=dev.DS_ACCEL_RES, seed=40, remap=dev.ps_remap, timestamps=True,
                       gyro_res=dev.DS_GYRO_RES)
        received = []
        t = threading.Thread(target=lambda: received.extend(client.pad_data(LATENCY_SAMPLES / LATENCY_RATE_HZ + 3)),
                             daemon=True)
        t.start()
        for i in range(50):
            m.frame(_marked_up(0))  # the open and the first samples
        base = capture.reports()
        c0, (w0, _, _) = server.proc.cpu_ticks(), server.proc.context_switches()
        t0 = time.monotonic()
        for i in range(1, LATENCY_SAMPLES + 1):
            m.frame(_marked_up(i))
        seconds = time.monotonic() - t0
        cpu = (server.proc.cpu_ticks() - c0) / os.sysconf("SC_CLK_TCK") / seconds
        wakes = (server.proc.context_switches()[0] - w0) / seconds
        t.join(30)
        rc = server.stop()
        server = None
    finally:
        if server:
            server.kill()
        events = capture.stop()
        ui.close()
    S.check(rc == 0, "dsu did not exit 0 (%s)" % rc)
    kernel = []  # (time, mark)
    x = None
    for ev in events:
        if ev.type == S.e.EV_ABS and ev.code == S.e.ABS_X:
            x = ev.value
        if ev.type == S.e.EV_SYN and ev.code == S.e.SYN_REPORT:
            kernel.append((ev.sec + ev.usec / 1e6, round((x or 0) / dev.DS_ACCEL_RES / 0.004)))
    kernel = kernel[base:]
    lat = []
    for arrival, p in received:
        mark = round(-p["accel"][0] / 0.004)  # DSU X = −a_x
        earlier = [k for k, mk in kernel if mk == mark and k <= arrival]
        if earlier and mark != 0:
            lat.append((arrival - earlier[-1]) * 1000)
    return lat, cpu, wakes


def _latency_c(parts):
    """The same for the bare C libevdev → UDP loop (one datagram per SYN_REPORT)."""
    import socket
    ui = dev.dualsense_motion()
    node = dev.node_of(ui)
    capture = S.EventCapture(dev.open_reader(node))
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    reader = S.Watched([os.path.abspath(UDP_FLOOR), node, "127.0.0.1", str(sock.getsockname()[1])],
                       S.log("s40-c-%d.txt" % parts))
    received = []

    def receive():
        sock.settimeout(LATENCY_SAMPLES / LATENCY_RATE_HZ + 3)
        try:
            while True:
                data = sock.recv(64)
                received.append((time.clock_gettime(time.CLOCK_REALTIME), data))
        except OSError:
            return

    try:
        reader.wait_open(node)
        m = dev.Motion(ui, LATENCY_RATE_HZ, res=dev.DS_ACCEL_RES, seed=41, remap=dev.ps_remap, timestamps=True,
                       gyro_res=dev.DS_GYRO_RES)
        t = threading.Thread(target=receive, daemon=True)
        t.start()
        for i in range(50):
            m.frame(_marked_up(0))
        c0, (w0, _, _) = reader.cpu_ticks(), reader.context_switches()
        t0 = time.monotonic()
        for i in range(1, LATENCY_SAMPLES + 1):
            m.frame(_marked_up(i))
        seconds = time.monotonic() - t0
        cpu = (reader.cpu_ticks() - c0) / os.sysconf("SC_CLK_TCK") / seconds
        wakes = (reader.context_switches()[0] - w0) / seconds
        time.sleep(0.5)
        sock.close()
        t.join(10)
        reader.interrupt()
    finally:
        reader.kill()
        reader.save_log()
        capture.stop()
        ui.close()
    lat = []
    for arrival, data in received[50:]:
        sec, usec = struct.unpack("<qq", data[:16])
        lat.append((arrival - (sec + usec / 1e6)) * 1000)
    return lat, cpu, wakes


def s40_latency_cpu():
    """Kernel event → datagram: tilt-cli dsu (a DualSense-like IMU at 100 Hz,
    each sample marked by its accelerometer x) beside the bare C libevdev →
    UDP loop, in turns; and CPU seconds per second while serving."""
    S.check(os.access(UDP_FLOOR, os.X_OK), "%s is missing: Tests/vm/run builds it" % UDP_FLOOR)
    pooled = {"dsu": [], "c": []}
    cpu = {"dsu": [], "c": []}
    wakes = {"dsu": [], "c": []}
    for part in range(2):
        order = (("dsu", _latency_dsu), ("c", _latency_c))
        for label, fn in (order if part == 0 else order[::-1]):
            lat, c, w = fn(part)
            pooled[label] += lat
            cpu[label].append(c)
            wakes[label].append(w)
    for label in pooled:
        pooled[label].sort()
    S.check(len(pooled["dsu"]) > LATENCY_SAMPLES, "dsu: %d datagrams matched to samples" % len(pooled["dsu"]))
    S.check(len(pooled["c"]) > LATENCY_SAMPLES, "C loop: %d datagrams" % len(pooled["c"]))
    pct = S._percentile
    d, c = pooled["dsu"], pooled["c"]
    S.FIGURES.append(
        "scenario 40 (latency, kernel SYN_REPORT time → datagram arrival, %d Hz, 2 turns each): tilt-cli dsu p50 %.3f "
        "ms, p99 %.3f ms (%d datagrams); bare C libevdev → UDP loop p50 %.3f ms, p99 %.3f ms (%d); p50 %.2f × C's; "
        "CPU while serving %d Hz: dsu %.3f s/s, C loop %.3f s/s; voluntary context switches a second: dsu %.1f, "
        "C loop %.1f" % (
            LATENCY_RATE_HZ, pct(d, 50), pct(d, 99), len(d), pct(c, 50), pct(c, 99), len(c), pct(d, 50) / pct(c, 50),
            LATENCY_RATE_HZ, sum(cpu["dsu"]) / 2, sum(cpu["c"]) / 2, sum(wakes["dsu"]) / 2, sum(wakes["c"]) / 2))
    return "dsu p50 %.2f ms p99 %.2f ms; C p50 %.2f ms p99 %.2f ms; CPU dsu %.3f s/s, C %.3f s/s" % (
        pct(d, 50), pct(d, 99), pct(c, 50), pct(c, 99), sum(cpu["dsu"]) / 2, sum(cpu["c"]) / 2)


def register(module):
    """Adds scenario 40 to scenarios.py's list; module is scenarios.py itself."""
    global S
    S = module
    module.SCENARIOS.append(
        (40, "dsu latency kernel event → datagram beside a C libevdev → UDP loop; CPU while serving",
         s40_latency_cpu))
