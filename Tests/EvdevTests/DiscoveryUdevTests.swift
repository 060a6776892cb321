import Foundation
import Testing

@testable import Evdev
@testable import SensorData

@Suite struct DiscoveryUdevTests {
  static let entry = """
    S:input/by-path/platform-iio-accel-event
    I:1234567
    E:ID_INPUT=1
    E:ID_INPUT_ACCELEROMETER=1
    E:ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1
    E:ID_PATH=platform-cros-ec-accel.0
    E:BROKEN
    E:=novalue
    E:EMPTY=
    G:seat
    Q:seat
    V:1

    """

  @Test func parsesEnvironmentLinesOnly() {
    let properties = UdevProperties(parsing: Self.entry)
    #expect(
      properties.values == [
        "ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1",
        "ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1",
        "ID_PATH": "platform-cros-ec-accel.0", "EMPTY": "",
      ])
  }

  @Test func valueKeepsEverythingAfterTheFirstEquals() {
    #expect(UdevProperties(parsing: "E:KEY=a=b c\r\n")["KEY"] == "a=b c")
  }

  @Test func readsTheEntryOfADeviceNodeFromAnInjectedDirectory() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-udev-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // /dev/zero is the character device 1:5 on Linux.
    try Self.entry.write(toFile: directory + "/c1:5", atomically: true, encoding: .utf8)

    #expect(
      UdevProperties.accelMountMatrix(forDevicePath: "/dev/zero", directory: directory)
        == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    #expect(UdevProperties(major: 1, minor: 5, directory: directory)?["ID_INPUT"] == "1")
    #expect(
      UdevProperties.accelMountMatrix(forDevicePath: "/dev/null", directory: directory) == nil)
    #expect(UdevProperties(forDevicePath: directory, directory: directory) == nil)
    #expect(UdevProperties(forDevicePath: directory + "/missing", directory: directory) == nil)
  }

  @Test func entryWithoutMatrixGivesNil() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-udev-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try "E:ID_INPUT=1\n".write(toFile: directory + "/c1:5", atomically: true, encoding: .utf8)
    #expect(
      UdevProperties.accelMountMatrix(forDevicePath: "/dev/zero", directory: directory) == nil)
  }
}
