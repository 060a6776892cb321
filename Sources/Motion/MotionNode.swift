import Foundation
import IIO

/// What a motion device's node is: decided here, once, for every command and
/// consumer (live, record, info, calibrate, the hub).
///
/// An IIO reference (`/dev/iio:deviceN`, `iio:deviceN`, or its sysfs
/// directory) names an IIO IMU: the accelerometer with the gyroscope of its
/// hub. Anything else is an evdev node.
public enum MotionNode: Hashable, Sendable {
  /// An evdev node (`/dev/input/eventN`), classified when it is opened.
  case evdev(path: String)
  /// An IIO IMU that this user can read.
  case iio(IIOIMU)

  /// Whether `reference` names an IIO sensor rather than an evdev node.
  public static func isIIO(_ reference: String) -> Bool {
    IIOIMU.isIIOReference(reference)
  }

  /// The node `reference` names; an IIO reference that names no usable IMU
  /// throws why (``IIOUsability/imu(_:)``).
  public static func resolve(_ reference: String) throws -> MotionNode {
    isIIO(reference) ? .iio(try IIOUsability.imu(reference)) : .evdev(path: reference)
  }
}
