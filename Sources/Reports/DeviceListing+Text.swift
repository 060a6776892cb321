import Evdev
import Foundation
import JSON
import Motion
import SystemCalls

extension DeviceListing {
  /// What `devices` shows a person: one line a device, usable ones first;
  /// `describe` words a node's open error.
  public func table(describingErrors describe: (any Error) -> String = { "\($0)" }) -> String {
    guard !entries.isEmpty || !iioDevices.isEmpty else {
      var isDirectory: ObjCBool = false
      if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
        let fix =
          directory == "/dev/input"
          ? "(a container or chroot without the host's devices?)"
          : "(it comes from TILT_INPUT_DIR; unset it to list /dev/input)"
        return
          "\(TerminalEscapes.escaped(directory)) does not exist, so there are no input devices to list \(fix).\n"
      }
      return
        "No input devices in \(TerminalEscapes.escaped(directory)). A tablet or laptop accelerometer, a gamepad "
        + "with motion sensors or a joystick shows up here once attached.\n"
    }
    // Names, nodes and errors come from devices (any user with /dev/uinput
    // names one): each cell is shown with its control characters escaped.
    var rows = entries.map { entry -> [String] in
      let name = entry.device.info?.name ?? "?"
      guard let profile = entry.profile else {
        return [
          entry.device.path, "-", name,
          entry.device.openError.map { describe($0) } ?? "unreadable",
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
    rows += IIOSensorReport.rows(iioDevices)
    rows = rows.map { $0.map { TerminalEscapes.escaped($0) } }
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

  /// contract §3.7's `devices --json` array; `describe` words a node's open error.
  public func json(describingErrors describe: (any Error) -> String = { "\($0)" }) -> JSONValue {
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
          ("error", JSONValue(entry.device.openError.map { describe($0) })))
        return .object(members)
      } + iioDevices.map { IIOSensorReport.listingJSON($0, among: iioDevices) })
  }
}
