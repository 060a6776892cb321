"""Scenario 42: DeviceMotionManager's lifecycle on a real kernel's evdev node
(a uinput accelerometer) and IIO device (the emulated HID sensor hub on
hid-sensor-accel-3d), through `tilt-async-probe lifecycle NODE`: the steps of
lifecycle.txt (start, stop, start, unplug), sent on the probe's stdin or done
to the device, give the events that file names, the ones LifecycleTests sees
for an IIO sensor and a recording. Registered into scenarios.py's list."""

import os
import threading
import time

import vmdevices as dev
from vmprocess import Watched

S = None  # scenarios.py, set by register()
STEPS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lifecycle.txt")


def lifecycle_steps():
    """[(step, event)] of lifecycle.txt, in order."""
    steps = []
    with open(STEPS_FILE) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                steps.append((words[0], words[1]))
    return steps


def _events(probe):
    """[(event, monotonic seconds)] the probe printed."""
    out = []
    for _, text in list(probe.lines):
        if text.startswith("lifecycle "):
            words = text.split()
            out.append((words[1], float(words[2][2:])))
    return out


def _updates_while_stopped(probe):
    """`update` lines printed after a `lifecycle stopped` and before the next `lifecycle started`."""
    stopped, count = False, 0
    for _, text in list(probe.lines):
        if text == "lifecycle stopped" or text.startswith("lifecycle stopped "):
            stopped = True
        elif text.startswith("lifecycle started"):
            stopped = False
        elif stopped and text.startswith("update "):
            count += 1
    return count


def _wait(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def _drive(label, node, nodes, feed, unplug, buffers_off=lambda: True):
    """Runs the probe on node while feed() sends samples on its own thread, does
    lifecycle.txt's steps, and checks the events and that every node in nodes
    is closed while stopped. Returns a short summary."""
    steps = lifecycle_steps()
    probe = Watched(S._probe("lifecycle", node), S.log("s42-%s.txt" % label), stdin=True)
    stop_feed = threading.Event()
    feeder = threading.Thread(target=feed, args=(stop_feed,), daemon=True)
    ended_after = None
    notes = []
    try:
        S.check(_wait(lambda: S._said(probe, "ready"), 40), "%s: no `ready` line: %s" % (label, probe.describe_exit()))
        held = [n for n in nodes if probe.holds(n)]
        S.check(not held, "%s: %s open before the first start" % (label, held))
        feeder.start()
        for i, (step, event) in enumerate(steps):
            seen = len(_events(probe))
            if step == "unplug":
                stop_feed.set()
                feeder.join(5)
                unplugged_at = time.monotonic()
                unplug()
                rc = probe.wait_exit(20)
                S.check(rc == 0, "%s: after the unplug exit status %s (want 0 and `gone`): %s" % (
                    label, rc, probe.describe_exit()))
                S.check(S._said(probe, "gone"), "%s: no `gone` line after the unplug" % label)
                ends = [t for name, t in _events(probe)[seen:] if name == event]
                if ends:
                    ended_after = ends[0] - unplugged_at
                continue
            probe.send(step)
            S.check(_wait(lambda: len(_events(probe)) > seen, 10),
                    "%s: step %d `%s` gave no lifecycle event within 10 s (events %s)" % (
                        label, i + 1, step, [n for n, _ in _events(probe)]))
            if step == "start":
                updates = len(S._said(probe, "update "))
                S.check(_wait(lambda: len(S._said(probe, "update ")) > updates, 10),
                        "%s: no update within 10 s of step %d `start`" % (label, i + 1))
                S.check(probe.holds(node), "%s: started, yet %s is not open" % (label, node))
            elif step == "stop":
                time.sleep(1.0)  # the device goes on sending
                held = [n for n in nodes if probe.holds(n)]
                S.check(not held, "%s: stopped, yet %s open (/proc/%d/fd)" % (label, held, probe.pid))
                S.check(buffers_off(), "%s: stopped, yet a buffer is enabled" % label)
                notes.append("closed while stopped")
    finally:
        stop_feed.set()
        probe.kill()
        probe.save_log()
    events = [name for name, _ in _events(probe)]
    want = [event for _, event in steps]
    cut = events.index("ended") + 1 if "ended" in events else len(events)
    S.check(events[:cut] == want, "%s: lifecycle events %s (want %s, lifecycle.txt)" % (label, events, want))
    S.check(cut == len(events),
            "%s: DeviceMotionManager.run() said %s after `ended`; lifecycle.txt wants nothing after it" % (
                label, events[cut:]))
    quiet = _updates_while_stopped(probe)
    S.check(quiet == 0, "%s: %d updates printed while stopped" % (label, quiet))
    updates = len(S._said(probe, "update "))
    S.FIGURES.append("scenario 42 (%s): events %s, %d updates, `ended` %.3f s after the unplug" % (
        label, " ".join(events), updates, ended_after if ended_after is not None else float("nan")))
    return "%s %s: %s, %d updates, none while stopped, closed while stopped, ended %.2f s after the unplug" % (
        label, node, " ".join(events), updates, ended_after if ended_after is not None else float("nan"))


def s42_lifecycle():
    said = []
    ui = dev.accelerometer(name="tilt-vm lifecycle")
    node = dev.node_of(ui)
    m = dev.Motion(ui, 100, seed=42)

    def feed(stop):
        while not stop.is_set():
            m.frame(dev.up_vector(10, 5))

    closed = [False]

    def unplug():
        closed[0] = True
        ui.close()

    try:
        said.append(_drive("evdev", node, [node], feed, unplug))
    finally:
        if not closed[0]:
            S._close_quietly(ui)
    sh = S._sensorhub()
    hub = sh.SensorHub()
    try:
        accel, gyro = hub.accel_node, hub.gyro_node

        def feed_hub(stop):
            next_t = time.monotonic()
            while not stop.is_set():
                hub.report(dev.up_vector(10, 5), (0, 0, 0), 0.01)
                next_t += 0.01
                delay = next_t - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

        said.append(_drive("iio", accel, [accel, gyro], feed_hub, hub.destroy,
                           lambda: not hub.buffer_enabled("accel") and not hub.buffer_enabled("gyro")))
    finally:
        hub.destroy()
    return "; ".join(said)


def register(module):
    """Adds scenario 42 to scenarios.py's list; module is scenarios.py itself."""
    global S
    S = module
    module.SCENARIOS.append(
        (42, "one DeviceMotionManager lifecycle on evdev and IIO: start, stop, start, unplug as lifecycle.txt",
         s42_lifecycle))
