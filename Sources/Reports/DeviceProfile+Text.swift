import Evdev
import SensorData
import Foundation
import JSON

extension DeviceProfile {
  /// One line on what the card will use: resolutions and clock.
  public var summary: String {
    var parts: [String] = []
    if let r = accelResolution { parts.append("accel \(r.compactText) units/g") }
    if let r = gyroResolution { parts.append("gyro \(r.compactText) units/(deg/s)") }
    parts.append(timestamps == .msc ? "MSC_TIMESTAMP clock" : "event clock")
    return parts.joined(separator: ", ")
  }

  /// The `ID_INPUT_*` properties udev's input_id gives the node, as a JSON array.
  public var udevJSON: JSONValue { .array(inputClasses.udevProperties.map { .string($0) }) }

  /// udev's classes in words, for a person: "joystick, key".
  public var udevText: String {
    let names = inputClasses.udevProperties.map {
      $0.dropFirst("ID_INPUT_".count).lowercased().replacingOccurrences(of: "_", with: " ")
    }
    return names.isEmpty ? "none" : names.joined(separator: ", ")
  }

  /// The keys of contract §3.7's `info --json`.
  /// The profile's keys of contract §3.7's `info --json` and `devices --json`.
  public var jsonMembers: [(String, JSONValue)] {
    [
      ("accelResolution", JSONValue(accelResolution)),
      ("gyroResolution", JSONValue(gyroResolution)),
      ("timestamps", .string(timestamps.rawValue)),
      ("quirk", JSONValue(quirk)),
      ("reason", .string(reason)),
    ]
  }
}
