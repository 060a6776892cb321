"""The scenarios of `tilt-cli dsu` (contract §7) on the guest's real drivers,
with the DSU client of dsuclient.py. scenarios.py registers them (register());
they use its helpers through the module it passes (S).

37. Values on each family (DualSense, DualShock 4, Switch Pro, left Joy-Con,
    HID sensor hub): port info, rest, turns about each card axis, timestamps.
38. Lifecycle: unsubscribed no node open and 0 wake-ups; subscribed open
    within 0.5 s; lapsed closed within 6 s.
39. Two pads, two slots; unplug one: disconnected; replug: the same slot.
41. Accelerometers without a gyroscope (uinput, a sensor hub) and a joystick;
    `--device`.
(40, the latency and CPU beside a bare C loop, is in dsulatency.py.)
"""

import os
import re
import tempfile
import threading
import time

import dsuclient
import dsulatency
import vmdevices as dev

S = None  # scenarios.py, the module that runs these

TURN_DPS = 30.0
BIAS_DPS = (0.8, -0.5, 0.3)  # the gyroscope bias played, card frame; `calibrate` measures it first
PAD_RATE_HZ = 200  # the PlayStation controllers' reports, and the Nintendo samples (3 per 15 ms report)
HUB_PERIOD_S = 0.01


def _dsu_axes(a, w):
    """contract §7: card-frame a (g) and ω (deg/s) in DSU axes."""
    return (-a[0], -a[2], a[1]), (w[0], -w[2], w[1])


class Served:
    """`tilt-cli dsu` on a free port of 127.0.0.1, its stderr watched."""

    def __init__(self, name, args=(), env=None):
        S._loopback_up()
        port = _free_port()
        saved = dict(os.environ)
        os.environ.update(env or {})
        try:
            self.proc = S.Watched(S.cli("dsu", "--listen", "127.0.0.1:%d" % port, *args), S.log(name))
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.port = port
        deadline = time.monotonic() + 30
        while not any("serving DSU on udp://127.0.0.1:%d" % port in line for line in self.proc.err):
            if self.proc.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                self.proc.save_log()
                raise S.Failure("tilt-cli dsu did not say 'serving DSU on udp://127.0.0.1:%d': %s" % (
                    port, self.proc.describe_exit()))
            time.sleep(0.05)

    def client(self):
        return dsuclient.Client(self.port)

    def stop(self):
        rc = self.proc.interrupt()
        self.proc.save_log()
        return rc

    def kill(self):
        self.proc.kill()
        self.proc.save_log()


def _free_port():
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# -- the devices, as one interface: node, frame(up, rate) paced, period ---------
class _Pad:
    """A controller of vmhid.py played sample by sample."""

    def __init__(self, cls, uniq=None):
        self.dev = cls(uniq=uniq) if uniq else cls()
        self.player = self.dev.player() if isinstance(self.dev, S._vmhid().SwitchPro) else self.dev.player(PAD_RATE_HZ)
        self.period_us = 1e6 / PAD_RATE_HZ
        self.kind = cls.kind
        self.node = self.dev.motion_node
        self.uniq = next(n["uniq"] for n in self.dev.nodes().values() if n["node"] == self.node)
        self.usb = True

    def battery(self):
        """(capacity, status) of the power_supply the driver made for the pad, or None."""
        for d in sorted(self.dev.sys_path.glob("power_supply/*")):
            read = lambda f: (d / f).read_text().strip() if (d / f).exists() else ""
            return read("capacity"), read("status")
        return None

    def frame(self, up, rate):
        self.player.frame(up, rate)

    def destroy(self):
        self.dev.destroy()


class _Hub:
    """The emulated HID sensor hub (accelerometer and gyroscope: one slot)."""

    kind = "HID sensor hub"

    def __init__(self):
        self.dev = S._sensorhub().SensorHub(name="tilt dsu sensor hub")
        self.node = self.dev.accel_node
        self.period_us = HUB_PERIOD_S * 1e6
        self.uniq = ""
        self.usb = False
        self.next_t = None

    def battery(self):
        return None

    def frame(self, up, rate):
        now = time.monotonic()
        if self.next_t is None or now - self.next_t > 0.1:
            self.next_t = now
        if self.next_t > now:
            time.sleep(self.next_t - now)
        self.next_t += HUB_PERIOD_S
        self.dev.report(up, rate, HUB_PERIOD_S)

    def destroy(self):
        self.dev.destroy()


def _biased(rate):
    return tuple(r + b for r, b in zip(rate, BIAS_DPS))


def _hold(device, up, seconds):
    n = max(1, int(round(seconds * 1e6 / device.period_us)))
    for _ in range(n):
        device.frame(up, _biased((0.0, 0.0, 0.0)))


def _playing(device):
    """Holds device still, face up, on a thread until the returned event is
    set; returns (event, thread)."""
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            _hold(device, (0.0, 0.0, 1.0), 0.1)

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return stop, t


def _turn(device, axis, sign, seconds):
    """Turns at sign·30 deg/s about card axis 0 (x) or 1 (y) or 2 (z) for
    seconds, from flat (sign +) or back to flat (sign −); the up vector
    follows (about x: up_vector(θ, 0); about y: up_vector(0, θ))."""
    n = max(1, int(round(seconds * 1e6 / device.period_us)))
    top = TURN_DPS * seconds
    for i in range(1, n + 1):
        theta = top * i / n if sign > 0 else top * (n - i) / n
        up = dev.up_vector(theta, 0) if axis == 0 else dev.up_vector(0, theta) if axis == 1 else (0.0, 0.0, 1.0)
        rate = [0.0, 0.0, 0.0]
        rate[axis] = sign * TURN_DPS
        device.frame(up, _biased(rate))


class _Collector:
    """Pad data on a thread, the subscription renewed every second."""

    def __init__(self, client, seconds, slot=None):
        self.packets = []
        self._thread = threading.Thread(target=lambda: self.packets.extend(client.pad_data(seconds, slot=slot)),
                                        daemon=True)
        self._thread.start()

    def join(self):
        self._thread.join(60)
        return self.packets


def _runs(packets):
    """(dsu gyroscope axis, sign, packets) of the stretches turning faster than 15 deg/s about one axis."""
    runs = []
    for arrival, p in packets:
        g = p["gyro"]
        m = max(abs(x) for x in g)
        if m <= 15:
            runs.append(None)
            continue
        axis = [abs(x) for x in g].index(m)
        key = (axis, 1 if g[axis] > 0 else -1)
        if runs and runs[-1] and runs[-1][0] == key:
            runs[-1][1].append(p)
        else:
            runs.append((key, [p]))
    return [r for r in runs if r]


_NAMES = ("pitch", "yaw", "roll")


def _values(n, device_cls_name):
    """Scenario 37 for one device: calibrate, serve, check port info, play
    rest and turns while a client subscribes, check the values."""
    vmhid = S._vmhid()
    device = _Hub() if device_cls_name == "hub" else _Pad(getattr(vmhid, device_cls_name))
    state = tempfile.mkdtemp(prefix="tilt-state-")
    server = None
    try:
        # Calibrate the still device with its bias (as a user would, once).
        stop, t = _playing(device)
        try:
            r = S._calibrate(device.node, state, seconds=2)
        finally:
            stop.set()
            t.join(10)
        with open(S.log("s%d-%s-calibrate.txt" % (n, device_cls_name)), "w") as f:
            f.write("exit %d\n%s\n%s" % (r.returncode, r.stderr, r.stdout))
        S.check(r.returncode == 0, "%s: calibrate exited %d: %s" % (device.kind, r.returncode, r.stderr[-300:]))
        server = Served("s%d-%s-dsu.txt" % (n, device_cls_name), env={"XDG_STATE_HOME": state})
        client = server.client()
        info = client.port_info()
        S.check(sorted(info) == [0, 1, 2, 3], "%s: port info answered slots %s" % (device.kind, sorted(info)))
        S.check(info[0]["state"] == 2 and info[0]["model"] == 2,
                "%s: slot 0 is %s (want state 2, model 2)" % (device.kind, info[0]))
        S.check(all(info[s]["state"] == 0 for s in (1, 2, 3)),
                "%s: one device, one slot (the gamepad node is no slot); port info %s" % (
                    device.kind, {s: info[s]["state"] for s in info}))
        if device.usb:
            S.check(info[0]["connection"] == 1, "%s on USB: connection %d" % (device.kind, info[0]["connection"]))
        if device.uniq and re.fullmatch(r"([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}", device.uniq):
            mac = bytes.fromhex(device.uniq.replace(":", ""))
            S.check(info[0]["mac"] in (mac, mac[::-1]), "%s: MAC %s, uniq %s" % (
                device.kind, info[0]["mac"].hex(":"), device.uniq))
        battery = device.battery()
        if battery:
            S.check(info[0]["battery"] != 0, "%s: its driver's power_supply says capacity %r, status %r; port "
                    "info's battery is 0 (not applicable)" % (device.kind, battery[0], battery[1]))
        S.FIGURES.append("scenario %d %s: port info %s (power_supply %s)" % (
            n, device.kind, {k: (v.hex(":") if isinstance(v, bytes) else v) for k, v in info[0].items()}, battery))
        S.check(not server.proc.holds(device.node), "%s: %s is open with no subscriber" % (device.kind, device.node))
        # Subscribed: rest, then a turn about each card axis and back, rest.
        rest_s, turn_s, pause_s = 1.5, 1.0, 0.4
        total = 0.6 + rest_s + 3 * (2 * turn_s + 2 * pause_s) + rest_s + 0.5
        collector = _Collector(client, total)
        # A second client subscribes by the slot's MAC, where it has one.
        by_mac = []
        mac_thread = None
        if info[0]["mac"] != bytes(6):
            mac_client = server.client()
            mac_thread = threading.Thread(
                target=lambda: by_mac.extend(mac_client.pad_data(2.0, mac=info[0]["mac"])), daemon=True)
            mac_thread.start()
        _hold(device, (0.0, 0.0, 1.0), 0.6)  # the device opens: its first samples
        rest_windows = []
        t0 = time.clock_gettime(time.CLOCK_REALTIME)
        _hold(device, (0.0, 0.0, 1.0), rest_s)
        rest_windows.append((t0 + 0.5, time.clock_gettime(time.CLOCK_REALTIME) - 0.05))
        for axis in range(3):
            _turn(device, axis, 1, turn_s)
            _hold(device, dev.up_vector(TURN_DPS * turn_s, 0) if axis == 0 else
                  dev.up_vector(0, TURN_DPS * turn_s) if axis == 1 else (0.0, 0.0, 1.0), pause_s)
            _turn(device, axis, -1, turn_s)
            _hold(device, (0.0, 0.0, 1.0), pause_s)
        t1 = time.clock_gettime(time.CLOCK_REALTIME)
        _hold(device, (0.0, 0.0, 1.0), rest_s)
        rest_windows.append((t1 + 0.5, time.clock_gettime(time.CLOCK_REALTIME) - 0.05))
        packets = collector.join()
        if mac_thread:
            mac_thread.join(30)
        rc = server.stop()
        server = None
    finally:
        if server:
            server.kill()
        device.destroy()
    S.check(rc == 0, "%s: dsu did not exit 0 on SIGINT (%s)" % (device.kind, rc))
    S.check(len(packets) > 200, "%s: %d pad-data packets" % (device.kind, len(packets)))
    numbers = [p["packet"] for _, p in packets]
    S.check(numbers == list(range(len(numbers))), "%s: packet numbers %s… not 0, 1, 2, …" % (device.kind, numbers[:5]))
    if info[0]["mac"] != bytes(6):
        S.check(len(by_mac) > 100 and [p["packet"] for _, p in by_mac[:3]] == [0, 1, 2],
                "%s: subscribed by its MAC %s: %d packets, numbered %s" % (
                    device.kind, info[0]["mac"].hex(":"), len(by_mac), [p["packet"] for _, p in by_mac[:3]]))
    # Rest: (0, −1, 0) g within 0.02, |gyro| under 0.1 deg/s (after calibration).
    rest = [p for arrival, p in packets if any(a <= arrival <= b for a, b in rest_windows)]
    S.check(len(rest) > 50, "%s: %d packets at rest" % (device.kind, len(rest)))
    worst_a = max(max(abs(x - y) for x, y in zip(p["accel"], (0.0, -1.0, 0.0))) for p in rest)
    worst_g = max(max(abs(x) for x in p["gyro"]) for p in rest)
    # Turns: the contract §7 axis and sign, 30 deg/s within 5 %.
    want = []
    for axis in range(3):
        for sign in (1, -1):
            a, w = _dsu_axes((0, 0, 1), [sign * TURN_DPS if i == axis else 0.0 for i in range(3)])
            k = [abs(x) for x in w].index(TURN_DPS)
            want.append((k, 1 if w[k] > 0 else -1))
    runs = [(key, ps) for key, ps in _runs(packets) if len(ps) >= 10]
    got = [key for key, _ in runs]
    S.check(got == want, "%s: turns came out as %s, want %s (DSU pitch, yaw, roll)" % (
        device.kind, ["%+d %s" % (s, _NAMES[k]) for k, s in got], ["%+d %s" % (s, _NAMES[k]) for k, s in want]))
    worst_turn = 0.0
    worst_cross = 0.0
    for (k, s), ps in runs:
        inner = ps[3:-3]
        mean = sum(p["gyro"][k] for p in inner) / len(inner)
        worst_turn = max(worst_turn, abs(abs(mean) - TURN_DPS) / TURN_DPS)
        worst_cross = max(worst_cross, max(abs(p["gyro"][j]) for p in inner for j in range(3) if j != k))
    # Timestamps at the device's pace.
    steps = sorted(b["timestamp"] - a["timestamp"] for (_, a), (_, b) in zip(packets, packets[1:]))
    median = steps[len(steps) // 2]
    S.FIGURES.append("scenario %d %s: %d packets; rest accelerometer worst %.4f g off (0, -1, 0), gyroscope worst "
                     "%.4f deg/s after calibrating a (%.1f, %.1f, %.1f) deg/s bias; turns at 30 deg/s worst %.2f %% "
                     "off, cross-axis worst %.3f deg/s; median timestamp step %d µs (device %.0f µs)" % (
                         n, device.kind, len(packets), worst_a, worst_g, BIAS_DPS[0], BIAS_DPS[1], BIAS_DPS[2],
                         100 * worst_turn, worst_cross, median, device.period_us))
    S.check(worst_a <= 0.02, "%s at rest: accelerometer %.4f g from (0, -1, 0)" % (device.kind, worst_a))
    S.check(worst_g < 0.1, "%s at rest after calibration: gyroscope %.4f deg/s" % (device.kind, worst_g))
    S.check(worst_turn <= 0.05 and worst_cross <= 0.05 * TURN_DPS,
            "%s: a 30 deg/s turn came out %.2f %% off, %.3f deg/s on another axis" % (
                device.kind, 100 * worst_turn, worst_cross))
    S.check(abs(median / device.period_us - 1) <= 0.02,
            "%s: median timestamp step %d µs, the device's %.0f µs" % (device.kind, median, device.period_us))
    return "%s: rest %.3f g / %.3f deg/s, turns %.1f %% (cross %.2f deg/s), step %d µs" % (
        device.kind, worst_a, worst_g, 100 * worst_turn, worst_cross, median)


def s37_values():
    """Every family through its real driver: port info of one slot, rest
    (0, −1, 0) g and under 0.1 deg/s after calibration, a 30 deg/s turn about
    each card axis on contract §7's axis and sign within 5 %, timestamps at the
    device's pace."""
    results, failures = [], []
    for name in ("DualSense", "DualShock4", "SwitchPro", "LeftJoyConGrip", "hub"):
        try:
            results.append(_values(37, name))
        except S.Failure as f:
            failures.append(str(f))
    if failures:
        raise S.Failure("; ".join(failures) + (" (passed: %s)" % "; ".join(results) if results else ""))
    return "; ".join(results)


def s38_lifecycle():
    """A DualSense on hid-playstation, sending all along: no subscriber, no
    node open and 0 wake-ups in 5 s; a subscription opens it within 0.5 s;
    5 s after the last request it is closed within 6 s, and 0 wake-ups again."""
    pad = _Pad(S._vmhid().DualSense)
    server = None
    stop, t = _playing(pad)
    try:
        server = Served("s38-dsu.txt")
        client = server.client()
        info = client.port_info([0])
        S.check(info.get(0, {}).get("state") == 2, "port info of slot 0: %s" % info.get(0))
        time.sleep(1.0)
        S.check(not server.proc.holds(pad.node), "%s is open with no subscriber" % pad.node)
        v0, _, _ = server.proc.context_switches()
        time.sleep(5)
        v1, _, _ = server.proc.context_switches()
        idle_wakes = v1 - v0
        held_idle = server.proc.holds(pad.node)
        got = []
        asked = time.monotonic()
        # One request only: the subscription lapses 5 s after `asked`.
        collector = threading.Thread(target=lambda: got.extend(client.pad_data(1.0, renew=None)), daemon=True)
        collector.start()
        opened = None
        while time.monotonic() - asked < 3:
            if server.proc.holds(pad.node):
                opened = time.monotonic() - asked
                break
            time.sleep(0.005)
        collector.join(10)
        closed = None
        while time.monotonic() - asked < 15:
            if not server.proc.holds(pad.node):
                closed = time.monotonic() - asked
                break
            time.sleep(0.02)
        time.sleep(0.5)
        v2, _, _ = server.proc.context_switches()
        time.sleep(5)
        v3, _, _ = server.proc.context_switches()
        lapsed_wakes = v3 - v2
        rc = server.stop()
        server = None
    finally:
        stop.set()
        t.join(10)
        if server:
            server.kill()
        pad.destroy()
    S.FIGURES.append("scenario 38 (dsu lifecycle, DualSense sending at %d Hz): wake-ups in 5 s unsubscribed %d; opened "
                     "%.3f s after the request; closed %.2f s after it; wake-ups in 5 s lapsed %d" % (
                         PAD_RATE_HZ, idle_wakes, opened if opened is not None else -1,
                         closed if closed is not None else -1, lapsed_wakes))
    S.check(not held_idle and idle_wakes == 0,
            "unsubscribed: node %s, %d wake-ups in 5 s" % ("open" if held_idle else "closed", idle_wakes))
    S.check(opened is not None and opened <= 0.5, "subscribed: the node opened after %s s" % opened)
    S.check(len(got) > 50, "subscribed: %d packets in 1 s" % len(got))
    S.check(closed is not None and closed <= 6.0, "lapsed: the node closed %s s after the last request" % closed)
    S.check(lapsed_wakes == 0, "lapsed: %d wake-ups in 5 s" % lapsed_wakes)
    S.check(rc == 0, "dsu did not exit 0 on SIGINT (%s)" % rc)
    return "unsubscribed 0 wake-ups, closed; opened in %.3f s; lapsed and closed %.2f s after the request; 0 wake-ups" % (
        opened, closed)


def s39_two_pads_hotplug():
    """A DualSense and a DualShock 4: two slots; one slot subscribed opens
    that pad's node alone; the DualShock 4 unplugged:
    its slot disconnected, the other still connected; plugged in again (same
    uniq): the same slot, connected, and its pad data flows again."""
    vmhid = S._vmhid()
    ds = _Pad(vmhid.DualSense)
    ds4 = _Pad(vmhid.DualShock4)
    stops = []
    server = None

    def play(pad):
        stop, t = _playing(pad)
        stops.append((stop, t))
        return stop, t

    try:
        play(ds)
        ds4_stop, ds4_thread = play(ds4)
        server = Served("s39-dsu.txt")
        client = server.client()
        first = client.port_info()
        connected = sorted(s for s, i in first.items() if i["state"] == 2)
        S.check(len(connected) == 2, "two pads: connected slots %s (port info %s)" % (
            connected, {s: i["state"] for s, i in first.items()}))
        macs = {s: first[s]["mac"] for s in connected}
        ds4_mac = bytes.fromhex(ds4.uniq.replace(":", ""))
        ds4_slot = next((s for s in connected if macs[s] in (ds4_mac, ds4_mac[::-1])), None)
        S.check(ds4_slot is not None, "no slot has the DualShock 4's MAC %s: %s" % (
            ds4.uniq, {s: m.hex(":") for s, m in macs.items()}))
        ds_slot = [s for s in connected if s != ds4_slot][0]
        # One slot subscribed: that pad's node open, the other's not.
        one = client.pad_data(1.0, slot=ds_slot)
        held = (server.proc.holds(ds.node), server.proc.holds(ds4.node))
        S.check(held == (True, False) and one and all(p["slot"] == ds_slot for _, p in one),
                "subscribed to slot %d only: DualSense node %s, DualShock 4 node %s, pad data from slots %s" % (
                    ds_slot, "open" if held[0] else "closed", "open" if held[1] else "closed",
                    sorted({p["slot"] for _, p in one})))
        both = client.pad_data(1.0)
        slots_seen = sorted({p["slot"] for _, p in both})
        S.check(slots_seen == sorted(connected), "subscribed to all: pad data from slots %s" % slots_seen)
        uniq = ds4.dev.hid.uniq
        ds4_stop.set()
        ds4_thread.join(10)  # its last report written before the unplug
        ds4.destroy()
        gone = None
        started = time.monotonic()
        while time.monotonic() - started < 10:
            now = client.port_info()
            if now.get(ds4_slot, {}).get("state") == 0:
                gone = now
                break
            time.sleep(0.2)
        S.check(gone is not None, "10 s after the DualShock 4 was unplugged its slot %d is still %s" % (
            ds4_slot, client.port_info().get(ds4_slot)))
        S.check(gone[ds_slot]["state"] == 2, "unplugging the DualShock 4 disconnected the DualSense's slot too")
        ds4 = _Pad(vmhid.DualShock4, uniq=uniq)
        play(ds4)
        back = None
        started = time.monotonic()
        while back is None and time.monotonic() - started < 15:
            now = client.port_info()
            if any(i["state"] == 2 for s, i in now.items() if s != ds_slot):
                back = now
            time.sleep(0.2)
        S.check(back is not None and back.get(ds4_slot, {}).get("state") == 2,
                "the DualShock 4 plugged in again (uniq %s): port info %s, its slot was %d" % (
                    uniq, {s: (i["state"], i["mac"].hex(":")) for s, i in (back or {}).items()}, ds4_slot))
        S.check(back[ds4_slot]["mac"] == macs[ds4_slot], "back in slot %d with MAC %s, was %s" % (
            ds4_slot, back[ds4_slot]["mac"].hex(":"), macs[ds4_slot].hex(":")))
        again = client.pad_data(1.5, slot=ds4_slot)
        S.check(len(again) > 50, "the replugged DualShock 4's slot %d sent %d packets in 1.5 s" % (ds4_slot, len(again)))
        rc = server.stop()
        server = None
    finally:
        for stop, t in stops:
            stop.set()
            t.join(10)
        if server:
            server.kill()
        ds.destroy()
        ds4.destroy()
    S.check(rc == 0, "dsu did not exit 0 on SIGINT (%s)" % rc)
    return "DualSense slot %d, DualShock 4 slot %d; unplugged: state 0; replugged: slot %d again" % (
        ds_slot, ds4_slot, ds4_slot)


def s41_accelerometers_and_joysticks():
    """A plain uinput accelerometer, a sensor hub with an accelerometer alone
    and a gamepad (a joystick): two slots, both model 1 (no gyroscope), the
    gamepad none; their pad data reads (0, −1, 0) g face up and a zero
    gyroscope. With `--device` naming the hub, the hub alone in slot 0."""
    acc = dev.accelerometer(name="tilt-vm dsu accelerometer")
    pad = dev.gamepad(name="tilt-vm dsu pad")
    hub = S._sensorhub().SensorHub(gyro=False, name="tilt dsu accelerometer hub")
    stop = threading.Event()

    def play():
        m = dev.Motion(acc, 100, seed=41)
        while not stop.is_set():
            m.frame((0.0, 0.0, 1.0))
            hub.report((0.0, 0.0, 1.0), period_s=0.01)

    player = threading.Thread(target=play, daemon=True)
    server = chosen = None
    try:
        player.start()
        server = Served("s41-dsu.txt")
        client = server.client()
        info = client.port_info()
        connected = sorted(s for s, i in info.items() if i["state"] == 2)
        models = {s: info[s]["model"] for s in connected}
        packets = client.pad_data(1.5)
        rc = server.stop()
        server = None
        chosen = Served("s41-dsu-device.txt", args=("--device", hub.accel_node))
        only = chosen.client().port_info()
        rc_chosen = chosen.stop()
        chosen = None
    finally:
        stop.set()
        player.join(10)
        for sv in (server, chosen):
            if sv:
                sv.kill()
        hub.destroy()
        acc.close()
        pad.close()
    S.check(len(connected) == 2, "an accelerometer, an accelerometer hub and a gamepad: connected slots %s "
            "(port info %s; the gamepad is a joystick, no slot)" % (connected, {s: i["state"] for s, i in info.items()}))
    S.check(all(m == 1 for m in models.values()), "no gyroscope: model 1 wanted, port info says %s" % models)
    by_slot = {}
    for _, p in packets:
        by_slot.setdefault(p["slot"], []).append(p)
    S.check(sorted(by_slot) == connected, "pad data from slots %s, connected %s" % (sorted(by_slot), connected))
    worst_a = max(max(abs(x - y) for x, y in zip(p["accel"], (0.0, -1.0, 0.0))) for ps in by_slot.values() for p in ps)
    worst_g = max(max(abs(x) for x in p["gyro"]) for ps in by_slot.values() for p in ps)
    S.check(worst_a <= 0.02, "face up: accelerometer %.4f g from (0, -1, 0)" % worst_a)
    S.check(worst_g == 0, "no gyroscope: the gyroscope reads %.4f deg/s" % worst_g)
    S.check(rc == 0 and rc_chosen == 0, "dsu exit status %s, %s on SIGINT" % (rc, rc_chosen))
    S.check(only.get(0, {}).get("state") == 2 and all(only.get(s, {}).get("state") == 0 for s in (1, 2, 3)),
            "--device %s: port info %s" % (hub.accel_node, {s: i["state"] for s, i in only.items()}))
    return "slots %s model 1, the gamepad none; face up within %.4f g, gyroscope 0; --device: the hub alone" % (
        connected, worst_a)


def register(module):
    """Adds the scenarios to scenarios.py's list; module is scenarios.py itself."""
    global S
    S = module
    module.SCENARIOS.extend([
        (37, "dsu on every family's real driver: one slot, rest, 30 deg/s turns on contract §7's axes, device pace",
         s37_values),
        (38, "dsu lifecycle: unsubscribed closed with 0 wake-ups, opened within 0.5 s, lapsed closed within 6 s",
         s38_lifecycle),
        (39, "dsu two pads two slots; unplug: disconnected; replug: the same slot", s39_two_pads_hotplug),
    ])
    dsulatency.register(module)
    module.SCENARIOS.append(
        (41, "dsu accelerometers without gyroscope: model 1, (0, -1, 0) g; a joystick gets no slot; --device",
         s41_accelerometers_and_joysticks))
