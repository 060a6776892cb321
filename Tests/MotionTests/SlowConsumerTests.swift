import Attitude
import Foundation
import Motion
import Synchronization
import Testing

/// An async consumer that sleeps a second an update, beside a 1 kHz
/// recording: the loop keeps the recording's pace, the stream holds a
/// bounded number of updates, and the consumer gets the newest when it
/// resumes. A replay at full speed is paced by its consumer instead: the
/// loop reads no more than the stream has room for, and nothing is dropped.
@Suite struct SlowConsumerTests {
  static let rateHz = 1000
  static let seconds = 4
  /// A display frame at 60 Hz: how stale the update a consumer gets may be.
  static let displayInterval = 1.0 / 60

  /// A still device, `seconds` at `rateHz`, as a CSV log (contract §2.3).
  static func recording() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-slow-consumer-\(UUID().uuidString).csv").path
    var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s\n"
    for i in 0..<(rateHz * seconds) {
      text += "\(Double(i) / Double(rateHz)),0.001,-0.002,1,0.0005,-0.0003,0.0001\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The recording as the loop reads it, each step logged on the loop's thread.
  static func logged(_ path: String, _ log: ReadLog) -> @Sendable () throws -> any MotionSource {
    { LoggedSource(try Recording.open(path: path, configuration: .init()), log: log) }
  }

  @Test func aSlowConsumerGetsTheNewestAndTheLoopKeepsItsPace() async throws {
    let path = try Self.recording()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = ReadLog()
    let manager = AsyncMotionManager(.source(speed: 1, make: Self.logged(path, log)))
    var updates = manager.updates().makeAsyncIterator()
    var gaps: [Double] = []
    var taken = 0
    while true {
      let latest = log.latest
      guard let motion = try await updates.next() else { break }
      if taken > 0 { gaps.append(latest - motion.timestamp) }
      taken += 1
      try await Task.sleep(for: .seconds(1))
    }
    let reads = log.reads
    let buffering = updates.buffering
    let lag = log.largestLag
    print(
      "slow consumer: \(taken) updates taken, \(reads) steps read, largest lag of a read "
        + "behind the recording's clock \(Int(lag * 1000)) ms, most buffered \(buffering.most), "
        + "\(buffering.dropped) dropped, newest gaps \(gaps.map { Int(($0 * 1e6).rounded()) }) µs")
    // The loop read every step while the consumer slept: about one update a second.
    #expect(reads == Self.rateHz * Self.seconds)
    #expect(taken <= Self.seconds + 3)
    // The loop's reads followed the recording's clock: a loop that waited
    // for the consumer would fall a second behind at each update.
    #expect(lag < 0.5)
    // Bounded: the stream held one update, and dropped the rest.
    #expect(buffering.most <= 1)
    #expect(buffering.dropped >= reads - 2 * taken)
    // Each update taken after a sleep was the newest the loop had made.
    #expect(!gaps.isEmpty)
    for gap in gaps { #expect(gap <= Self.displayInterval) }
  }

  @Test func aReplayAtFullSpeedIsPacedByItsConsumer() async throws {
    let path = try Self.recording()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = ReadLog()
    let manager = AsyncMotionManager(.source(speed: nil, make: Self.logged(path, log)))
    var updates = manager.updates().makeAsyncIterator()
    var times: [Double] = []
    if let first = try await updates.next() { times.append(first.timestamp) }
    try await Task.sleep(for: .milliseconds(500))
    // Asleep, the consumer had no room: the loop stopped reading (64 waiting,
    // past it by at most one read of 256 steps, and the step read ahead).
    let readWhileAsleep = log.reads
    while let motion = try await updates.next() { times.append(motion.timestamp) }
    let buffering = updates.buffering
    print(
      "full speed: \(readWhileAsleep) steps read while the consumer slept, "
        + "most buffered \(buffering.most), \(buffering.dropped) dropped, \(times.count) updates")
    #expect(readWhileAsleep <= 64 + 256 + 2)
    #expect(buffering.most <= 64 + 256)
    #expect(buffering.dropped == 0)
    #expect(times.count >= Self.rateHz * Self.seconds - 2)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(log.reads == Self.rateHz * Self.seconds)
  }
}

/// What the loop read of a recording: how many steps, the newest step's
/// time, and how far its reads fell behind the recording's clock.
final class ReadLog: Sendable {
  private struct State {
    var reads = 0
    var latest = 0.0
    var first: (time: Double, wall: ContinuousClock.Instant)?
    var largestLag = 0.0
  }
  private let state = Mutex(State())

  /// On the loop's thread: a step of source time `time` was read now.
  func read(_ time: Double) {
    let now = ContinuousClock.now
    state.withLock { state in
      state.reads += 1
      state.latest = max(state.latest, time)
      guard let first = state.first else {
        state.first = (time, now)
        return
      }
      let wall = (now - first.wall) / .seconds(1)
      state.largestLag = max(state.largestLag, wall - (time - first.time))
    }
  }

  var reads: Int { state.withLock { $0.reads } }
  var latest: Double { state.withLock { $0.latest } }
  /// Seconds: the most a read came after its time on the recording's clock
  /// (counted from the first read).
  var largestLag: Double { state.withLock { $0.largestLag } }
}

/// A source whose every step is logged as the loop reads it.
struct LoggedSource: MotionSource {
  var source: any MotionSource
  let log: ReadLog

  init(_ source: any MotionSource, log: ReadLog) {
    self.source = source
    self.log = log
  }

  var capabilities: MotionCapabilities { source.capabilities }
  var notes: [String] { source.notes }

  mutating func next() throws -> MotionStep? {
    let item = try source.next()
    if let item { log.read(item.time) }
    return item
  }
}
