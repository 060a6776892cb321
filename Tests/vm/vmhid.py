"""Emulated game controllers over uhid, met by the guest kernel's real HID drivers.

hid-tools (PyPI; `hidtools.device.sony_gamepad`, as the kernel's HID selftests
use it) gives the report descriptors, the feature reports the drivers ask for
while they probe (calibration, MAC address, firmware) and the input report
layout. The driver then makes the evdev nodes itself, "… Motion Sensors"
included, with its own resolutions, calibration, MSC_TIMESTAMP and uniq.

Accelerations and rates are given in the card frame (g, deg/s; contract §1.2) and
turned into the controller's axes and the driver's calibrated units here; the
emulation turns those into the raw values that the driver's calibration maps
back (hid-tools' `PSSensor.uncalibrate`).
"""

import math
import os
import select
import struct
import threading
import time
from pathlib import Path

import hidtools.device.base_device as _base
import hidtools.uhid
from hidtools.util import BusType
from hidtools.device.sony_gamepad import PS4ControllerUSB, PS5ControllerUSB

import vmdevices as dev

# hid-tools waits for udev's "bind" events to say a device is ready; there is
# no udevd in the test machine, so readiness is read from sysfs here instead
# (see Controller._wait_probe) and the udev monitor is not started.
_base.UdevHIDIsReady._init_pyudev = classmethod(lambda cls: None)

# The drivers' calibrated units (hid-playstation DS_ACC_RES_PER_G,
# DS_GYRO_RES_PER_DEG_S; hid-sony DS4_ACC_RES_PER_G, DS4_GYRO_RES_PER_DEG_S).
PS_ACCEL_RES = 8192
PS_GYRO_RES = 1024


class ProbeFailure(Exception):
    """The driver did not bind to the emulated device, or made other nodes."""


class Controller:
    """One emulated controller: a hid-tools device, a thread that answers the
    kernel's uhid requests (the probe's GET_REPORTs block until answered), and
    the evdev nodes the driver made for it.

    `timestamp_tick_us` and the field at `timestamp_offset` (`timestamp_bytes`
    wide, little-endian) are the controller's own sensor clock, which the
    driver turns into MSC_TIMESTAMP.
    """

    kind = None
    hid_class = None
    known_frame_defect = None  # a KNOWN defect of tilt-cli's frame for this controller's node
    flip_button = "BTN_SOUTH"  # what `tilt-cli info` names as its flip button (TiltCard FlipTrigger)
    accel_res = 8192  # the driver's ABS_X/Y/Z resolution, units per g
    gyro_res = 1024  # its ABS_RX/RY/RZ resolution, units per deg/s
    name = None  # the HID name the kernel shows, if not hid-tools' own
    calibration_report = None  # its id; bytes 1-6: gyroscope pitch, yaw, roll biases (le16)
    driver = None
    nodes_expected = 3
    timestamp_offset = None
    timestamp_bytes = None
    timestamp_tick_us = None

    def __init__(self, uniq=None):
        self.hid = self.hid_class()
        if self.name:
            self.hid.name = self.name
        if uniq:
            self.hid.uniq = uniq
        self.hid.phys = "usb-0000:00:14.0-%d/input0" % (os.getpid() % 9 + 1)
        self._stop = threading.Event()
        self._pump = threading.Thread(target=self._answer, daemon=True)
        self._templates = {}
        self.buttons = {}
        self.sensor_ticks = 1000
        self.reports = 0
        self.destroyed = False
        # The calibration report with zero gyroscope biases: hid-sony and
        # hid-playstation on 6.1 subtract the biases of this report from the
        # raw rates, later kernels do not; hid-tools' raw values assume they
        # are not. With zeros both read a still controller as still.
        served = self.hid.get_report

        def get_report(req, rnum, rtype):
            err, data = served(req, rnum, rtype)
            if rnum == self.calibration_report and not err:
                data = list(data)
                data[1:7] = [0] * 6
            return err, data

        self.hid.get_report = get_report
        # The kernel may ask for a feature report before create_kernel_device
        # has seen the device's uevent: hid-tools answers only when _ready.
        self.hid._ready = True
        started = time.monotonic()
        self._pump.start()
        self.hid.create_kernel_device()
        self.sys_path = self.hid.sys_path or self._find_sys_path()
        self._wait_probe()
        self.probe_s = time.monotonic() - started  # from UHID_CREATE2 to the driver's nodes

    # -- the kernel's side -------------------------------------------------
    def _answer(self):
        poller = select.poll()
        poller.register(self.hid.fd, select.POLLIN)
        while not self._stop.is_set():
            for _, mask in poller.poll(100):
                if mask & select.POLLIN and not self._stop.is_set():
                    self.hid._process_one_event()

    def _find_sys_path(self):
        """The newest HID device with this controller's ids (without reading its
        uevent file, which blocks while the driver probes)."""
        bus, vid, pid = self.hid.info
        prefix = "%04X:%04X:%04X." % (int(bus), vid, pid)
        found = sorted(Path("/sys/bus/hid/devices").glob(prefix + "*"), key=lambda p: int(p.name[15:], 16))
        if not found:
            raise ProbeFailure("uhid made no HID device %s*" % prefix)
        return found[-1].resolve()

    def _wait_probe(self, timeout=60):
        """Waits until the driver bound (the `driver` link appears once probe
        returned) and its evdev nodes exist."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (self.sys_path / "driver").exists() and len(self.event_dirs()) >= self.nodes_expected:
                break
            time.sleep(0.05)
        else:
            bound = os.path.basename(os.readlink(self.sys_path / "driver")) if (self.sys_path / "driver").exists() else "none"
            raise ProbeFailure(
                "%s: driver %s, %d evdev nodes after %ds (want %s and %d): %s"
                % (self.sys_path.name, bound, len(self.event_dirs()), timeout, self.driver, self.nodes_expected,
                   ", ".join(self.names()))
            )
        bound = os.path.basename(os.readlink(self.sys_path / "driver"))
        if bound != self.driver:
            raise ProbeFailure("%s is driven by %s, not %s" % (self.sys_path.name, bound, self.driver))
        time.sleep(0.3)  # the driver's last output reports (lightbar, player LEDs)

    def event_dirs(self):
        return sorted(self.sys_path.glob("input/input*/event*"))

    def names(self):
        return [(d.parent / "name").read_text().strip() for d in self.event_dirs()]

    def nodes(self):
        """{name: {"node", "phys", "uniq"}} of the evdev nodes the driver made."""
        out = {}
        for d in self.event_dirs():
            read = lambda f: (d.parent / f).read_text().strip()
            out[read("name")] = {"node": "/dev/input/" + d.name, "phys": read("phys"), "uniq": read("uniq")}
        return out

    def player(self, rate_hz=200):
        return Player(self, rate_hz)

    @staticmethod
    def card_of(v):
        """Card-frame vector of a motion node's device-axes vector (contract §1.3)."""
        return (v[0], -v[2], v[1])

    def node(self, suffix=None):
        """The node whose name ends in suffix; None: the gamepad node (the
        controller's own name)."""
        for name, n in self.nodes().items():
            if (suffix and name.endswith(suffix)) or (not suffix and name == self.hid.name):
                return n["node"]
        raise ProbeFailure("no node %r among %s" % (suffix or self.hid.name, ", ".join(self.names())))

    @property
    def motion_node(self):
        return self.node(" Motion Sensors")

    @property
    def gamepad_node(self):
        return self.node()

    # -- reports -----------------------------------------------------------
    def report(self, up_g, rate_dps=(0.0, 0.0, 0.0), buttons=None, period_s=0.004):
        """Sends one input report: the up-vector (card frame, g), the rotation
        rate (card frame, deg/s), the buttons (hid-tools' numbering: 2 is
        cross, BTN_SOUTH), the sensor clock advanced by period_s."""
        if buttons is not None:
            self.buttons.update(buttons)
        key = tuple(sorted(self.buttons.items()))
        if key not in self._templates:
            self._templates[key] = list(self.hid.create_report(buttons=dict(self.buttons)))
        r = list(self._templates[key])
        accel = [int(round(x * PS_ACCEL_RES)) for x in dev.ps_remap(up_g)]
        gyro = [int(round(x * PS_GYRO_RES)) for x in dev.ps_remap(rate_dps)]
        self.hid.store_accelerometer_state(accel)
        self.hid.fill_accelerometer_values(r)
        self.hid.store_gyroscope_state(gyro)
        self.hid.fill_gyroscope_values(r)
        self.sensor_ticks += int(round(period_s * 1e6 / self.timestamp_tick_us))
        ticks = self.sensor_ticks % (1 << (8 * self.timestamp_bytes))
        r[self.timestamp_offset : self.timestamp_offset + self.timestamp_bytes] = ticks.to_bytes(self.timestamp_bytes, "little")
        self.hid.call_input_event(r)
        self.reports += 1

    def destroy(self):
        """Unplugs the controller (UHID_DESTROY): the driver removes its nodes."""
        if self.destroyed:
            return
        self.destroyed = True
        started = time.monotonic()
        self._stop.set()
        self._pump.join(5)
        self.hid.destroy()
        self.destroy_s = time.monotonic() - started


class DualSense(Controller):
    """A DualSense over USB (054c:0ce6) for hid-playstation."""

    kind = "DualSense"
    hid_class = PS5ControllerUSB
    # usbhid names a USB device "manufacturer product"
    name = "Sony Interactive Entertainment DualSense Wireless Controller"
    driver = "playstation"
    calibration_report = 0x05
    # struct dualsense_input_report: sensor_timestamp (le32, 1/3 µs) after
    # the report id, sticks, seq, buttons, reserved, gyro and accel.
    timestamp_offset = 28
    timestamp_bytes = 4
    timestamp_tick_us = 1 / 3


class DualShock4(Controller):
    """A DualShock 4 (CUH-ZCT1, 054c:05c4) over USB for hid-sony."""

    kind = "DualShock 4"
    hid_class = PS4ControllerUSB
    driver = "sony"
    calibration_report = 0x02
    # DS4_INPUT_REPORT_TIMESTAMP_OFFSET: le16 in 16/3 µs units.
    timestamp_offset = 10
    timestamp_bytes = 2
    timestamp_tick_us = 16 / 3


class Player:
    """Paces a controller's reports like dev.Motion paces a uinput device."""

    def __init__(self, pad, rate_hz):
        self.pad, self.period = pad, 1.0 / rate_hz
        self.next_deadline = None

    def frame(self, f, rate=(0.0, 0.0, 0.0), buttons=None):
        now = time.monotonic()
        if self.next_deadline is None:
            self.next_deadline = now
        if self.next_deadline > now:
            time.sleep(self.next_deadline - now)
        self.next_deadline += self.period
        self.pad.report(f, rate, buttons, self.period)

    def hold(self, f, seconds, buttons=None):
        for i in range(max(1, int(seconds / self.period))):
            self.frame(f, buttons=buttons if i == 0 else None)

    def ramp(self, start, end, seconds):
        """(pitch, roll) in degrees from start to end at constant angle rates,
        with the gyroscope rates that turn makes: for R = Rx(pitch)·Ry(roll)
        (contract §1.5) the body rate is (pitch' cos roll, roll', pitch' sin roll)."""
        n = max(1, int(seconds / self.period))
        dp, dr = (end[0] - start[0]) / seconds, (end[1] - start[1]) / seconds
        for i in range(1, n + 1):
            s = i / n
            pitch, roll = start[0] + (end[0] - start[0]) * s, start[1] + (end[1] - start[1]) * s
            r = math.radians(roll)
            self.frame(dev.up_vector(pitch, roll), (dp * math.cos(r), dr, dp * math.sin(r)))


# -- Nintendo Switch Pro Controller ----------------------------------------
# hid-tools has no Nintendo emulation: this one answers what hid-nintendo asks
# while it probes over USB (drivers/hid/hid-nintendo.c, joycon_init and
# nintendo_hid_probe): the USB handshake and baud rate commands (output 0x80,
# answered by input 0x81), then subcommands (output 0x01, answered by input
# 0x21): SPI flash reads of the stick and IMU calibration, report mode 0x30,
# vibration and IMU enable, player and home lights, device info (type, MAC).
# Afterwards it sends full reports (0x30): buttons, sticks and three IMU
# samples each, every 15 ms as a wired Pro Controller does.


def _nintendo_descriptor():
    """A vendor-defined descriptor with the Pro Controller's report ids,
    63 bytes each (hid-nintendo reads reports raw; the ids must be known)."""
    d = [0x05, 0x01, 0x09, 0x04, 0xA1, 0x01,  # Generic Desktop, Joystick, Collection (Application)
         0x06, 0x00, 0xFF, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x3F]  # vendor page, 0..255, 63 bytes
    for usage, report_id in enumerate((0x21, 0x30, 0x31, 0x3F, 0x81), start=1):
        d += [0x85, report_id, 0x09, usage, 0x81, 0x02]  # Report ID, Usage, Input (Data, Var, Abs)
    for usage, report_id in enumerate((0x01, 0x10, 0x11, 0x80, 0x82), start=0x11):
        d += [0x85, report_id, 0x09, usage, 0x91, 0x02]  # Report ID, Usage, Output (Data, Var, Abs)
    return bytes(d + [0xC0])


def _stick_cal(first, second, third):
    """9 bytes of stick calibration: three pairs of 12-bit values (x, y)."""
    out = []
    for x, y in (first, second, third):
        out += [x & 0xFF, ((x >> 8) & 0x0F) | ((y & 0x0F) << 4), (y >> 4) & 0xFF]
    return out


# hid-nintendo's units: accelerometer JC_IMU_ACCEL_RES_PER_G, gyroscope
# JC_IMU_GYRO_RES_PER_DPS (milli-units). With the calibration served below
# (accelerometer offset 0, scale 16384; gyroscope offset 0, scale 13371: the
# driver's defaults) a raw accelerometer value is already in 1/4096 g and the
# driver reports a raw gyroscope value times 1000.
NINTENDO_ACCEL_RES = 4096
NINTENDO_GYRO_RES = 14247  # per 1000 deg/s

_SPI = {
    0x8010: [0xFF, 0xFF],  # no user calibration of the left stick (magic B2 A1 absent)
    0x801B: [0xFF, 0xFF],  # nor of the right stick
    0x8026: [0xFF, 0xFF],  # nor of the IMU
    0x603D: _stick_cal((1500, 1500), (2048, 2048), (1500, 1500)),  # left: above max, center, below min
    0x6046: _stick_cal((2048, 2048), (1500, 1500), (1500, 1500)),  # right: center, below min, above max
    0x6020: list(struct.pack("<12h", 0, 0, 0, 16384, 16384, 16384, 0, 0, 0, 13371, 13371, 13371)),
}


def nintendo_remap(f):
    """Card-frame vector → Nintendo IMU axes (x toward the triggers, y left,
    z up; contract §1.3: card = (−y, x, z) after the PlayStation step)."""
    return (f[1], -f[0], f[2])


class _ProControllerHID(hidtools.uhid.UHIDDevice):
    def __init__(self, owner):
        super().__init__()
        self.owner = owner
        self.name = "Nintendo Co., Ltd. Pro Controller"
        self.info = (owner.bus, 0x057E, owner.product)
        self.rdesc = _nintendo_descriptor()

    def output_report(self, data, size, rtype):
        self.owner._answer_output(bytes(data[:size]))


class SwitchPro(Controller):
    """A Nintendo Switch Pro Controller (057e:2009) over USB for hid-nintendo."""

    kind = "Switch Pro Controller"
    driver = "nintendo"
    nodes_expected = 2  # the gamepad and its "… IMU" node
    bus = BusType.USB
    product = 0x2009
    controller_type = 0x03  # device info: 1 left Joy-Con, 2 right, 3 Pro Controller
    gamepad_name = "Nintendo Switch Pro Controller"
    imu_name = "Nintendo Switch Pro Controller IMU"
    flip_bit = 1 << 2  # B: BTN_SOUTH

    def __init__(self, uniq=None):
        self.hid = _ProControllerHID(self)
        self.mac = bytes.fromhex((uniq or "98:B6:E9:%02X:%02X:%02X" % tuple(os.urandom(3))).replace(":", ""))
        self.hid.uniq = ":".join("%02X" % b for b in self.mac)
        if self.bus == BusType.BLUETOOTH:
            self.hid.phys = "00:1a:7d:da:71:%02x" % (os.getpid() % 256)  # the host adapter's address, as hidp gives it
        else:
            self.hid.phys = "usb-0000:00:14.0-%d/input0" % (os.getpid() % 9 + 1)
        self._stop = threading.Event()
        self._pump = threading.Thread(target=self._answer, daemon=True)
        self._lock = threading.Lock()
        self.timer = 0
        self.buttons_bits = 0
        self.reports = 0
        self.destroyed = False
        self.hid._ready = True
        started = time.monotonic()
        self._pump.start()
        self.hid.create_kernel_device()
        self.sys_path = self.hid.sys_path or self._find_sys_path()
        self._wait_probe()
        self.probe_s = time.monotonic() - started  # from UHID_CREATE2 to the driver's nodes

    accel_res = NINTENDO_ACCEL_RES
    gyro_res = NINTENDO_GYRO_RES

    @staticmethod
    def card_of(v):
        return (-v[1], v[0], v[2])

    def player(self):
        return NintendoPlayer(self)

    @staticmethod
    def raw_axes(v):
        """The IMU's own axes of a vector in the driver's (Pro Controller) axes."""
        return v

    @property
    def gamepad_node(self):
        return self._named(self.gamepad_name)

    @property
    def motion_node(self):
        return self._named(self.imu_name)

    def _named(self, name):
        n = self.nodes().get(name)
        if not n:
            raise ProbeFailure("no node %r among %s" % (name, ", ".join(self.names())))
        return n["node"]

    # -- the driver's requests ----------------------------------------------
    def _send(self, report):
        report = bytes(report) + bytes(64 - len(report))
        with self._lock:
            self.hid.call_input_event(report)

    def _common(self, report_id):
        """Report id, timer, battery (full, charging, powered), buttons, sticks centred, vibrator."""
        self.timer = (self.timer + 1) & 0xFF
        b = self.buttons_bits
        centre = [0x00, 0x08, 0x80]  # 2048, 2048 as two 12-bit values
        return [report_id, self.timer, 0x91, b & 0xFF, (b >> 8) & 0xFF, (b >> 16) & 0xFF] + centre + centre + [0x00]

    def _answer_output(self, data):
        if not data:
            return
        if data[0] == 0x80 and len(data) >= 2:
            # Over Bluetooth there is no USB handshake: the driver's wait for
            # an answer times out and it goes on with the subcommands.
            if self.bus == BusType.USB and data[1] in (0x02, 0x03):  # handshake, 3 Mbit/s: acknowledged; no timeout (0x04): no answer
                self._send([0x81, data[1]])
            return
        if data[0] != 0x01 or len(data) < 11:
            return  # rumble only (0x10) needs no answer
        subcmd, args = data[10], data[11:]
        if subcmd == 0x10:  # SPI flash read: address (le32), size
            addr, size = struct.unpack_from("<IB", args)
            payload = list(_SPI.get(addr, [0xFF] * size))[:size]
            payload += [0xFF] * (size - len(payload))
            reply = [0x90, subcmd] + list(args[:5]) + payload
        elif subcmd == 0x02:  # device info: firmware 4.33, type 3 (Pro Controller), 2, MAC, 1, colours in SPI
            reply = [0x82, subcmd, 0x04, 0x21, self.controller_type, 0x02] + list(self.mac) + [0x01, 0x01]
        else:  # report mode, vibration, IMU, lights: acknowledged
            reply = [0x80, subcmd]
        self._send(self._common(0x21) + reply)

    # -- reports -------------------------------------------------------------
    def report(self, up_g, rate_dps=(0.0, 0.0, 0.0), buttons=None, period_s=0.015, samples=None):
        """One full report (0x30) with three IMU samples: samples is a list of
        three (up_g, rate_dps), else the same one three times. buttons: {2: pressed}
        as for the PlayStation controllers: the flip button (flip_bit)."""
        if buttons is not None and 2 in buttons:
            bit = self.flip_bit
            self.buttons_bits = (self.buttons_bits | bit) if buttons[2] else (self.buttons_bits & ~bit)
        imu = []
        for f, rate in samples or [(up_g, rate_dps)] * 3:
            a = [int(round(x * NINTENDO_ACCEL_RES)) for x in self.raw_axes(nintendo_remap(f))]
            g = [int(round(x * NINTENDO_GYRO_RES / 1000)) for x in self.raw_axes(nintendo_remap(rate))]
            imu += list(struct.pack("<6h", *(a + g)))
        self._send(self._common(0x30) + imu)
        self.reports += 1


class LeftJoyConGrip(SwitchPro):
    """A left Joy-Con in the charging grip (057e:200e) for hid-nintendo: the
    same protocol; its IMU axes are the Pro Controller's (the driver negates
    the right Joy-Con's to match)."""

    kind = "left Joy-Con (charging grip)"
    product = 0x200E
    controller_type = 0x01
    gamepad_name = "Nintendo Switch Left Joy-Con (Grip)"
    imu_name = "Nintendo Switch Left Joy-Con IMU (Grip)"
    # D-pad Left (JC_BTN_LEFT): hid-nintendo's BTN_DPAD_LEFT. A left Joy-Con
    # has neither BTN_SOUTH nor BTN_TRIGGER; its primary button is the one SDL
    # reads as south for a lone sideways left Joy-Con (FlipTrigger's rule).
    flip_bit = 1 << 19
    flip_button = "BTN_DPAD_LEFT"
    # Its IMU node gets the Nintendo frame by the driver's ids (issue 14's
    # report, fixed): scenario 16 checks it.


class SwitchProBluetooth(SwitchPro):
    """The Pro Controller over Bluetooth (bus 0x05): no USB handshake; the
    same reports, every 15 ms as the emulation sends them."""

    kind = "Switch Pro Controller (Bluetooth)"
    bus = BusType.BLUETOOTH


class LeftJoyCon(SwitchPro):
    """A lone left Joy-Con over Bluetooth (057e:2006)."""

    kind = "left Joy-Con (Bluetooth)"
    bus = BusType.BLUETOOTH
    product = 0x2006
    controller_type = 0x01
    gamepad_name = "Nintendo Switch Left Joy-Con"
    imu_name = "Nintendo Switch Left Joy-Con IMU"
    flip_bit = 1 << 19
    flip_button = "BTN_DPAD_LEFT"


class RightJoyCon(SwitchPro):
    """A lone right Joy-Con over Bluetooth (057e:2007). Its IMU is mounted
    turned half a turn about x: hid-nintendo negates y and z (accelerometer
    and gyroscope) to give the left Joy-Con's axes, so the raw values here
    are those negated."""

    kind = "right Joy-Con (Bluetooth)"
    bus = BusType.BLUETOOTH
    product = 0x2007
    controller_type = 0x02
    gamepad_name = "Nintendo Switch Right Joy-Con"
    imu_name = "Nintendo Switch Right Joy-Con IMU"

    @staticmethod
    def raw_axes(v):
        return (v[0], -v[1], -v[2])


class RightJoyConGrip(RightJoyCon):
    """A right Joy-Con in the charging grip (057e:200e, device type 2)."""

    kind = "right Joy-Con (charging grip)"
    bus = BusType.USB
    product = 0x200E
    gamepad_name = "Nintendo Switch Right Joy-Con (Grip)"
    imu_name = "Nintendo Switch Right Joy-Con IMU (Grip)"


class NintendoPlayer(Player):
    """Paces a Pro Controller: one report every 15 ms carrying the three 5 ms
    samples of that interval."""

    def __init__(self, pad):
        super().__init__(pad, 200)
        self.pending = []
        self.buttons = None

    def frame(self, f, rate=(0.0, 0.0, 0.0), buttons=None):
        self.pending.append((f, rate))
        if buttons is not None:
            self.buttons = buttons
        if len(self.pending) < 3:
            return
        now = time.monotonic()
        if self.next_deadline is None:
            self.next_deadline = now
        if self.next_deadline > now:
            time.sleep(self.next_deadline - now)
        self.next_deadline += 3 * self.period
        self.pad.report(None, buttons=self.buttons, samples=self.pending)
        self.buttons = None
        self.pending = []
