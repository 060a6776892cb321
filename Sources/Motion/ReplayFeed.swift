import Attitude
import EvdevCore

/// A recording held to the wall clock at `speed` times real time, or taken
/// as fast as it goes (`nil`). Paced, the loop wakes once an update interval
/// and takes the samples due by then (at each sample with an interval of 0).
/// Stopped, the recording waits: its clock goes on from where it stopped.
final class ReplayFeed: MotionFeed {
  private var source: any MotionSource
  private let speed: Double?
  /// The next step, read ahead; `nil` at the end.
  private var next: SourceItem?
  /// The wall time of source time 0, once the replay has started.
  private var start: MonotonicInstant?
  private var heldSince: MonotonicInstant?
  private var active = false
  var updateInterval = 0.0
  /// Steps a turn at full speed, so that the loop glances at its signals between.
  private static let batchAtFullSpeed = 256

  init(_ source: any MotionSource, speed: Double?) throws {
    self.source = source
    self.speed = speed
    next = try self.source.next()
  }

  var hasGyroscope: Bool { source.hasGyroscope }
  var accelerometerRange: Double? { source.accelerometerRange }
  var gyroscopeRange: Double? { source.gyroscopeRange }
  var storedBiasKey: DeviceInfo? { nil }
  var pollDescriptors: [Int32] { [] }

  var deadline: MonotonicInstant? {
    guard active else { return nil }
    guard let speed, let start, let next else { return .now }
    return start + .seconds(dueTime(of: next.time) / speed)
  }

  /// When a step at `t` is taken: at the end of its update interval.
  private func dueTime(of t: Double) -> Double {
    guard updateInterval > 0 else { return t }
    return max(t, (t / updateInterval).rounded(.up) * updateInterval)
  }

  func read(ready: Set<Int32>) throws -> [SourceItem]? {
    guard active else { return [] }
    var items: [SourceItem] = []
    let now = MonotonicInstant.now
    let start = self.start ?? now
    self.start = start
    let reached = speed.map { start.duration(to: now).seconds * $0 } ?? .infinity
    while let item = next, item.time <= reached, items.count < Self.batchAtFullSpeed {
      items.append(item)
      next = try source.next()
    }
    return items.isEmpty && next == nil ? nil : items
  }

  var isOpen: Bool { true }
  func finish() {}

  func follow(active: Bool) throws {
    guard active != self.active else { return }
    self.active = active
    if !active {
      heldSince = .now
    } else if let since = heldSince, let start {
      self.start = start + since.duration(to: .now)
      heldSince = nil
    }
  }
}
