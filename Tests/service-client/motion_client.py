"""What the tests of org.tilt.Motion1 need beyond the client: the service
started on a private bus, and the recordings it replays. The client and the
bus are Tests/vm/busclient.py's (one client of contract §8, which the VM's
scenarios use too), re-exported here."""

import math
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "vm"))

from busclient import (  # noqa: E402,F401 (re-exported for the tests)
    DEVICE_INTERFACE, MANAGER, MANAGER_INTERFACE, NAME, PROPERTIES, CallError, Client, PrivateBus,
    motion_rule, properties_rule)


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
