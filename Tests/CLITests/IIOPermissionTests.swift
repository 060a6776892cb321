import Foundation
import TestTools
import Testing

/// An IIO sensor that this user may not use (issue 21): `tilt-cli` run as
/// `nobody` on a fake HID sensor hub in a folder every user can enter, as
/// `unreadableDevicesAreNamedWithTheFix` does for evdev nodes.
@Suite(
  .needs(.setpriv),
  .enabled(if: getuid() == 0, "needs root, to run tilt-cli as nobody (setpriv)"))
struct IIOPermissionTests {
  /// README's rule, which the message gives too.
  static let rule =
    #"SUBSYSTEM=="iio", KERNEL=="iio:device*", TAG+="uaccess", RUN+="/bin/sh -c 'cd /sys%p && chmod a+w buffer/enable buffer/length scan_elements/*_en trigger/current_trigger'""#

  struct Tree {
    let folder: URL
    let binary: URL
    var env: [String]
    var accel: String { folder.path + "/dev/iio:device0" }
    var accelSysfs: String { folder.path + "/devices/hub/HID-SENSOR-200073.1.auto/iio:device0" }
    var gyroSysfs: String { folder.path + "/devices/hub/HID-SENSOR-200076.2.auto/iio:device1" }

    func remove() {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: binary.deletingLastPathComponent())
    }

    /// Runs the copy of tilt-cli as nobody, with SIGINT after `seconds` when given.
    func runAsNobody(_ arguments: [String], seconds: Int? = nil) throws -> TiltCLI.Result {
      let stop = seconds.map { ["timeout", "--preserve-status", "-s", "INT", "\($0)"] } ?? []
      return try TiltCLI.runTool(
        try Tool.setpriv.require(),
        ["--reuid=65534", "--regid=65534", "--clear-groups", "env"] + env + stop
          + [binary.path] + arguments)
    }

    func read(_ path: String) -> String? {
      (try? String(contentsOfFile: path, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// A HID hub's accelerometer (`iio:device0`, lying face up) and gyroscope
  /// (`iio:device1`) as 6.1's drivers lay them out, root's files; the nodes
  /// hold a few scans and have mode `nodeMode`.
  static func hubTree(named name: String, nodeMode: mode_t) throws -> Tree {
    let folder = try TestTools.folderForAnotherUser(named: name)
    let binary = try TestTools.copyForAnotherUser(
      TiltCLI.binary, into: try TestTools.folderForAnotherUser(named: name + "-bin"))
    let tree = Tree(
      folder: folder, binary: binary,
      env: [
        "TILT_IIO_DIR=\(folder.path)/bus", "TILT_IIO_DEV_DIR=\(folder.path)/dev",
        "TILT_INPUT_DIR=\(folder.path)/input", "XDG_STATE_HOME=\(folder.path)/state",
      ])
    for directory in ["bus", "dev", "input"] {
      try FileManager.default.createDirectory(
        atPath: folder.path + "/" + directory, withIntermediateDirectories: true)
    }
    for (number, kind, name, directory) in [
      (0, "accel", "accel_3d", tree.accelSysfs), (1, "anglvel", "gyro_3d", tree.gyroSysfs),
    ] {
      var files = [
        "name": name, "in_\(kind)_scale": kind == "accel" ? "0.0980665" : "0.000174532925",
        "in_\(kind)_offset": "0", "in_\(kind)_sampling_frequency": "100",
        "buffer/enable": "0", "buffer/length": "2", "trigger/current_trigger": "",
        "scan_elements/in_timestamp_en": "0", "scan_elements/in_timestamp_index": "3",
        "scan_elements/in_timestamp_type": "le:s64/64>>0",
      ]
      for (i, axis) in ["x", "y", "z"].enumerated() {
        files["in_\(kind)_\(axis)_raw"] = "0"
        files["scan_elements/in_\(kind)_\(axis)_en"] = "0"
        files["scan_elements/in_\(kind)_\(axis)_index"] = "\(i)"
        files["scan_elements/in_\(kind)_\(axis)_type"] = "le:s32/32>>0"
      }
      for (file, text) in files {
        let path = directory + "/" + file
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
      }
      try FileManager.default.createSymbolicLink(
        atPath: folder.path + "/bus/iio:device\(number)", withDestinationPath: directory)
      try FileManager.default.createDirectory(
        atPath: folder.path + "/bus/trigger\(number)", withIntermediateDirectories: true)
      try "\(name)-dev\(number)\n".write(
        toFile: folder.path + "/bus/trigger\(number)/name", atomically: false, encoding: .utf8)
      // Scans of s32 x, y, z, 4 bytes of padding and the s64 ns: face up
      // (gravity's direction −z, 100 units of 0.098 m/s²), still.
      var bytes: [UInt8] = []
      for i in 0..<50 {
        let z: Int64 = kind == "accel" ? -100 : 0
        for value in [0, 0, z] {
          bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        bytes += [0, 0, 0, 0]
        let ns = Int64(1_000_000_000 + i * 10_000_000)
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: ns >> (8 * Int64($0))) }
      }
      let node = folder.path + "/dev/iio:device\(number)"
      try Data(bytes).write(to: URL(fileURLWithPath: node))
      chmod(node, nodeMode)
    }
    return tree
  }

  @Test func anUnreadableNodeIsNamedWithTheUdevRule() throws {
    let tree = try Self.hubTree(named: "tilt-iio-unreadable", nodeMode: 0o600)
    defer { tree.remove() }
    let r = try tree.runAsNobody(["live", "--device", tree.accel, "--format", "jsonl"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(tree.accel): permission denied"), "\(r.stderr)")
    #expect(r.stderr.contains(Self.rule), "\(r.stderr)")
    #expect(tree.read(tree.accelSysfs + "/buffer/enable") == "0")
    // devices says why it can't be used, with the same fix.
    let listing = try tree.runAsNobody(["devices", "--json"])
    #expect(listing.status == 0, "\(listing.stderr)")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
    let entry = try #require(entries.first { $0["path"] as? String == tree.accel })
    let error = try #require(entry["error"] as? String, "\(entry)")
    #expect(error.contains("permission denied") && error.contains(tree.accel), "\(error)")
    #expect(error.contains(Self.rule), "\(error)")
  }

  /// Without a --device, live says which IIO sensor it could not use and how
  /// to get it, not only that there is no input device.
  @Test func liveWithoutADeviceNamesTheUnreadableSensor() throws {
    let tree = try Self.hubTree(named: "tilt-iio-unreadable-first", nodeMode: 0o600)
    defer { tree.remove() }
    let r = try tree.runAsNobody(["live", "--format", "jsonl"])
    #expect(r.status == 1)
    #expect(r.stderr.contains(tree.accel) && r.stderr.contains("permission denied"), "\(r.stderr)")
    #expect(r.stderr.contains(Self.rule), "\(r.stderr)")
  }

  /// A readable node whose buffer attributes only root may write: the
  /// attribute is named, with the rule.
  @Test func anUnwritableAttributeIsNamedWithTheUdevRule() throws {
    let tree = try Self.hubTree(named: "tilt-iio-unwritable", nodeMode: 0o644)
    defer { tree.remove() }
    let r = try tree.runAsNobody(["live", "--device", tree.accel, "--format", "jsonl"])
    #expect(r.status == 1)
    // The first attribute it writes, named by the path it was found at.
    #expect(
      r.stderr.contains(
        tree.folder.path + "/bus/iio:device0/scan_elements/in_accel_x_en: permission denied"),
      "\(r.stderr)")
    #expect(r.stderr.contains(Self.rule), "\(r.stderr)")
    #expect(tree.read(tree.accelSysfs + "/buffer/enable") == "0")
  }

  /// The rule's commands, run on each device's folder as udev runs them,
  /// let nobody set up, read and disable both buffers: the attributes it
  /// makes writable are all that the reader writes.
  @Test func theUdevRuleIsEnoughForNobody() throws {
    let tree = try Self.hubTree(named: "tilt-iio-rule", nodeMode: 0o644)
    defer { tree.remove() }
    let run = try #require(Self.rule.range(of: #"RUN+="/bin/sh -c '"#))
    let command = String(Self.rule[run.upperBound...].prefix { $0 != "'" })
    for sysfs in [tree.accelSysfs, tree.gyroSysfs] {
      let sh = try TiltCLI.runTool(
        "/bin/sh", ["-c", command.replacingOccurrences(of: "/sys%p", with: sysfs)])
      #expect(sh.status == 0, "\(command): \(sh.stderr)")
    }
    let r = try tree.runAsNobody(
      ["live", "--device", tree.accel, "--format", "jsonl", "--every-sample"], seconds: 1)
    #expect(r.status == 0, "\(r.stderr)")
    let last = try #require(r.stdout.split(separator: "\n").last, "no frames: \(r.stderr)")
    let frame = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    let gravity = try #require(frame["gravity"] as? [Double])
    #expect(abs(gravity[2] + 1) < 1e-6, "face up: gravity \(gravity)")
    for sysfs in [tree.accelSysfs, tree.gyroSysfs] {
      #expect(tree.read(sysfs + "/buffer/enable") == "0", "disabled again on exit")
      #expect(tree.read(sysfs + "/buffer/length") == "128")
      #expect(tree.read(sysfs + "/scan_elements/in_timestamp_en") == "1")
    }
    #expect(tree.read(tree.accelSysfs + "/trigger/current_trigger") == "accel_3d-dev0")
    #expect(tree.read(tree.gyroSysfs + "/trigger/current_trigger") == "gyro_3d-dev1")
  }

  /// README gives the same rule as the message.
  @Test func readmeGivesTheRule() throws {
    let readme = try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains(Self.rule))
  }
}
