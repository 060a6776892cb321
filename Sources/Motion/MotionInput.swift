/// Where device motion comes from: a live device, a recording, or any
/// ``MotionSource``.
public enum MotionInput: Sendable {
  /// A live evdev device: its `/dev/input/eventN` node, or `nil` for the
  /// first motion device found (``DeviceChoice/firstMotionDevice()``).
  case device(path: String?)
  /// An evemu recording or CSV log, held to its own clock at `speed` times
  /// real time, or as fast as it is taken with `nil`.
  case recording(path: String, speed: Double?)
  /// Any ``MotionSource`` (the bundled demo, an app's own), made by `make`
  /// when it is opened, played as ``recording(path:speed:)`` plays a file.
  case source(speed: Double?, make: @Sendable () throws -> any MotionSource)
}
