import CEvdev
import Foundation

/// A real input device made through uinput (`/dev/uinput`), for tests that need
/// the kernel's evdev. Only where uinput exists: a kernel in a VM, not a container.
final class VirtualDevice {
  private let template: OpaquePointer
  private var uinput: OpaquePointer?
  private var uinputDescriptor: Int32 = -1
  /// The `/dev/input/eventN` node the kernel made.
  let path: String

  static var isAvailable: Bool { FileManager.default.isWritableFile(atPath: "/dev/uinput") }

  /// An accelerometer + gyroscope with `INPUT_PROP_ACCELEROMETER` and
  /// `MSC_TIMESTAMP`, like a DualSense "Motion Sensors" node.
  static func motionSensors(name: String = "Tilt Test Pad Motion Sensors", phys: String = "")
    throws -> VirtualDevice
  {
    try VirtualDevice(name: name, phys: phys) { device in
      libevdev_enable_property(device, UInt32(INPUT_PROP_ACCELEROMETER))
      for (code, resolution) in [
        (ABS_X, 8192), (ABS_Y, 8192), (ABS_Z, 8192), (ABS_RX, 1024), (ABS_RY, 1024), (ABS_RZ, 1024),
      ] {
        var info = input_absinfo(
          value: 0, minimum: -32768, maximum: 32767, fuzz: 0, flat: 0, resolution: Int32(resolution)
        )
        libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &info)
      }
      libevdev_enable_event_code(device, UInt32(EV_MSC), UInt32(MSC_TIMESTAMP), nil)
    }
  }

  /// A gamepad's button node.
  static func gamepad(name: String = "Tilt Test Pad", phys: String = "") throws -> VirtualDevice {
    try VirtualDevice(name: name, phys: phys) { device in
      libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_SOUTH), nil)
      libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_EAST), nil)
    }
  }

  /// uinput can set `phys` (`UI_SET_PHYS`, which libevdev 1.13's uinput helper
  /// does not call, so it is called here) but not `uniq`: the kernel has no ioctl
  /// for it, so a uinput device's `uniq` is always empty.
  private init(name: String, phys: String, configure: (OpaquePointer) -> Void) throws {
    guard let device = libevdev_new() else { throw Failure("libevdev_new failed") }
    template = device
    libevdev_set_name(device, name)
    libevdev_set_id_bustype(device, Int32(BUS_USB))
    configure(device)
    let fd = open("/dev/uinput", O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      libevdev_free(device)
      throw Failure("open /dev/uinput failed: errno \(errno)")
    }
    uinputDescriptor = fd
    if !phys.isEmpty {
      // UI_SET_PHYS is _IOW('U', 108, char *).
      let setPhys = UInt(1 << 30 | MemoryLayout<UnsafePointer<CChar>>.size << 16 | 0x55 << 8 | 108)
      let result = phys.withCString { ioctl(fd, setPhys, UnsafeMutableRawPointer(mutating: $0)) }
      guard result == 0 else {
        close(fd)
        libevdev_free(device)
        throw Failure("UI_SET_PHYS failed: errno \(errno)")
      }
    }
    var created: OpaquePointer?
    let result = libevdev_uinput_create_from_device(device, fd, &created)
    guard result == 0, let created else {
      close(fd)
      libevdev_free(device)
      throw Failure("libevdev_uinput_create_from_device failed: errno \(-result)")
    }
    guard let node = libevdev_uinput_get_devnode(created) else {
      libevdev_uinput_destroy(created)
      close(fd)
      libevdev_free(device)
      throw Failure("uinput device has no /dev/input node (is sysfs mounted?)")
    }
    uinput = created
    path = String(cString: node)
  }

  deinit {
    destroy()
    libevdev_free(template)
  }

  /// Writes one event; the kernel delivers it to readers before this returns.
  func write(_ type: Int32, _ code: Int32, _ value: Int32) throws {
    guard let uinput else { throw Failure("device destroyed") }
    let result = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
    if result != 0 { throw Failure("libevdev_uinput_write_event failed: errno \(-result)") }
  }

  /// One motion sample: accelerometer x, y, z, the timestamp and `SYN_REPORT`.
  func writeSample(x: Int32, y: Int32, z: Int32, timestamp: UInt32) throws {
    try write(EV_ABS, ABS_X, x)
    try write(EV_ABS, ABS_Y, y)
    try write(EV_ABS, ABS_Z, z)
    try write(EV_MSC, MSC_TIMESTAMP, Int32(bitPattern: timestamp))
    try write(EV_SYN, SYN_REPORT, 0)
  }

  /// Unplugs the device.
  func destroy() {
    if let uinput { libevdev_uinput_destroy(uinput) }
    uinput = nil
    if uinputDescriptor >= 0 { close(uinputDescriptor) }
    uinputDescriptor = -1
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
