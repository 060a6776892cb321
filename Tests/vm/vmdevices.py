"""uinput devices for the test machine, and what is written into them.

Accelerations are in g, in the device's own frame; a device reports the
up-vector (a device lying still with +z up reads (0, 0, +1) g, contract §1.4).
"""

import math
import random
import time

from evdev import AbsInfo, InputDevice, UInput, ecodes as e

# Units per g of the plain accelerometer (the kernel's ABS resolution for
# INPUT_PROP_ACCELEROMETER devices is in units per g).
ACCEL_RES = 1024
# A DualSense "Motion Sensors" node: 8192 units/g, 1024 units/(deg/s).
DS_ACCEL_RES = 8192
DS_GYRO_RES = 1024
# hid-playstation gives every node of one controller the same phys; uinput
# cannot set uniq (there is no UI_SET_UNIQ), so the pair shares phys only.
DS_PHYS = "usb-0000:00:14.0-2/input3"


def accelerometer(name="tilt-vm accelerometer", phys="tilt-vm/accel0"):
    """A plain 3-axis accelerometer with INPUT_PROP_ACCELEROMETER, no MSC_TIMESTAMP."""
    limit = 4 * ACCEL_RES
    axes = [(code, AbsInfo(0, -limit, limit, 0, 0, ACCEL_RES)) for code in (e.ABS_X, e.ABS_Y, e.ABS_Z)]
    return UInput(
        {e.EV_ABS: axes},
        name=name,
        vendor=0x1D6B,
        product=0x7A17,
        version=1,
        bustype=e.BUS_VIRTUAL,
        phys=phys,
        input_props=[e.INPUT_PROP_ACCELEROMETER],
    )


def dualsense_motion():
    """The "Motion Sensors" node of a DualSense as hid-playstation creates it."""
    acc = [(c, AbsInfo(0, -32768, 32767, 16, 0, DS_ACCEL_RES)) for c in (e.ABS_X, e.ABS_Y, e.ABS_Z)]
    gyr = [(c, AbsInfo(0, -2097152, 2097152, 16, 0, DS_GYRO_RES)) for c in (e.ABS_RX, e.ABS_RY, e.ABS_RZ)]
    return UInput(
        {e.EV_ABS: acc + gyr, e.EV_MSC: [e.MSC_TIMESTAMP]},
        name="Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
        vendor=0x054C,
        product=0x0CE6,
        version=0x8111,
        bustype=e.BUS_USB,
        phys=DS_PHYS,
        input_props=[e.INPUT_PROP_ACCELEROMETER],
    )


def dualsense_gamepad():
    """The gamepad node of the same DualSense: sticks, triggers, hat and buttons."""
    sticks = [(c, AbsInfo(128, 0, 255, 0, 0, 0)) for c in (e.ABS_X, e.ABS_Y, e.ABS_RX, e.ABS_RY)]
    triggers = [(c, AbsInfo(0, 0, 255, 0, 0, 0)) for c in (e.ABS_Z, e.ABS_RZ)]
    hat = [(c, AbsInfo(0, -1, 1, 0, 0, 0)) for c in (e.ABS_HAT0X, e.ABS_HAT0Y)]
    keys = [
        e.BTN_SOUTH, e.BTN_EAST, e.BTN_NORTH, e.BTN_WEST, e.BTN_TL, e.BTN_TR, e.BTN_TL2,
        e.BTN_TR2, e.BTN_SELECT, e.BTN_START, e.BTN_MODE, e.BTN_THUMBL, e.BTN_THUMBR,
    ]  # fmt: skip
    return UInput(
        {e.EV_ABS: sticks + triggers + hat, e.EV_KEY: keys},
        name="Sony Interactive Entertainment DualSense Wireless Controller",
        vendor=0x054C,
        product=0x0CE6,
        version=0x8111,
        bustype=e.BUS_USB,
        phys=DS_PHYS,
    )


def gamepad(name="tilt-vm pad", phys="tilt-vm/pad0"):
    """A plain gamepad whose one node has a stick and the buttons: a joystick
    that acts as a tilt sensor (contract §2.5), its primary button BTN_SOUTH."""
    stick = [(c, AbsInfo(0, -32768, 32767, 16, 128, 0)) for c in (e.ABS_X, e.ABS_Y)]
    keys = [e.BTN_SOUTH, e.BTN_EAST, e.BTN_NORTH, e.BTN_WEST, e.BTN_START]
    return UInput(
        {e.EV_ABS: stick, e.EV_KEY: keys},
        name=name,
        vendor=0x1D6B,
        product=0x7A18,
        version=1,
        bustype=e.BUS_VIRTUAL,
        phys=phys,
    )


def press(ui, code):
    """A press and release of one button, each its own frame."""
    ui.write(e.EV_KEY, code, 1)
    ui.syn()
    time.sleep(0.05)
    ui.write(e.EV_KEY, code, 0)
    ui.syn()


def node_of(ui):
    """The /dev/input/eventN node of a uinput device."""
    return ui.device.path


def up_vector(pitch_deg, roll_deg):
    """The card's up-vector f in card coordinates for a pitch and roll (contract §1.5)."""
    p, r = math.radians(pitch_deg), math.radians(roll_deg)
    return (-math.sin(r) * math.cos(p), math.sin(p), math.cos(r) * math.cos(p))


def angle_between(a, b):
    """Angle in degrees between two 3-vectors."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / (na * nb)))))


def write_accel(ui, g, res=ACCEL_RES, codes=(e.ABS_X, e.ABS_Y, e.ABS_Z), timestamp_us=None, gyro_units=None):
    """Writes one frame: the three axes (units = g·res), the gyroscope axes (already
    in units) if given, MSC_TIMESTAMP if given, SYN_REPORT."""
    for code, value in zip(codes, g):
        ui.write(e.EV_ABS, code, int(round(value * res)))
    if gyro_units is not None:
        for code, value in zip((e.ABS_RX, e.ABS_RY, e.ABS_RZ), gyro_units):
            ui.write(e.EV_ABS, code, int(round(value)))
    if timestamp_us is not None:
        ui.write(e.EV_MSC, e.MSC_TIMESTAMP, timestamp_us & 0xFFFFFFFF)
    ui.syn()


class Motion:
    """A paced stream of accelerometer frames with a little seeded sensor noise.

    Noise of ±1 unit keeps every frame non-empty: the input core drops values
    that did not change, and a frame with no change is not sent at all.
    """

    def __init__(self, ui, rate_hz, res=ACCEL_RES, seed=1, remap=None, timestamps=False, gyro_res=None):
        self.ui, self.period, self.res, self.gyro_res = ui, 1.0 / rate_hz, res, gyro_res
        self.rng = random.Random(seed)
        self.remap = remap or (lambda f: f)
        self.timestamps = timestamps
        self.timestamp_us = 1_000_000
        self.next_deadline = None
        self.frames = 0

    def _wait_turn(self):
        now = time.monotonic()
        # After a pause (the scenario waited between motions) the stream goes
        # on from now: catching up would write the missed frames in a burst
        # with bunched kernel times, which no real sensor does.
        if self.next_deadline is None or now - self.next_deadline > 0.1:
            self.next_deadline = now
        if self.next_deadline > now:
            time.sleep(self.next_deadline - now)
        self.next_deadline += self.period

    def frame(self, f, rate=(0.0, 0.0, 0.0)):
        """Writes the up-vector f (card frame, g) and, on a device with a
        gyroscope, the rotation rate (card frame, deg/s) at the next tick."""
        self._wait_turn()
        d = self.remap(f)
        noisy = [x + self.rng.choice((-1, 0, 1)) / self.res for x in d]
        gyro = None
        if self.gyro_res:
            gyro = [x * self.gyro_res + self.rng.choice((-1, 0, 1)) for x in self.remap(rate)]
        ts = None
        if self.timestamps:
            self.timestamp_us += int(self.period * 1e6)
            ts = self.timestamp_us
        write_accel(self.ui, noisy, self.res, timestamp_us=ts, gyro_units=gyro)
        self.frames += 1

    def hold(self, f, seconds):
        for _ in range(max(1, int(seconds / self.period))):
            self.frame(f)

    def ramp(self, start, end, seconds):
        """Pitch/roll ramp at constant rates: start and end are (pitch, roll) in
        degrees; pitch turns about the card's +x, roll about +y (contract §1.5)."""
        n = max(1, int(seconds / self.period))
        rate = ((end[0] - start[0]) / seconds, (end[1] - start[1]) / seconds, 0.0)
        for i in range(1, n + 1):
            s = i / n
            self.frame(up_vector(start[0] + (end[0] - start[0]) * s, start[1] + (end[1] - start[1]) * s), rate)


def ps_remap(f):
    """Card-frame vector → DualSense device axes (card = (x, −z, y), contract §1.3)."""
    return (f[0], f[2], -f[1])


def describe(node):
    """The description part of an evemu file, as evemu-describe writes it."""
    import subprocess

    return subprocess.run(["evemu-describe", node], capture_output=True, text=True, check=True, timeout=30).stdout


def evemu_event_lines(events):
    """E: lines as evemu-record writes them, times relative to the first event."""
    lines, t0 = [], None
    for ev in events:
        t = ev.sec * 1_000_000 + ev.usec
        if t0 is None:
            t0 = t
        rel = t - t0
        lines.append("E: %d.%06d %04x %04x %04d" % (rel // 1_000_000, rel % 1_000_000, ev.type, ev.code, ev.value))
    return lines


def open_reader(node):
    return InputDevice(node)
