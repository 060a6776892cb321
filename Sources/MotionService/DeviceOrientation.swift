import Attitude
import Foundation

/// Which edge of the card is up, in iio-sensor-proxy's
/// `AccelerometerOrientation` words (contract §8): `normal` the top edge
/// (+y), `bottom-up`, `left-up` the left edge (−x), `right-up`.
public enum DeviceOrientation: String, Hashable, Sendable {
  case undefined
  case normal
  case bottomUp = "bottom-up"
  case leftUp = "left-up"
  case rightUp = "right-up"
}

/// The orientation of a device from its accelerometer readings, as
/// iio-sensor-proxy decides it: an edge is up when the reading leans more
/// than 35° toward it, x before y; in between, the previous value holds.
///
/// A value type, fed one reading at a time; no clock.
public struct OrientationTracker: Hashable, Sendable {
  /// The lean beyond which an edge is up, in degrees.
  public static let thresholdDegrees = 35.0

  /// `undefined` until the first reading beyond the threshold.
  public private(set) var orientation = DeviceOrientation.undefined

  public init() {}

  /// Takes `a`, the accelerometer reading in card coordinates, g (a card
  /// still, face up, reads (0, 0, +1)); a NaN reading keeps the value.
  /// Returns whether the orientation changed.
  @discardableResult
  public mutating func update(acceleration a: Vector3) -> Bool {
    let threshold = Self.thresholdDegrees * .pi / 180
    let x = atan2(a.x, (a.y * a.y + a.z * a.z).squareRoot())
    let y = atan2(a.y, (a.x * a.x + a.z * a.z).squareRoot())
    let next: DeviceOrientation =
      if x < -threshold {
        .leftUp
      } else if x > threshold {
        .rightUp
      } else if y < -threshold {
        .bottomUp
      } else if y > threshold {
        .normal
      } else {
        orientation
      }
    defer { orientation = next }
    return next != orientation
  }

  /// Back to `undefined` (the device closed).
  public mutating func reset() { orientation = .undefined }
}
