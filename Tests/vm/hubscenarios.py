"""Scenarios of the one device hub and its profile, on the guest's kernel.
scenarios.py registers them (register()); they use its helpers through the
module it passes (S).

50. A udev ACCEL_MOUNT_MATRIX on an evdev IMU: the bias `calibrate` stores is
    the one `live` removes (both read the node through the one profile).
51. `tilt-cli service --dsu` (contract §8) with a DualSense on hid-playstation,
    read by busclient.py (a client written from §8) and dsuclient.py at once:
    no claim, no node and no wake-ups; a claim opens the node within 0.5 s;
    a D-Bus claim and a DSU subscription hold one descriptor on it, and the
    Motion signals carry the DSU values of the same samples (one bias); a
    release closes it within 1 s; unplug: DeviceRemoved; replug: DeviceAdded
    with the same path; SIGTERM exits 0.
52. The same on the HID sensor hub's IIO device (hid-sensor-hub), without
    the replug (its identity is its sysfs directory).
"""

import json
import math
import os
import tempfile
import threading
import time

import busclient
import dsuclient
import vmdevices as dev

DEVICE = busclient.DEVICE_INTERFACE

S = None  # scenarios.py, the module that runs these

# Card axes from device axes, udev's "a,b,c; d,e,f; g,h,i" rows: card x = device y,
# card y = -device x, card z = device z. It replaces the DualSense layout (x, -z, y).
MOUNT = ((0, 1, 0), (-1, 0, 0), (0, 0, 1))
MOUNT_TEXT = "0, 1, 0; -1, 0, 0; 0, 0, 1"


def _apply(m, v):
    return tuple(sum(m[r][c] * v[c] for c in range(3)) for r in range(3))


def _udev_entry(node, properties):
    """Writes the udev database entry of `node` (the guest runs no udev)."""
    rdev = os.stat(node).st_rdev
    folder = "/run/udev/data"
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "c%d:%d" % (os.major(rdev), os.minor(rdev)))
    with open(path, "w") as f:
        f.write("".join("E:%s=%s\n" % kv for kv in properties.items()))
    return path


def s50_mount_matrix_calibrate_live():
    """calibrate and live of an IMU with udev's ACCEL_MOUNT_MATRIX: the stored
    bias is in the frame live reads, so live's first rotation rates are ~0."""
    bias = (0.8, -0.5, 0.3)  # deg/s, what the DualSense layout would call card axes
    device_bias = dev.ps_remap(bias)
    expected = _apply(MOUNT, device_bias)  # the bias in the mounted card frame
    up = dev.up_vector(10, -5)
    ui = dev.dualsense_motion()
    node = dev.node_of(ui)
    entry = _udev_entry(node, {"ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1",
                               "ACCEL_MOUNT_MATRIX": MOUNT_TEXT})
    stop = threading.Event()
    state = tempfile.mkdtemp(prefix="tilt-state-")
    player = None
    try:
        m = dev.Motion(ui, 250, res=dev.DS_ACCEL_RES, seed=50, remap=dev.ps_remap,
                       timestamps=True, gyro_res=dev.DS_GYRO_RES)
        player = S._play_in_background(m, lambda m, i: m.frame(up, bias), stop)
        r = S._calibrate(node, state)
        S.check(r.returncode == 0, "calibrate exited %d: %s" % (r.returncode, r.stderr[-400:]))
        stored = json.loads(r.stdout)["bias"]
        err = max(abs(a - b) for a, b in zip(stored, expected))
        S.check(err < 0.05, "calibrate stored %s deg/s; in the mounted frame the bias is %s (unmounted %s)"
                % (stored, expected, bias))
        worst = S._live_first_rates(node, state, "s50-live.txt")
        S.check(worst < 0.2, "live's first rotation rates reach %.3f deg/s: the stored bias %s is not the one "
                "it reads (%s)" % (worst, stored, expected))
    finally:
        stop.set()
        if player:
            player.join()
        ui.close()
        os.remove(entry)
    S.FIGURES.append("scenario 50 (mount matrix %s): calibrate stored %s deg/s (expected %s, off %.3f); "
                     "live's first 25 rates ≤ %.3f deg/s" % (MOUNT_TEXT, stored, expected, err, worst))
    return "stored %s deg/s = the mounted bias within %.3f; live's first rates ≤ %.3f deg/s" % (
        [round(x, 3) for x in stored], err, worst)


def _served(bus, dsu_port, name):
    """`tilt-cli service --dsu` on the private bus, once it says it serves."""
    saved = dict(os.environ)
    os.environ.update(bus.env())
    try:
        proc = S.Watched(S.cli("service", "--dsu", "127.0.0.1:%d" % dsu_port), S.log(name))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    deadline = time.monotonic() + 30
    while not any("serving motion on the session bus as org.tilt.Motion1" in line for line in proc.err):
        if proc.proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.save_log()
            raise S.Failure("tilt-cli service did not say it serves: " + proc.describe_exit())
        time.sleep(0.05)
    return proc


def _descriptors_on(proc, node):
    """How many of the process's descriptors are the device node."""
    rdev = os.stat(node).st_rdev
    count = 0
    for fd in os.listdir("/proc/%d/fd" % proc.pid):
        try:
            st = os.stat("/proc/%d/fd/%s" % (proc.pid, fd))
        except OSError:
            continue
        if st.st_rdev == rdev and (st.st_mode & 0o170000) == 0o020000:
            count += 1
    return count


def _wait(predicate, timeout, step=0.005):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        time.sleep(step)
    return None


def _device_path(client, node, timeout=10):
    """The object path of the device whose Node is `node`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for path in client.list_devices():
            if client.get(path, DEVICE, "Node") == node:
                return path
        time.sleep(0.1)
    raise S.Failure("no device of ListDevices has Node %s" % node)


def _service_on(number, device, replug):
    """Scenarios 51 and 52 on `device` (dsuscenarios' _Pad or _Hub)."""
    import dsuscenarios as D

    S._loopback_up()
    bus = busclient.PrivateBus()
    port = D._free_port()
    stop, player = D._playing(device)
    proc = None
    figures = {}
    try:
        proc = _served(bus, port, "s%d-service.txt" % number)
        client = busclient.Client(bus.address)
        client.watch_manager()
        path = _device_path(client, device.node)
        S.check(client.get(path, DEVICE, "Kind") == "imu" and client.get(path, DEVICE, "HasGyroscope") is True,
                "%s: Kind %r, HasGyroscope %r" % (path, client.get(path, DEVICE, "Kind"), client.get(path, DEVICE, "HasGyroscope")))
        time.sleep(1.0)
        S.check(not proc.holds(device.node), "%s is open with no claim" % device.node)
        v0, _, _ = proc.context_switches()
        time.sleep(5)
        v1, _, _ = proc.context_switches()
        figures["idle"] = v1 - v0
        S.check(figures["idle"] <= 15, "no claim: %d context switches in 5 s" % figures["idle"])
        S.check(client.get(path, DEVICE, "Claimed") is False and client.get(path, DEVICE, "Rate") == 0.0,
                "no claim: Claimed %r, Rate %r" % (client.get(path, DEVICE, "Claimed"), client.get(path, DEVICE, "Rate")))

        asked = time.monotonic()
        client.claim(path, 0.01)
        figures["opened"] = _wait(lambda: proc.holds(device.node), 3)
        S.check(figures["opened"] is not None and figures["opened"] <= 0.5,
                "a claim opened the node after %s s" % figures["opened"])
        # The DSU client subscribes beside the claim: one device, one descriptor, one bias.
        dsu = dsuclient.Client(port)
        packets = []
        t = threading.Thread(target=lambda: packets.extend(dsu.pad_data(4.0)), daemon=True)
        t.start()
        time.sleep(1.0)
        figures["descriptors"] = _descriptors_on(proc, device.node)
        client.collect(3.0)
        t.join(10)
        S.check(figures["descriptors"] == 1, "a D-Bus claim and a DSU subscription hold %d descriptors on %s"
                % (figures["descriptors"], device.node))
        motions = client.motions()
        S.check(len(motions) > 150, "%d Motion signals in 3 s at a 0.01 s interval" % len(motions))
        gyro_by_time = {p["timestamp"]: p["gyro"] for _, p in packets}
        worst, matched = 0.0, 0
        for m in motions:
            stamp, rate = m[1], m[4]
            if stamp not in gyro_by_time:
                continue
            matched += 1
            deg = [x * 180 / math.pi for x in rate]
            dsu_axes = (deg[0], -deg[2], deg[1])  # contract §7: (x, -z, y)
            worst = max(worst, max(abs(a - b) for a, b in zip(dsu_axes, gyro_by_time[stamp])))
        figures["matched"], figures["worst"] = matched, worst
        S.check(matched > 100, "%d Motion signals share a timestamp with a DSU packet (of %d and %d)"
                % (matched, len(motions), len(packets)))
        S.check(worst < 1e-3, "the same sample's rotation rate differs by %.5f deg/s between D-Bus and DSU" % worst)
        rest = max(max(abs(x) * 180 / math.pi for x in m[4]) for m in motions[-50:])
        gravity = motions[-1][3]
        S.check(rest < 0.1, "at rest with the bias removed the rotation rate reaches %.3f deg/s" % rest)
        S.check(abs(gravity[2] + 1) < 0.02, "face up, gravity %s (expected (0, 0, -1))" % (gravity,))
        bias = client.get(path, DEVICE, "GyroscopeBias")
        S.check(client.get(path, DEVICE, "Claimed") is True, "Claimed is not true under a claim")
        client.release(path)
        released = time.monotonic()
        time.sleep(6)  # the DSU subscription lapses 5 s after its last request
        figures["closed"] = _wait(lambda: not proc.holds(device.node), 3)
        figures["closed_after_release"] = time.monotonic() - released if figures["closed"] is not None else None
        S.check(figures["closed"] is not None, "the node stayed open after the release and the DSU lapse")
        # A claim and release alone: closed within 1 s.
        client.claim(path, 0.05)
        S.check(_wait(lambda: proc.holds(device.node), 0.5) is not None, "a second claim did not open the node")
        client.release(path)
        figures["release"] = _wait(lambda: not proc.holds(device.node), 3)
        S.check(figures["release"] is not None and figures["release"] <= 1.0,
                "a release closed the node after %s s" % figures["release"])

        if replug:
            uniq = device.uniq
            stop.set()
            player.join(10)
            device.destroy()
            client.collect(3.0)
            removed = [b[0] for _, b in client.named("DeviceRemoved")]
            S.check(path in removed, "unplugged: DeviceRemoved %s, expected %s" % (removed, path))
            device = D._Pad(S._vmhid().DualSense, uniq=uniq)
            stop, player = D._playing(device)
            client.collect(4.0)
            added = [b[0] for _, b in client.named("DeviceAdded")]
            S.check(path in added, "replugged (uniq %s): DeviceAdded %s, expected %s" % (uniq, added, path))
        proc.proc.send_signal(S.signal.SIGTERM)
        rc = proc.wait_exit(10)
        proc.save_log()
        S.check(rc == 0, "SIGTERM: exit %s" % rc)
        proc = None
        client.close()
    finally:
        stop.set()
        player.join(10)
        if proc:
            proc.kill()
            proc.save_log()
        device.destroy()
        bus.stop()
    S.FIGURES.append(
        "scenario %d (service, %s): no claim %d context switches in 5 s; claim opened in %.3f s; "
        "D-Bus + DSU %d descriptor(s); %d samples matched, worst rate difference %.2g deg/s; "
        "release closed in %.3f s; bias %s" % (
            number, device.kind, figures["idle"], figures["opened"], figures["descriptors"], figures["matched"],
            figures["worst"], figures["release"], tuple(round(x, 3) for x in bias)))
    return "idle %d switches/5 s; open %.3f s; 1 descriptor for D-Bus + DSU; %d samples equal to DSU's (≤ %.1g); " \
        "closed %.3f s after release%s" % (figures["idle"], figures["opened"], figures["matched"], figures["worst"],
                                           figures["release"], "; replug: same path" if replug else "")


def s51_service_dualsense():
    import dsuscenarios as D

    return _service_on(51, D._Pad(S._vmhid().DualSense), replug=True)


def s52_service_sensor_hub():
    import dsuscenarios as D

    return _service_on(52, D._Hub(), replug=False)


def register(module):
    global S
    S = module
    module.SCENARIOS.append(
        (50, "udev ACCEL_MOUNT_MATRIX on an IMU: the bias calibrate stores is the one live removes",
         s50_mount_matrix_calibrate_live))
    module.SCENARIOS.extend([
        (51, "service --dsu on hid-playstation: idle, claim, one descriptor and one bias with DSU, release, "
         "unplug and replug", s51_service_dualsense),
        (52, "service --dsu on the HID sensor hub's IIO device: idle, claim, one descriptor and one bias with DSU, "
         "release", s52_service_sensor_hub),
    ])
