import Foundation
import SystemCalls
import Testing

@testable import Evdev
@testable import SensorData

@Suite struct LiveDeviceErrorTests {
  @Test func devZeroIsNotAnInputDevice() {
    #expect(throws: DeviceError.notAnInputDevice("/dev/zero")) { try LiveDevice(path: "/dev/zero") }
  }

  @Test func aDirectoryIsNotAnInputDevice() {
    let directory = FileManager.default.temporaryDirectory.path
    #expect(throws: DeviceError.notAnInputDevice(directory)) { try LiveDevice(path: directory) }
  }

  @Test func aRegularFileIsNotAnInputDevice() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-live-\(UUID().uuidString).txt").path
    try "not a device\n".write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(throws: DeviceError.notAnInputDevice(file)) { try LiveDevice(path: file) }
  }

  @Test func aMissingNodeIsNotFound() {
    let path = "/dev/input/event-tilt-missing-\(UUID().uuidString)"
    #expect(throws: DeviceError.notFound(path)) { try LiveDevice(path: path) }
  }

  @Test(arguments: [Errno.permissionDenied, Errno.notPermitted])
  func permissionErrorsMapToPermissionDenied(errno: Errno) {
    #expect(
      DeviceError(path: "/dev/input/event4", errno: errno, operation: "open")
        == .permissionDenied("/dev/input/event4"))
  }

  /// The fix is the shipped rule, which opens motion sensors' nodes only.
  @Test func permissionMessageNamesTheNodeAndTheShippedRule() {
    let message = DeviceError.permissionDenied("/dev/input/event4").description
    #expect(message.hasPrefix("/dev/input/event4: permission denied"))
    #expect(message.contains("packaging/udev/70-tilt-evdev.rules"))
    #expect(message.contains(#"ENV{ID_INPUT_ACCELEROMETER}=="1", TAG+="uaccess""#))
    #expect(message.contains("sudo udevadm trigger -s input"))
    #expect(!message.contains("usermod"))
    #expect(!message.contains("\n"))
  }

  @Test func errnoMapping() {
    let path = "/dev/input/event9"
    #expect(DeviceError(path: path, errno: .noDevice, operation: "read") == .vanished(path))
    #expect(DeviceError(path: path, errno: .noSuchFile, operation: "open") == .notFound(path))
    #expect(
      DeviceError(path: path, errno: .notTypewriter, operation: "ioctl") == .notAnInputDevice(path))
    #expect(
      DeviceError(path: path, errno: Errno(rawValue: 5), operation: "read")
        == .system(path, Errno(rawValue: 5), operation: "read"))
  }

  @Test func everyMessageIsOneLineNamingTheNode() {
    let path = "/dev/input/event2"
    let errors: [DeviceError] = [
      .permissionDenied(path), .notFound(path), .notAnInputDevice(path), .vanished(path),
      .system(path, Errno(rawValue: 5), operation: "libevdev_next_event"),
    ]
    for error in errors {
      #expect(error.description.hasPrefix(path + ": "))
      #expect(!error.description.contains("\n"))
      #expect(error.path == path)
    }
    #expect(
      DeviceError.system(path, Errno(rawValue: 5), operation: "libevdev_next_event").description
        == "/dev/input/event2: libevdev_next_event failed: Input/output error (EIO)")
  }
}
