import SystemCalls

@testable import Evdev
@testable import SensorData

/// A scripted `EventReading`: hands out the outcomes in order, then would block,
/// and records the mode of every read.
struct FakeEventSource: EventReading {
  enum Step {
    case outcome(ReadOutcome)
    case failure(Errno)
  }

  var steps: [Step]
  private(set) var modes: [ReadMode] = []

  init(_ steps: [Step]) { self.steps = steps }

  mutating func nextEvent(_ mode: ReadMode) throws(Errno) -> ReadOutcome {
    modes.append(mode)
    guard !steps.isEmpty else { return .wouldBlock }
    switch steps.removeFirst() {
    case .outcome(let outcome): return outcome
    case .failure(let error): throw error
    }
  }
}

/// Builders for scripted events, times in microseconds.
enum Script {
  static func time(_ microseconds: Int64) -> EventTime {
    EventTime(seconds: microseconds / 1_000_000, microseconds: microseconds % 1_000_000)
  }

  static func abs(_ code: UInt16, _ value: Int32, at us: Int64) -> InputEvent {
    InputEvent(time: time(us), type: EventType.abs, code: code, value: value)
  }

  static func msc(_ timestamp: UInt32, at us: Int64) -> InputEvent {
    InputEvent(
      time: time(us), type: EventType.msc, code: MscCode.timestamp,
      value: Int32(bitPattern: timestamp))
  }

  static func report(at us: Int64) -> InputEvent {
    InputEvent(time: time(us), type: EventType.syn, code: SynCode.report, value: 0)
  }

  static func dropped(at us: Int64) -> InputEvent {
    InputEvent(time: time(us), type: EventType.syn, code: SynCode.dropped, value: 0)
  }

  /// One accelerometer sample: x, y, z and `SYN_REPORT`, all at `us`.
  static func sample(_ x: Int32, _ y: Int32, _ z: Int32, at us: Int64) -> [InputEvent] {
    [
      abs(AbsCode.x, x, at: us), abs(AbsCode.y, y, at: us), abs(AbsCode.z, z, at: us),
      report(at: us),
    ]
  }
}

extension Array where Element == InputEvent {
  var asSuccesses: [FakeEventSource.Step] { map { .outcome(.success($0)) } }
  var asSyncs: [FakeEventSource.Step] { map { .outcome(.sync($0)) } }
}
