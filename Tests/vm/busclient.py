"""A client of tilt's D-Bus motion service, written from contract §8 (not
from the server), with jeepney (Debian's python3-jeepney), and a private
session bus (`dbus-daemon --config-file`) for it.

Names: `org.tilt.Motion1` at `/org/tilt/Motion1` (interface
`org.tilt.Motion1`: ListDevices() → ao, DeviceAdded(o), DeviceRemoved(o)),
devices at `/org/tilt/Motion1/devices/N` (interface `org.tilt.Motion1.Device`:
Claim(d), Release(), Recenter(), the unicast signal
Motion(t, (dddd), (ddd), (ddd), (ddd)) and read-only properties).
"""

import os
import subprocess
import tempfile
import time

from jeepney import DBusAddress, MatchRule, MessageType, Properties, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection

NAME = "org.tilt.Motion1"
MANAGER = "/org/tilt/Motion1"
MANAGER_INTERFACE = "org.tilt.Motion1"
DEVICE_INTERFACE = "org.tilt.Motion1.Device"

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class PrivateBus:
    """A session bus of our own: dbus-daemon on a socket in a temporary folder."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="tilt-bus-")
        socket_path = os.path.join(self.folder, "bus")
        config = os.path.join(self.folder, "session.conf")
        with open(config, "w") as f:
            f.write(CONFIG % socket_path)
        self.proc = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork", "--print-address"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            raise RuntimeError("dbus-daemon printed no address: %s" % self.proc.stderr.read()[-400:])

    def env(self):
        return {"DBUS_SESSION_BUS_ADDRESS": self.address}

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Client:
    """One connection to the bus: calls, properties, and what arrives."""

    def __init__(self, address):
        self.conn = open_dbus_connection(bus=address)
        self.signals = []  # (arrival monotonic s, path, member, body)

    def close(self):
        self.conn.close()

    def call(self, path, interface, member, signature=None, body=()):
        msg = new_method_call(DBusAddress(path, bus_name=NAME, interface=interface), member, signature, body)
        reply = self.conn.send_and_get_reply(msg, timeout=10)
        if reply.header.message_type == MessageType.error:
            raise CallError(reply.header.fields.get(4, "?"), reply.body)  # 4: ERROR_NAME
        return reply.body

    def list_devices(self):
        return list(self.call(MANAGER, MANAGER_INTERFACE, "ListDevices")[0])

    def get(self, path, prop):
        msg = Properties(DBusAddress(path, bus_name=NAME, interface=DEVICE_INTERFACE)).get(prop)
        reply = self.conn.send_and_get_reply(msg, timeout=10)
        if reply.header.message_type == MessageType.error:
            raise CallError(reply.header.fields.get(4, "?"), reply.body)
        return reply.body[0][1]

    def claim(self, path, interval):
        return self.call(path, DEVICE_INTERFACE, "Claim", "d", (interval,))

    def release(self, path):
        return self.call(path, DEVICE_INTERFACE, "Release")

    def watch_manager(self):
        """Asks the bus for the manager's signals (DeviceAdded, DeviceRemoved)."""
        rule = MatchRule(type="signal", sender=NAME, path=MANAGER)
        self.conn.send_and_get_reply(message_bus.AddMatch(rule), timeout=10)

    def collect(self, seconds):
        """Receives for `seconds`; signals go to `self.signals`."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                msg = self.conn.receive(timeout=left)
            except TimeoutError:
                return
            if msg.header.message_type == MessageType.signal:
                fields = msg.header.fields
                self.signals.append((time.monotonic(), fields.get(1), fields.get(3), msg.body))  # PATH, MEMBER

    def motions(self):
        """Motion signals: (arrival, timestamp µs, attitude, gravity, rotation rate, user acceleration)."""
        return [(a,) + tuple(body) for a, path, member, body in self.signals if member == "Motion"]

    def named(self, member):
        return [(a, body) for a, path, m, body in self.signals if m == member]


class CallError(Exception):
    def __init__(self, name, body):
        super().__init__("%s: %s" % (name, body[0] if body else ""))
        self.name = name
