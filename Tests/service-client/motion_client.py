"""A client of org.tilt.Motion1 written from contract §8, with jeepney: what
the tests need to start a private bus and the service, call it and watch it."""

import math
import os
import select
import signal
import subprocess
import tempfile
import time
from collections import deque

from jeepney import DBusAddress, MatchRule, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection
from jeepney.low_level import HeaderFields

NAME = "org.tilt.Motion1"
MANAGER = "/org/tilt/Motion1"
DEVICE_INTERFACE = "org.tilt.Motion1.Device"
PROPERTIES = "org.freedesktop.DBus.Properties"

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <servicedir>{servicedir}</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class PrivateBus:
    """A dbus-daemon of its own, with a servicedir for activation files."""

    def __init__(self):
        self.directory = tempfile.TemporaryDirectory(prefix="tilt-bus-")
        root = self.directory.name
        self.servicedir = os.path.join(root, "services")
        os.mkdir(self.servicedir)
        config = os.path.join(root, "bus.conf")
        socket = os.path.join(root, "socket")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(socket=socket, servicedir=self.servicedir))
        # The address is printed once the daemon listens: a socket file can
        # be there before it accepts (bound, not yet listening).
        self.daemon = subprocess.Popen(
            ["dbus-daemon", "--nofork", "--print-address=1", "--config-file=" + config],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.daemon.stdout], [], [], 10)
        line = self.daemon.stdout.readline().strip() if ready else ""
        if not line.startswith("unix:"):
            self.daemon.kill()
            raise RuntimeError("dbus-daemon did not start: %s" % self.daemon.stderr.read())
        self.address = "unix:path=" + socket

    def environment(self):
        env = dict(os.environ)
        env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        return env

    def connect(self):
        return Client(open_dbus_connection(bus=self.address))

    def close(self):
        # Killed, not terminated: a test runner may start us with SIGTERM blocked,
        # and dbus-daemon keeps the mask it inherits.
        self.daemon.kill()
        self.daemon.wait(5)
        self.daemon.stdout.close()
        self.daemon.stderr.close()
        self.directory.cleanup()


class Service:
    """A running `tilt-cli service`; its stderr is read by the test."""

    def __init__(self, bus, arguments, tilt_cli):
        self.process = subprocess.Popen(
            [tilt_cli, "service"] + arguments, env=bus.environment(),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.first_line = self.process.stderr.readline()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        rest = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        return self.process.returncode, rest


class CallError(Exception):
    def __init__(self, name, text):
        super().__init__("%s: %s" % (name, text))
        self.name = name


class Client:
    """One connection to the bus, with the calls §8 names."""

    def __init__(self, connection):
        self.connection = connection
        self.unique_name = connection.unique_name

    def call(self, path, interface, member, signature=None, body=(), destination=NAME):
        address = DBusAddress(path, bus_name=destination, interface=interface)
        message = new_method_call(address, member, signature, body)
        reply = self.connection.send_and_get_reply(message, timeout=10)
        if reply.header.message_type == MessageType.error:
            text = reply.body[0] if reply.body else ""
            raise CallError(reply.header.fields[HeaderFields.error_name], text)
        return reply.body

    def list_devices(self):
        return self.call(MANAGER, "org.tilt.Motion1", "ListDevices")[0]

    def get(self, path, interface, name):
        return self.call(path, PROPERTIES, "Get", "ss", (interface, name))[0][1]

    def get_all(self, path, interface=DEVICE_INTERFACE):
        return {k: v[1] for k, v in self.call(path, PROPERTIES, "GetAll", "s", (interface,))[0].items()}

    def claim(self, path, interval):
        return self.call(path, DEVICE_INTERFACE, "Claim", "d", (interval,))

    def release(self, path):
        return self.call(path, DEVICE_INTERFACE, "Release")

    def recenter(self, path):
        return self.call(path, DEVICE_INTERFACE, "Recenter")

    def add_match(self, rule):
        self.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", "s",
                  (rule.serialise(),), destination="org.freedesktop.DBus")

    def watch(self, rule, subscribe=True):
        """A queue of the messages matching `rule` (the bus is asked to send
        them when `subscribe`; unicast signals come without asking)."""
        queue = deque()
        self.connection.filter(rule, queue=queue)
        if subscribe:
            self.add_match(rule)
        return queue

    def pump(self, seconds):
        """Receives (into the watches' queues) for `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                self.connection.recv_messages(timeout=left)
            except TimeoutError:
                return

    def pump_until(self, condition, seconds):
        deadline = time.monotonic() + seconds
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                self.connection.recv_messages(timeout=min(left, 0.1))
            except TimeoutError:
                pass
        return True

    def close(self):
        self.connection.close()


def motion_rule(path=None):
    return MatchRule(type="signal", interface=DEVICE_INTERFACE, member="Motion", path=path)


def properties_rule(path):
    return MatchRule(type="signal", interface=PROPERTIES, member="PropertiesChanged", path=path)


def write_edges_recording(path, rate=100.0):
    """A CSV (§2) of a card that lies face up, stands on its bottom edge
    (top edge up: `normal`), then turns in its plane through left-up,
    bottom-up and right-up, holding each; its gyroscope agrees."""
    rows = []
    dt = 1.0 / rate

    def hold(seconds, up, gyro=(0.0, 0.0, 0.0)):
        for _ in range(int(seconds * rate)):
            rows.append((up, gyro))

    hold(0.4, (0.0, 0.0, 1.0))
    steps = int(0.4 * rate)
    for i in range(steps):  # face up to top edge up: about +x
        theta = (i + 1) / steps * math.pi / 2
        rows.append(((0.0, math.sin(theta), math.cos(theta)), ((math.pi / 2) / 0.4, 0.0, 0.0)))
    for _ in range(4):  # a quarter turn in the card's plane each: normal, left, bottom, right up
        hold(0.5, rows[-1][0])
        start = math.atan2(-rows[-1][0][0], rows[-1][0][1])
        for i in range(steps):
            alpha = start + (i + 1) / steps * math.pi / 2
            rows.append(((-math.sin(alpha), math.cos(alpha), 0.0), (0.0, 0.0, -(math.pi / 2) / 0.4)))
    hold(0.5, rows[-1][0])
    with open(path, "w") as f:
        f.write("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s\n")
        for i, (up, gyro) in enumerate(rows):
            f.write("%.4f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n" % ((i * dt,) + up + gyro))
    return len(rows) * dt


def write_rest_recording(path, bias_deg_s=(0.5, -0.3, 0.2), seconds=8.0, rate=100.0):
    """A CSV of a card lying still face up, with sensor noise and a steady
    gyroscope bias (deg/s) for the fusion to learn at rest."""
    import random
    generator = random.Random(1)
    with open(path, "w") as f:
        f.write("t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_deg_s,gyr_y_deg_s,gyr_z_deg_s\n")
        for i in range(int(seconds * rate)):
            noise = lambda s: generator.gauss(0, s)
            f.write("%.4f,%.5f,%.5f,%.5f,%.4f,%.4f,%.4f\n" % (
                i / rate, noise(0.002), noise(0.002), 1 + noise(0.002),
                bias_deg_s[0] + noise(0.02), bias_deg_s[1] + noise(0.02),
                bias_deg_s[2] + noise(0.02)))
