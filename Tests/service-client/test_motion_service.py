"""Contract §8 (tilt-cli service), checked from outside: a private
dbus-daemon, the built tilt-cli, and a client that knows only §8.

  TILT_CLI=.build/debug/tilt-cli TILT_ROOT=. python3 -m unittest -v \
      Tests/service-client/test_motion_service.py
"""

import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ElementTree

from motion_client import (
    DEVICE_INTERFACE, MANAGER, NAME, PROPERTIES, CallError, PrivateBus, Service, motion_rule,
    properties_rule, write_edges_recording, write_rest_recording)
from jeepney.low_level import HeaderFields

TILT_CLI = os.environ.get("TILT_CLI", "tilt-cli")
ROOT = os.environ.get("TILT_ROOT", ".")
DEVICE = MANAGER + "/devices/0"
START_LINE = "serving motion on the session bus as org.tilt.Motion1\n"


def setUpModule():
    global BUS, SERVICE, RECORDING, RECORDING_SECONDS, WORK
    WORK = tempfile.TemporaryDirectory(prefix="tilt-service-")
    RECORDING = os.path.join(WORK.name, "edges.csv")
    RECORDING_SECONDS = write_edges_recording(RECORDING)
    BUS = PrivateBus()
    SERVICE = Service(BUS, ["--replay", RECORDING], TILT_CLI)


def tearDownModule():
    SERVICE.stop()
    BUS.close()
    WORK.cleanup()


def owner_exists(client, name):
    return client.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
                       (name,), destination="org.freedesktop.DBus")[0]


class ManagerTests(unittest.TestCase):
    def setUp(self):
        self.client = BUS.connect()

    def tearDown(self):
        self.client.close()

    def test_the_start_line_is_on_stderr(self):
        self.assertEqual(SERVICE.first_line, START_LINE)

    def test_list_devices_gives_the_recording_as_device_0(self):
        self.assertEqual(self.client.list_devices(), [DEVICE])

    def test_version_is_the_programs(self):
        version = self.client.get(MANAGER, "org.tilt.Motion1", "Version")
        printed = subprocess.run([TILT_CLI, "--version"], capture_output=True, text=True).stdout
        self.assertTrue(version and version in printed, (version, printed))

    def test_introspection_equals_the_installed_xml(self):
        with open(os.path.join(ROOT, "packaging/dbus/org.tilt.Motion1.xml")) as f:
            document = ElementTree.fromstring(f.read())
        for path, name in [(MANAGER, "org.tilt.Motion1"), (DEVICE, DEVICE_INTERFACE)]:
            served = ElementTree.fromstring(
                self.client.call(path, "org.freedesktop.DBus.Introspectable", "Introspect")[0])
            mine = served.find("interface[@name='%s']" % name)
            theirs = document.find("interface[@name='%s']" % name)
            self.assertIsNotNone(mine, path)
            self.assertEqual(canonical(mine), canonical(theirs), path)

    def test_device_properties(self):
        properties = self.client.get_all(DEVICE)
        self.assertEqual(properties["Name"], RECORDING)
        self.assertEqual(properties["Kind"], "imu")
        self.assertEqual(properties["Node"], RECORDING)
        self.assertIs(properties["HasGyroscope"], True)
        self.assertIn(properties["Calibration"], ("none", "stored", "learned"))
        self.assertEqual(len(properties["GyroscopeBias"]), 3)
        self.assertEqual(
            set(properties),
            {"Name", "Kind", "Node", "HasGyroscope", "Claimed", "Rate", "Orientation",
             "GyroscopeBias", "Calibration"})
        self.assertEqual(self.client.get(DEVICE, DEVICE_INTERFACE, "Kind"), "imu")

    def test_properties_are_read_only(self):
        with self.assertRaises(CallError) as caught:
            self.client.call(DEVICE, PROPERTIES, "Set", "ssv",
                             (DEVICE_INTERFACE, "Rate", ("d", 5.0)))
        self.assertEqual(caught.exception.name, "org.freedesktop.DBus.Error.PropertyReadOnly")


def canonical(element):
    return (element.tag, sorted(element.attrib.items()),
            [canonical(child) for child in element])


class BadCallTests(unittest.TestCase):
    def setUp(self):
        self.client = BUS.connect()

    def tearDown(self):
        self.client.close()

    def assertError(self, name, *call):
        with self.assertRaises(CallError) as caught:
            self.client.call(*call)
        self.assertEqual(caught.exception.name, name)

    def test_invalid_intervals(self):
        for interval in (0.0, 2.0, float("nan"), 0.0009, -1.0, float("inf")):
            with self.assertRaises(CallError) as caught:
                self.client.claim(DEVICE, interval)
            self.assertEqual(caught.exception.name, "org.tilt.Motion1.Error.InvalidInterval",
                             interval)
        self.assertFalse(self.client.get(DEVICE, DEVICE_INTERFACE, "Claimed"))

    def test_wrong_signatures_unknown_methods_and_objects(self):
        invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        self.assertError(invalid, DEVICE, DEVICE_INTERFACE, "Claim", "s", ("fast",))
        self.assertError(invalid, DEVICE, DEVICE_INTERFACE, "Claim")
        self.assertError(invalid, DEVICE, DEVICE_INTERFACE, "Claim", "dd", (0.1, 0.1))
        self.assertError(invalid, MANAGER, "org.tilt.Motion1", "ListDevices", "u", (1,))
        self.assertError(invalid, DEVICE, PROPERTIES, "GetAll", "u", (1,))
        self.assertError("org.freedesktop.DBus.Error.UnknownMethod",
                         DEVICE, DEVICE_INTERFACE, "Spin")
        self.assertError("org.freedesktop.DBus.Error.UnknownMethod",
                         MANAGER, "org.tilt.Motion1", "Claim", "d", (0.1,))
        self.assertError("org.freedesktop.DBus.Error.UnknownObject",
                         MANAGER + "/devices/7", DEVICE_INTERFACE, "Claim", "d", (0.1,))
        self.assertError("org.freedesktop.DBus.Error.UnknownObject",
                         MANAGER + "/devices/00", DEVICE_INTERFACE, "Release")
        self.assertError("org.freedesktop.DBus.Error.UnknownObject",
                         MANAGER + "/elsewhere", DEVICE_INTERFACE, "Release")
        self.assertError("org.freedesktop.DBus.Error.UnknownProperty",
                         DEVICE, PROPERTIES, "Get", "ss", (DEVICE_INTERFACE, "Colour"))
        # None stopped the service.
        self.assertEqual(self.client.list_devices(), [DEVICE])

    def test_release_without_a_claim_is_no_error(self):
        self.client.release(DEVICE)

    def test_a_65th_claim_is_too_many(self):
        clients = [BUS.connect() for _ in range(65)]
        try:
            for client in clients[:64]:
                client.claim(DEVICE, 1.0)
            with self.assertRaises(CallError) as caught:
                clients[64].claim(DEVICE, 1.0)
            self.assertEqual(caught.exception.name, "org.tilt.Motion1.Error.TooManyClaims")
            # A second claim of a client that holds one changes its interval: no new claim.
            clients[0].claim(DEVICE, 0.5)
            clients[0].release(DEVICE)
            clients[64].claim(DEVICE, 1.0)
        finally:
            for client in clients:
                client.close()
        watcher = BUS.connect()
        try:
            self.assertTrue(wait_for(lambda: not watcher.get(DEVICE, DEVICE_INTERFACE, "Claimed")))
        finally:
            watcher.close()


def wait_for(condition, seconds=3.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class ClaimTests(unittest.TestCase):
    def setUp(self):
        self.claimer = BUS.connect()
        self.other = BUS.connect()

    def tearDown(self):
        self.claimer.close()
        self.other.close()

    def motions(self, seconds, interval):
        queue = self.claimer.watch(motion_rule(DEVICE), subscribe=False)
        self.claimer.claim(DEVICE, interval)
        self.claimer.pump(seconds)
        return list(queue)

    def test_claim_rate_unicast_delivery_and_release(self):
        changes = self.other.watch(properties_rule(DEVICE))
        overheard = self.other.watch(motion_rule())
        start = time.monotonic()
        queue = self.claimer.watch(motion_rule(DEVICE), subscribe=False)
        self.claimer.claim(DEVICE, 0.02)
        self.assertTrue(self.claimer.pump_until(lambda: len(queue) > 0, 0.5 + 0.5),
                        "no Motion within a second of the claim")
        first = time.monotonic() - start
        queue.clear()
        self.claimer.pump(2.0)
        signals = list(queue)
        # 100 samples a second, one signal every 0.02 s: about 50 a second.
        self.assertGreater(len(signals), 2 * 40, len(signals))
        self.assertLess(len(signals), 2 * 55, len(signals))
        for message in signals:
            self.assertEqual(message.header.fields[HeaderFields.signature], "t(dddd)(ddd)(ddd)(ddd)")
            self.assertEqual(message.header.fields[HeaderFields.destination], self.claimer.unique_name)
            timestamp, attitude, gravity, rate, user = message.body
            self.assertAlmostEqual(math.sqrt(sum(c * c for c in attitude)), 1.0, places=6)
            self.assertAlmostEqual(math.sqrt(sum(c * c for c in gravity)), 1.0, places=3)
        stamps = [m.body[0] for m in signals]
        self.assertEqual(stamps, sorted(stamps))
        # The second client, which holds no claim, is sent none.
        self.other.pump(0.2)
        self.assertEqual(len(overheard), 0)
        # Claimed, and a rate, announced while open.
        self.assertTrue(self.other.get(DEVICE, DEVICE_INTERFACE, "Claimed"))
        self.assertTrue(self.other.pump_until(lambda: announced(changes, "Rate", lambda r: r > 50),
                                              1.5))
        self.assertTrue(announced(changes, "Claimed", lambda c: c is True))
        # A second claim changes the interval: about 10 a second.
        self.claimer.claim(DEVICE, 0.1)
        self.claimer.pump(0.15)
        queue.clear()
        self.claimer.pump(2.0)
        self.assertTrue(15 <= len(queue) <= 22, len(queue))
        # Release: no more, Claimed false and the rate 0 announced.
        self.claimer.release(DEVICE)
        self.claimer.pump(0.1)
        queue.clear()
        self.claimer.pump(0.5)
        self.assertEqual(len(queue), 0)
        self.assertTrue(self.other.pump_until(
            lambda: announced(changes, "Claimed", lambda c: c is False)
            and announced(changes, "Rate", lambda r: r == 0), 1.5))
        self.assertEqual(self.other.get(DEVICE, DEVICE_INTERFACE, "Rate"), 0.0)
        self.assertEqual(self.other.get(DEVICE, DEVICE_INTERFACE, "Orientation"), "undefined")
        print("claim to first Motion: %.1f ms" % (first * 1000))

    def test_the_fastest_interval_gets_every_sample(self):
        signals = self.motions(1.0, 0.001)
        self.assertGreater(len(signals), 80)
        self.assertLess(len(signals), 110)

    def test_a_client_leaving_the_bus_releases_its_claim(self):
        self.claimer.claim(DEVICE, 0.05)
        self.assertTrue(self.other.get(DEVICE, DEVICE_INTERFACE, "Claimed"))
        self.claimer.close()
        self.assertTrue(wait_for(lambda: not self.other.get(DEVICE, DEVICE_INTERFACE, "Claimed")))
        self.claimer = BUS.connect()

    def test_recenter_makes_the_current_attitude_the_reference(self):
        queue = self.claimer.watch(motion_rule(DEVICE), subscribe=False)
        self.claimer.claim(DEVICE, 0.01)
        self.assertTrue(self.claimer.pump_until(lambda: len(queue) > 0, 1.0))
        w, x, y, z = queue[0].body[1]
        self.assertAlmostEqual(w, 1.0, places=2, msg="a claim starts at its reference")
        # Wait until the recording has turned the card, then recenter.
        def turned():
            return queue and abs(queue[-1].body[1][0]) < 0.95
        self.assertTrue(self.claimer.pump_until(turned, RECORDING_SECONDS + 1))
        self.claimer.recenter(DEVICE)
        queue.clear()
        self.assertTrue(self.claimer.pump_until(lambda: len(queue) > 0, 1.0))
        self.assertGreater(abs(queue[0].body[1][0]), 0.98, queue[0].body[1])
        self.claimer.release(DEVICE)

    def test_orientation_goes_through_the_four_edges(self):
        changes = self.other.watch(properties_rule(DEVICE))
        self.claimer.claim(DEVICE, 0.1)
        seen = []

        def every_edge():
            while changes:
                value = changes.popleft().body[1].get("Orientation")
                if value and (not seen or seen[-1] != value[1]):
                    seen.append(value[1])
            return {"normal", "left-up", "bottom-up", "right-up"} <= set(seen)

        done = self.other.pump_until(every_edge, 2 * RECORDING_SECONDS + 2)
        self.assertTrue(done, seen)
        # In the order the card turns (from wherever the recording was).
        cycle = ["normal", "left-up", "bottom-up", "right-up"]
        for a, b in zip(seen, seen[1:]):
            self.assertEqual(cycle[(cycle.index(a) + 1) % 4], b, seen)
        self.claimer.release(DEVICE)


def announced(queue, name, test):
    return any(name in m.body[1] and test(m.body[1][name][1]) for m in queue)


class LifecycleTests(unittest.TestCase):
    """Each with a bus of its own."""

    def setUp(self):
        self.bus = PrivateBus()

    def tearDown(self):
        self.bus.close()

    def test_sigterm_releases_the_name_and_exits_0(self):
        service = Service(self.bus, ["--replay", RECORDING], TILT_CLI)
        client = self.bus.connect()
        try:
            self.assertEqual(service.first_line, START_LINE)
            client.claim(DEVICE, 0.05)
            time.sleep(0.3)
            client.release(DEVICE)
            time.sleep(1.2)
            status, rest = service.stop()
            self.assertEqual(status, 0)
            self.assertFalse(owner_exists(client, NAME))
            # Not a terminal: the changes alone, a line each, no status lines.
            lines = rest.splitlines()
            self.assertTrue(all(line.startswith("tilt-cli service: ") for line in lines), rest)
            for change in ("device 0: opened", "claimed, every 0.05 s", "released",
                           "device 0: closed"):
                self.assertTrue(any(change in line for line in lines), (change, rest))
            self.assertNotIn("claim(s)", rest)
        finally:
            client.close()

    def test_on_a_terminal_one_line_per_device_in_place(self):
        script = shutil.which("script")
        if script is None:
            self.skipTest("needs script (util-linux) for a terminal")
        command = "%s service --replay %s" % (shlex.quote(TILT_CLI), shlex.quote(RECORDING))
        terminal = subprocess.Popen([script, "-qfec", command, "/dev/null"],
                                    env=self.bus.environment(), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        client = self.bus.connect()
        try:
            self.assertTrue(wait_for(lambda: owner_exists(client, NAME), 10))
            client.claim(DEVICE, 0.05)
            time.sleep(1.5)
            pid = client.call("/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "GetConnectionUnixProcessID", "s", (NAME,),
                              destination="org.freedesktop.DBus")[0]
            os.kill(pid, signal.SIGTERM)
            output = terminal.communicate(timeout=10)[0].decode("utf-8", "replace")
        finally:
            client.close()
            if terminal.poll() is None:
                terminal.kill()
                terminal.wait()
        self.assertEqual(terminal.returncode, 0, output)
        self.assertIn("\x1b[1A\x1b[2K", output)  # lines redrawn in place
        self.assertRegex(output, r"device 0  .*edges\.csv +\d+ Hz  1 claim\(s\)  bias")

    def test_sigint_exits_0(self):
        service = Service(self.bus, ["--replay", RECORDING], TILT_CLI)
        service.process.send_signal(signal.SIGINT)
        status, _ = service.stop()
        self.assertEqual(status, 0)

    def test_the_name_already_owned_is_exit_1(self):
        first = Service(self.bus, ["--replay", RECORDING], TILT_CLI)
        try:
            second = subprocess.run(
                [TILT_CLI, "service", "--replay", RECORDING], env=self.bus.environment(),
                capture_output=True, text=True, timeout=10)
            self.assertEqual(second.returncode, 1)
            self.assertIn("org.tilt.Motion1 is already owned", second.stderr)
        finally:
            first.stop()

    def test_no_session_bus_is_exit_1(self):
        env = dict(os.environ)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        with tempfile.TemporaryDirectory() as empty:
            env["XDG_RUNTIME_DIR"] = empty
            result = subprocess.run([TILT_CLI, "service", "--replay", RECORDING], env=env,
                                    capture_output=True, text=True, timeout=10)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no session bus", result.stderr)
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/tilt-bus"
        result = subprocess.run([TILT_CLI, "service", "--replay", RECORDING], env=env,
                                capture_output=True, text=True, timeout=10)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no session bus", result.stderr)
        self.assertIn("DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/tilt-bus", result.stderr)

    def test_no_device_is_an_empty_list_and_a_note(self):
        with tempfile.TemporaryDirectory() as empty:
            env = self.bus.environment()
            env["TILT_INPUT_DIR"] = empty
            process = subprocess.Popen([TILT_CLI, "service"], env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       text=True)
            self.assertEqual(process.stderr.readline(), START_LINE)
            self.assertIn("no motion device yet", process.stderr.readline())
            client = self.bus.connect()
            try:
                self.assertEqual(client.list_devices(), [])
                with self.assertRaises(CallError) as caught:
                    client.claim(DEVICE, 0.1)
                self.assertEqual(caught.exception.name,
                                 "org.freedesktop.DBus.Error.UnknownObject")
            finally:
                client.close()
                process.send_signal(signal.SIGTERM)
                self.assertEqual(process.wait(10), 0)
                process.stderr.close()

    def test_losing_the_bus_is_exit_1_naming_it(self):
        service = Service(self.bus, ["--replay", RECORDING], TILT_CLI)
        self.bus.daemon.kill()
        self.bus.daemon.wait()
        status, rest = service.stop()
        self.assertEqual(status, 1)
        self.assertIn("lost the session bus", rest)

    def test_activation_through_the_servicedir(self):
        # The installed service file, its Exec= pointed at the built binary and the recording.
        with open(os.path.join(ROOT, "packaging/dbus/org.tilt.Motion1.service.in")) as f:
            text = f.read().replace("@BINDIR@/tilt-cli service",
                                    "%s service --replay %s" % (TILT_CLI, RECORDING))
        with open(os.path.join(self.bus.servicedir, "org.tilt.Motion1.service"), "w") as f:
            f.write(text)
        client = self.bus.connect()
        try:
            self.assertFalse(owner_exists(client, NAME))
            self.assertEqual(client.list_devices(), [DEVICE])
            pid = client.call("/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "GetConnectionUnixProcessID", "s", (NAME,),
                              destination="org.freedesktop.DBus")[0]
            os.kill(pid, signal.SIGTERM)
            self.assertTrue(wait_for(lambda: not owner_exists(client, NAME), 5))
        finally:
            client.close()

    def test_with_no_claim_the_service_does_not_wake(self):
        service = Service(self.bus, ["--replay", RECORDING], TILT_CLI)
        client = self.bus.connect()
        try:
            client.claim(DEVICE, 0.01)
            time.sleep(0.3)
            client.release(DEVICE)
            time.sleep(1.5)  # closed within 1 s of the last release
            before = switches(service.process.pid)
            time.sleep(5)
            after = switches(service.process.pid)
            self.assertLessEqual(after - before, 15, (before, after))
            print("context switches in 5 s with no claim: %d" % (after - before))
        finally:
            client.close()
            service.stop()


class CalibrationTests(unittest.TestCase):
    """GyroscopeBias and Calibration announced as the fusion learns a bias at rest."""

    def test_the_bias_learned_at_rest_is_announced_and_removed(self):
        recording = os.path.join(WORK.name, "rest.csv")
        write_rest_recording(recording, bias_deg_s=(0.5, -0.3, 0.2))
        bus = PrivateBus()
        service = Service(bus, ["--replay", recording], TILT_CLI)
        client = bus.connect()
        try:
            self.assertEqual(client.get(DEVICE, DEVICE_INTERFACE, "Calibration"), "none")
            changes = client.watch(properties_rule(DEVICE))
            motions = client.watch(motion_rule(DEVICE), subscribe=False)
            client.claim(DEVICE, 0.1)

            def learned():
                values = [m.body[1] for m in changes]
                biases = [v["GyroscopeBias"][1] for v in values if "GyroscopeBias" in v]
                return (any(v.get("Calibration", ("s", ""))[1] == "learned" for v in values)
                        and biases and all(abs(b - e) < 0.03
                                           for b, e in zip(biases[-1], (0.5, -0.3, 0.2))))

            self.assertTrue(client.pump_until(learned, 7.5),
                            [m.body[1] for m in changes if "Rate" not in m.body[1]])
            motions.clear()
            client.pump_until(lambda: len(motions) > 0, 1.0)
            rate = motions[-1].body[3]
            self.assertLess(max(abs(r) for r in rate), math.radians(0.05), rate)
        finally:
            client.close()
            service.stop()
            bus.close()


class DsuFromTheServiceTests(unittest.TestCase):
    """--dsu: §7 served from the same hub as the bus's clients."""

    def setUp(self):
        self.bus = PrivateBus()
        self.service = Service(self.bus, ["--replay", RECORDING, "--dsu", "127.0.0.1:0"], TILT_CLI)
        self.client = self.bus.connect()

    def tearDown(self):
        self.client.close()
        self.service.stop()
        self.bus.close()

    def test_a_dsu_subscription_is_a_claim_on_the_same_device(self):
        self.assertEqual(self.service.first_line, START_LINE)
        line = self.service.process.stderr.readline()
        self.assertTrue(line.startswith("serving DSU on udp://127.0.0.1:"), line)
        port = int(line.strip().rsplit(":", 1)[1])
        sys.path.insert(0, os.path.join(ROOT, "Tests/vm"))
        import dsuclient
        dsu = dsuclient.Client(port)
        try:
            self.assertEqual(dsu.version(), 1001)
            self.assertFalse(self.client.get(DEVICE, DEVICE_INTERFACE, "Claimed"))
            packets = dsu.pad_data(0.5)
            self.assertGreater(len(packets), 20)
            # The DSU subscription (alive 5 s) holds the device: Claimed, and open.
            self.assertTrue(self.client.get(DEVICE, DEVICE_INTERFACE, "Claimed"))
            self.assertGreater(self.client.get(DEVICE, DEVICE_INTERFACE, "Rate"), 0)
            # The orientation follows the device whoever holds it open (DSU
            # alone here): the recording stands on an edge within 0.8 s.
            packets += dsu.pad_data(1.0)
            self.assertNotEqual(self.client.get(DEVICE, DEVICE_INTERFACE, "Orientation"), "undefined")
            # A bus claim on top: each Motion signal is a sample DSU sent too,
            # with the same timestamp (one device, one clock).
            queue = self.client.watch(motion_rule(DEVICE), subscribe=False)
            self.client.claim(DEVICE, 0.01)
            more = dsu.pad_data(0.3)
            self.client.pump_until(lambda: len(queue) > 5, 1.0)
            sent = {fields["timestamp"] for _, fields in packets + more}
            motion = [m.body[0] for m in queue if min(sent) <= m.body[0] <= max(sent)]
            self.assertGreater(len(motion), 5)
            self.assertTrue(set(motion) <= sent, (sorted(motion), sorted(sent)))
            self.client.release(DEVICE)
        finally:
            dsu.close()


def switches(pid):
    """Voluntary and involuntary context switches of every thread of `pid`."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/status" % (pid, task)) as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    return total


if __name__ == "__main__":
    unittest.main()
