"""A client of tilt's D-Bus motion service, written from contract §8 (not
from the server), with jeepney (Debian's python3-jeepney), and a private
session bus (`dbus-daemon --config-file`) for it: the one client of the VM's
scenarios and of Tests/service-client (which imports it from here).

Names: `org.tilt.Motion1` at `/org/tilt/Motion1` (interface
`org.tilt.Motion1`: ListDevices() → ao, DeviceAdded(o), DeviceRemoved(o)),
devices at `/org/tilt/Motion1/devices/N` (interface `org.tilt.Motion1.Device`:
Claim(d), Release(), Recenter(), the unicast signal
Motion(t, (dddd), (ddd), (ddd), (ddd)) and read-only properties).
"""

import os
import select
import subprocess
import tempfile
import time
from collections import deque

from jeepney import DBusAddress, MatchRule, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection
from jeepney.low_level import HeaderFields

NAME = "org.tilt.Motion1"
MANAGER = "/org/tilt/Motion1"
MANAGER_INTERFACE = "org.tilt.Motion1"
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

    def env(self):
        """The variable that names the bus, to add to an environment."""
        return {"DBUS_SESSION_BUS_ADDRESS": self.address}

    def environment(self):
        """This process's environment with the bus as the session bus."""
        env = dict(os.environ)
        env.update(self.env())
        return env

    def connect(self):
        return Client(self.address)

    def close(self):
        # Killed, not terminated: a test runner may start us with SIGTERM blocked,
        # and dbus-daemon keeps the mask it inherits.
        self.daemon.kill()
        self.daemon.wait(5)
        self.daemon.stdout.close()
        self.daemon.stderr.close()
        self.directory.cleanup()

    stop = close


class CallError(Exception):
    def __init__(self, name, text):
        super().__init__("%s: %s" % (name, text))
        self.name = name


class Client:
    """One connection to the bus, with the calls §8 names, and two ways to
    hear signals: `collect` keeps every signal in `signals`, `watch` queues
    those of one match rule (read by `pump`)."""

    def __init__(self, address):
        self.connection = open_dbus_connection(bus=address)
        self.unique_name = self.connection.unique_name
        self.signals = []  # (arrival monotonic s, path, member, body), by collect

    def call(self, path, interface, member, signature=None, body=(), destination=NAME):
        address = DBusAddress(path, bus_name=destination, interface=interface)
        message = new_method_call(address, member, signature, body)
        reply = self.connection.send_and_get_reply(message, timeout=10)
        if reply.header.message_type == MessageType.error:
            text = reply.body[0] if reply.body else ""
            raise CallError(reply.header.fields[HeaderFields.error_name], text)
        return reply.body

    def list_devices(self):
        return self.call(MANAGER, MANAGER_INTERFACE, "ListDevices")[0]

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

    def watch_manager(self):
        """Asks the bus for the manager's signals (DeviceAdded, DeviceRemoved)."""
        self.add_match(MatchRule(type="signal", sender=NAME, path=MANAGER))

    def collect(self, seconds):
        """Receives for `seconds`; signals go to `self.signals`."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                msg = self.connection.receive(timeout=left)
            except TimeoutError:
                return
            if msg.header.message_type == MessageType.signal:
                fields = msg.header.fields
                self.signals.append((time.monotonic(), fields.get(HeaderFields.path),
                                     fields.get(HeaderFields.member), msg.body))

    def motions(self):
        """Motion signals: (arrival, timestamp µs, attitude, gravity, rotation rate, user acceleration)."""
        return [(a,) + tuple(body) for a, path, member, body in self.signals if member == "Motion"]

    def named(self, member):
        return [(a, body) for a, path, m, body in self.signals if m == member]

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
