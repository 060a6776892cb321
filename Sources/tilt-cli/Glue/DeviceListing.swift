import Evdev
import Foundation
import Tilt
import TiltCard

extension DeviceListing {
  /// What a person reads: one line a device, usable ones first.
  var table: String {
    guard !entries.isEmpty || !iioDevices.isEmpty else {
      var isDirectory: ObjCBool = false
      if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
        let fix =
          directory == "/dev/input"
          ? "(a container or chroot without the host's devices?)"
          : "(it comes from TILT_INPUT_DIR; unset it to list /dev/input)"
        return
          "\(TerminalText.escaped(directory)) does not exist, so there are no input devices to list \(fix).\n"
      }
      return
        "No input devices in \(TerminalText.escaped(directory)). A tablet or laptop accelerometer, a gamepad "
        + "with motion sensors or a joystick shows up here once attached.\n"
    }
    // Names, nodes and errors come from devices (any user with /dev/uinput
    // names one): each cell is shown with its control characters escaped.
    var rows = entries.map { entry -> [String] in
      let name = entry.device.info?.name ?? "?"
      guard let profile = entry.profile else {
        return [
          entry.device.path, "-", name,
          entry.device.openError.map { LibraryErrorText.describe($0) } ?? "unreadable",
        ]
      }
      // A usable node: its units and clock, then what the classifier noted
      // beyond "accelerometer and gyroscope" (the driver, guessed units).
      let notes = profile.reason.components(separatedBy: "; ").dropFirst()
      var note =
        profile.kind == .unsupported
        ? profile.reason : ([profile.summary] + notes).joined(separator: "; ")
      if let buttons = entry.device.pairedButtonPath { note += "; buttons on \(buttons)" }
      return [entry.device.path, profile.kind.rawValue, name, note]
    }
    rows += IIOLive.rows(iioDevices)
    rows = rows.map { $0.map { TerminalText.escaped($0) } }
    let header = ["DEVICE", "KIND", "NAME", "NOTES"]
    let widths = (0..<3).map { column in
      ([header] + rows).map { $0[column].count }.max()!
    }
    func line(_ cells: [String]) -> String {
      (0..<3).map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
        .joined(separator: "  ") + "  " + cells[3] + "\n"
    }
    let usable =
      entries.filter { ($0.profile?.kind ?? .unsupported) != .unsupported }.count
      + rows.suffix(iioDevices.count).filter { $0[1] != "-" }.count
    return line(header) + rows.map(line).joined()
      + "\n\(usable) of \(entries.count + iioDevices.count) devices can drive the card.\n"
  }

  var json: JSONValue {
    .array(
      entries.map { entry in
        var members: [(String, JSONValue)] = [
          ("path", .string(entry.device.path)),
          ("name", JSONValue(entry.device.info?.name)),
          ("kind", JSONValue(entry.profile?.kind.rawValue)),
        ]
        if let profile = entry.profile {
          members += profile.jsonMembers
          members.append(("udev", profile.udevJSON))
        }
        members.append(("pairedButtons", JSONValue(entry.device.pairedButtonPath)))
        members.append(
          ("error", JSONValue(entry.device.openError.map { LibraryErrorText.describe($0) })))
        return .object(members)
      } + iioDevices.map { IIOLive.listingJSON($0, among: iioDevices) })
  }
}

extension DeviceProfile {
  /// One line on what the card will use: resolutions and clock.
  var summary: String {
    var parts: [String] = []
    if let r = accelResolution { parts.append("accel \(r.compact) units/g") }
    if let r = gyroResolution { parts.append("gyro \(r.compact) units/(deg/s)") }
    parts.append(timestamps == .msc ? "MSC_TIMESTAMP clock" : "event clock")
    return parts.joined(separator: ", ")
  }

  /// The `ID_INPUT_*` properties udev's input_id gives the node, as a JSON array.
  var udevJSON: JSONValue { .array(inputClasses.udevProperties.map { .string($0) }) }

  /// udev's classes in words, for a person: "joystick, key".
  var udevText: String {
    let names = inputClasses.udevProperties.map {
      $0.dropFirst("ID_INPUT_".count).lowercased().replacingOccurrences(of: "_", with: " ")
    }
    return names.isEmpty ? "none" : names.joined(separator: ", ")
  }

  /// The keys of SPEC §3's `info --json`.
  var jsonMembers: [(String, JSONValue)] {
    [
      ("accelResolution", JSONValue(accelResolution)),
      ("gyroResolution", JSONValue(gyroResolution)),
      ("timestamps", .string(timestamps.rawValue)),
      ("quirk", JSONValue(quirk)),
      ("reason", .string(reason)),
    ]
  }
}
