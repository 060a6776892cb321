/// A point in time as the kernel stamps events: seconds and microseconds.
///
/// The corresponding C type is `struct timeval` inside `struct input_event`.
public struct EventTime: Hashable, Comparable, Sendable {
  public var seconds: Int64
  public var microseconds: Int64

  public init(seconds: Int64, microseconds: Int64) {
    self.seconds = seconds
    self.microseconds = microseconds
  }

  /// The time in whole microseconds.
  public var totalMicroseconds: Int64 { seconds * 1_000_000 + microseconds }

  /// The time in seconds, as a `Double`.
  public var inSeconds: Double { Double(seconds) + Double(microseconds) / 1_000_000 }

  public static func < (a: EventTime, b: EventTime) -> Bool {
    a.totalMicroseconds < b.totalMicroseconds
  }
}

/// One evdev event: type, code, value and the kernel's time stamp.
///
/// The corresponding C type is `struct input_event`.
public struct InputEvent: Hashable, Sendable {
  public var time: EventTime
  public var type: UInt16
  public var code: UInt16
  public var value: Int32

  public init(time: EventTime, type: UInt16, code: UInt16, value: Int32) {
    self.time = time
    self.type = type
    self.code = code
    self.value = value
  }
}

/// The events of one hardware report: everything up to and including `SYN_REPORT`.
public struct Frame: Hashable, Sendable {
  public var events: [InputEvent]

  public init(events: [InputEvent]) {
    self.events = events
  }

  /// The time of the frame: the time stamp of its last event (the `SYN_REPORT`).
  public var time: EventTime? { events.last?.time }
}
