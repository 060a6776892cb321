"""An emulated HID sensor hub over uhid, met by the guest kernel's real
hid-sensor-hub, hid-sensor-accel-3d and hid-sensor-gyro-3d (issue 21).

The report descriptor has one *physical* collection on the Sensors page per
sensor (Accelerometer 3D 0x73, Gyrometer 3D 0x76): that is what makes hid-core
group the device as a sensor hub and hid-sensor-hub add one platform device
per collection (HID-SENSOR-200073, HID-SENSOR-200076). Each sensor has a
feature report with the properties the drivers ask for while probing and
enabling (reporting state and power state as named arrays, whose selectors
the driver writes as index + logical minimum; report interval; sensitivity),
answered and stored here, and an input report: three s16 axes and the HID
timestamp (0x200529, µs of the emulation's own clock). Each axis is an Input
item of its own: hid-sensor-hub finds a field by its first usage.

Units: acceleration in g with unit exponent -3 (1000 a g; the driver's scale
is 9.80665e-3 m/s² a unit), rates in deg/s with exponent -2 (100 a deg/s).
A HID hub reports the direction of gravity (face up: z = -1 g): `report()`
takes the card's up-vector and sends its negation (contract §2.4's IIO rule).

No hid-tools here: the uhid events are packed as include/uapi/linux/uhid.h
lays them out.
"""

import os
import select
import struct
import threading
import time
from pathlib import Path

UHID_DESTROY, UHID_START, UHID_STOP, UHID_OPEN, UHID_CLOSE, UHID_OUTPUT = 1, 2, 3, 4, 5, 6
UHID_GET_REPORT, UHID_GET_REPORT_REPLY, UHID_CREATE2, UHID_INPUT2 = 9, 10, 11, 12
UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 13, 14
EVENT_SIZE = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 5 + 4096  # struct uhid_event (create2 is the largest member)

ACCEL_UNITS_PER_G = 1000
GYRO_UNITS_PER_DPS = 100
VENDOR, PRODUCT = 0x1209, 0x7117  # pid.codes test range: no hid quirk applies


def _usage(u):
    return [0x0A, u & 0xFF, (u >> 8) & 0xFF]  # Usage, 16 bits within the Sensors page


def _named_array(property_usage, selectors):
    d = _usage(property_usage) + [0x15, 0x00, 0x25, len(selectors) - 1, 0x75, 0x08, 0x95, 0x01, 0xA1, 0x02]
    for s in selectors:
        d += _usage(s)
    return d + [0xB1, 0x00, 0xC0]  # Feature (Data, Array, Abs), End Collection


def _sensor(sensor_usage, report_id, sensitivity_usage, axes, exponent):
    d = [0x05, 0x20, 0x09, sensor_usage, 0xA1, 0x00, 0x85, report_id]  # Sensors page, physical collection
    d += _named_array(0x0316, [0x0840, 0x0841, 0x0842, 0x0843, 0x0844, 0x0845])  # reporting state
    d += _named_array(0x0319, [0x0850, 0x0851, 0x0852, 0x0853, 0x0854, 0x0855])  # power state
    d += _usage(0x030E) + [0x15, 0x00, 0x27, 0xFF, 0xFF, 0xFF, 0x7F, 0x75, 0x20, 0x95, 0x01, 0x55, 0x00,
                           0xB1, 0x02]  # report interval, ms
    d += _usage(sensitivity_usage) + [0x15, 0x00, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x01, 0x55, exponent,
                                      0xB1, 0x02]
    # One Input item an axis: hid-sensor-hub finds a field by its first usage.
    d += [0x16, 0x01, 0x80, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x01, 0x55, exponent]
    for a in axes:
        d += _usage(a) + [0x81, 0x02]
    d += _usage(0x0529) + [0x15, 0x00, 0x27, 0xFF, 0xFF, 0xFF, 0x7F, 0x75, 0x20, 0x95, 0x02, 0x55, 0x0A,
                           0x81, 0x02]  # timestamp, 64 bits of µs
    return d + [0xC0]


ACCEL_ID, GYRO_ID = 1, 2


def descriptor(gyro=True):
    d = _sensor(0x73, ACCEL_ID, 0x1452, [0x0453, 0x0454, 0x0455], 0x0D)
    if gyro:
        d += _sensor(0x76, GYRO_ID, 0x1456, [0x0457, 0x0458, 0x0459], 0x0E)
    return bytes(d)


class ProbeFailure(Exception):
    pass


class SensorHub:
    """One emulated hub: its uhid descriptor, a thread answering the kernel's
    GET_REPORT/SET_REPORT, and the IIO devices the drivers made for it."""

    def __init__(self, gyro=True, name="tilt test sensor hub"):
        self.gyro = gyro
        self.name = name
        self.fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC)
        # Feature reports: id, reporting state, power state, interval (ms), sensitivity.
        self.features = {ACCEL_ID: [ACCEL_ID, 0, 0, 10, 0, 0, 0, 0, 0]}
        if gyro:
            self.features[GYRO_ID] = [GYRO_ID, 0, 0, 10, 0, 0, 0, 0, 0]
        self.sets = []  # (report id, bytes) the driver wrote, in order
        self.opened = 0
        self.clock_us = 1_000_000
        self.reports = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        rdesc = descriptor(gyro)
        create = struct.pack("<I128s64s64sHHIIII4096s", UHID_CREATE2, name.encode(), b"tilt-vm/sensorhub",
                             b"", len(rdesc), 0x03, VENDOR, PRODUCT, 1, 0, rdesc)
        self._pump = threading.Thread(target=self._answer, daemon=True)
        self._pump.start()
        started = time.monotonic()
        os.write(self.fd, create)
        self.accel_dir, self.gyro_dir = self._wait_probe()
        self.probe_s = time.monotonic() - started
        self.destroyed = False

    def _answer(self):
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while not self._stop.is_set():
            for _, mask in poller.poll(100):
                if not mask & select.POLLIN or self._stop.is_set():
                    continue
                try:
                    ev = os.read(self.fd, EVENT_SIZE)
                except OSError:
                    return
                kind = struct.unpack_from("<I", ev)[0]
                if kind == UHID_GET_REPORT:
                    req, rnum, _rtype = struct.unpack_from("<IBB", ev, 4)
                    with self._lock:
                        data = bytes(self.features.get(rnum, [rnum]))
                    err = 0 if rnum in self.features else 5  # EIO
                    os.write(self.fd, struct.pack("<IIHH4096s", UHID_GET_REPORT_REPLY, req, err, len(data), data))
                elif kind == UHID_SET_REPORT:
                    req, rnum, _rtype, size = struct.unpack_from("<IBBH", ev, 4)
                    data = list(ev[12:12 + size])
                    with self._lock:
                        if rnum in self.features and len(data) == len(self.features[rnum]):
                            self.features[rnum] = data
                        self.sets.append((rnum, bytes(data)))
                    os.write(self.fd, struct.pack("<IIH", UHID_SET_REPORT_REPLY, req, 0))
                elif kind == UHID_OPEN:
                    self.opened += 1
                elif kind == UHID_CLOSE:
                    self.opened -= 1

    def _iio_dirs(self):
        found = {}
        for link in Path("/sys/bus/iio/devices").glob("iio:device*"):
            real = link.resolve()
            hid = real.parent.parent.name  # 0003:1209:7117.NNNN
            if hid.startswith("0003:%04X:%04X." % (VENDOR, PRODUCT)):
                found[real.parent.name.split(".")[0]] = link
        return found.get("HID-SENSOR-200073"), found.get("HID-SENSOR-200076")

    def _wait_probe(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            accel, gyro = self._iio_dirs()
            if accel and (gyro or not self.gyro) and Path("/dev/" + accel.name).exists() and (
                    not gyro or Path("/dev/" + gyro.name).exists()):
                time.sleep(0.3)
                return accel, gyro
            time.sleep(0.05)
        raise ProbeFailure("hid-sensor-hub made no IIO device for the emulated hub within %ds (IIO devices: %s)" % (
            timeout, ", ".join(sorted(p.name for p in Path("/sys/bus/iio/devices").glob("*")))))

    @property
    def accel_node(self):
        return "/dev/" + self.accel_dir.name

    @property
    def gyro_node(self):
        return "/dev/" + self.gyro_dir.name if self.gyro_dir else None

    def buffer_enabled(self, which="accel"):
        d = self.accel_dir if which == "accel" else self.gyro_dir
        try:
            return (d / "buffer" / "enable").read_text().strip() == "1"
        except OSError:
            return False

    def _input(self, report):
        os.write(self.fd, struct.pack("<IH4096s", UHID_INPUT2, len(report), bytes(report)))

    def report(self, up_g, rate_dps=(0.0, 0.0, 0.0), period_s=0.01):
        """One accelerometer report (and a gyroscope one): the card's up-vector
        (g) sent as the direction of gravity, the rate (card frame, deg/s), the
        hub clock advanced by period_s."""
        self.clock_us += int(round(period_s * 1e6))
        ts = struct.pack("<q", self.clock_us)
        a = [max(-32767, min(32767, int(round(-x * ACCEL_UNITS_PER_G)))) for x in up_g]
        self._input(struct.pack("<Bhhh", ACCEL_ID, *a) + ts)
        if self.gyro:
            r = [max(-32767, min(32767, int(round(x * GYRO_UNITS_PER_DPS)))) for x in rate_dps]
            self._input(struct.pack("<Bhhh", GYRO_ID, *r) + ts)
        self.reports += 1

    def encoded_up(self, up_g):
        """The up-vector the driver's units carry for up_g (rounded as report() rounds)."""
        return tuple(-int(round(-x * ACCEL_UNITS_PER_G)) / ACCEL_UNITS_PER_G for x in up_g)

    def play(self, frames, period_s=0.01):
        """Sends (up, rate) pairs paced at period_s of wall time."""
        next_t = time.monotonic()
        for up, rate in frames:
            self.report(up, rate, period_s)
            next_t += period_s
            delay = next_t - time.monotonic()
            if delay > 0:
                time.sleep(delay)

    def destroy(self):
        """Unplugs the hub (UHID_DESTROY): the drivers remove the IIO devices."""
        if self.destroyed:
            return
        self.destroyed = True
        self._stop.set()
        self._pump.join(5)
        try:
            os.write(self.fd, struct.pack("<I", UHID_DESTROY))
        finally:
            os.close(self.fd)
