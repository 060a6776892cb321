import Attitude
import Foundation
import Motion
import TestTools
import Testing

/// `for try await` over ``AsyncMotionManager``: what arrives, in what order,
/// and what cancellation closes.
@Suite struct MotionUpdatesTests {
  static let demo = path("recordings/demo.evemu")

  /// `relative` in the package.
  static func path(_ relative: String) -> String {
    TestTools.packageRoot.appendingPathComponent(relative).path
  }

  /// Every motion that the manager makes of `path` at full speed, as an
  /// app's handler on ``DeviceMotionManager`` sees it, on this thread's loop.
  static func handlerMotions(_ path: String) throws -> [DeviceMotion] {
    let manager = DeviceMotionManager(.recording(path: path, speed: nil))
    var motions: [DeviceMotion] = []
    try manager.startDeviceMotionUpdates { motions.append($0) }
    try manager.run(endingOn: [])
    return motions
  }

  /// A copy of the demo recording under a name of its own, so that whether
  /// it is open can be told from the other tests' files.
  static func privateCopy() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-updates-\(UUID().uuidString).evemu").path
    try FileManager.default.copyItem(atPath: demo, toPath: path)
    return path
  }

  /// Whether this process has `path` open (a link in `/proc/self/fd`).
  static func isOpen(_ path: String) -> Bool {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.contains {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
    }
  }

  @Test(arguments: ["recordings/demo.evemu", "recordings/roll-pitch.csv"])
  func aReplayGivesEveryMotionInOrderWithTheRecordingsTimes(file: String) async throws {
    let path = Self.path(file)
    var motions: [DeviceMotion] = []
    for try await motion in AsyncMotionManager(.recording(path: path, speed: nil)).updates() {
      motions.append(motion)
    }
    let expected = try Self.handlerMotions(path)
    #expect(motions.count == expected.count)
    #expect(motions == expected)
    let times = motions.map(\.timestamp)
    #expect(times == times.sorted())
    #expect(times.first == 0)
  }

  /// Any motion source, made on the loop's thread: the generated demo gives
  /// what the pipeline makes of the bundled demo file.
  @Test func anyMotionSourcePlaysAsARecording() async throws {
    let manager = AsyncMotionManager(
      .source(speed: nil) { try DemoMotionSource(configuration: .init()) })
    var motions: [DeviceMotion] = []
    for try await motion in manager.updates() { motions.append(motion) }
    #expect(motions == (try Self.handlerMotions(Self.demo)))
  }

  /// The update interval is in sample time: one update per 0.1 s of the recording.
  @Test func theUpdateIntervalThinsByTheRecordingsClock() async throws {
    var manager = AsyncMotionManager(.recording(path: Self.demo, speed: nil))
    manager.deviceMotionUpdateInterval = 0.1
    var times: [Double] = []
    for try await motion in manager.updates() { times.append(motion.timestamp) }
    let all = try Self.handlerMotions(Self.demo).map(\.timestamp)
    #expect(times.count > 10)
    #expect(times.count < all.count / 10)
    for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 0.1) }
  }

  /// A paced replay at a twentieth of real time would take minutes: cancelling
  /// the task ends the sequence at once, and the file is closed by the time
  /// the `for` loop has ended.
  @Test func cancellingEndsAPacedReplayAndClosesTheFile() async throws {
    let path = try Self.privateCopy()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = AsyncStream<Double>.makeStream()
    let manager = AsyncMotionManager(.recording(path: path, speed: 0.05))
    let task = Task {
      var count = 0
      for try await motion in manager.updates() {
        count += 1
        first.continuation.yield(motion.timestamp)
      }
      return count
    }
    var firstUpdates = first.stream.makeAsyncIterator()
    _ = await firstUpdates.next()
    // (Looked at again for a while: once, on a machine far busier than two
    // cores, the first look did not find it.)
    var open = Self.isOpen(path)
    for _ in 0..<100 where !open {
      try await Task.sleep(for: .milliseconds(50))
      open = Self.isOpen(path)
    }
    #expect(open, "the recording is open while it plays")
    let cancelled = ContinuousClock.now
    task.cancel()
    let count = try await task.value
    // The demo lasts over 20 s of its own time: 400 s at this pace.
    #expect(ContinuousClock.now - cancelled < .seconds(60))
    #expect(count < 100)
    #expect(!Self.isOpen(path))
  }

  /// A replay as fast as it goes waits for a consumer that has stopped
  /// taking updates; cancelling wakes it, and it closes the file.
  @Test func cancellingWakesAReplayWaitingForTheConsumer() async throws {
    let path = try Self.privateCopy()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = AsyncStream<Void>.makeStream()
    let manager = AsyncMotionManager(.recording(path: path, speed: nil))
    let task = Task {
      for try await _ in manager.updates(buffering: .waitsForConsumer(4)) {
        first.continuation.yield()
        // Takes no more until cancelled.
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
      }
    }
    var firstUpdates = first.stream.makeAsyncIterator()
    _ = await firstUpdates.next()
    #expect(Self.isOpen(path), "the replay waits with the recording open")
    task.cancel()
    try await task.value
    #expect(!Self.isOpen(path))
  }

  /// Leaving the `for` loop with `break` stops the loop too (without waiting for it).
  @Test func breakingOutStopsTheLoop() async throws {
    let path = try Self.privateCopy()
    defer { try? FileManager.default.removeItem(atPath: path) }
    for try await _ in AsyncMotionManager(.recording(path: path, speed: 0.05)).updates() {
      break
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while Self.isOpen(path) && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(!Self.isOpen(path))
  }

  /// A device that cannot be opened ends the sequence with the device's error.
  @Test func aMissingDeviceThrowsItsError() async throws {
    let path = "/dev/input/no-such-event-node"
    var received = 0
    do {
      for try await _ in AsyncMotionManager(.device(path: path)).updates() { received += 1 }
      Issue.record("the sequence ended without an error")
    } catch {
      #expect("\(error)".contains(path), "\(error)")
    }
    #expect(received == 0)
  }

  /// A recording that is not there: the error names the file.
  @Test func aMissingRecordingThrowsItsError() async throws {
    let path = "/nonexistent/tilt-recording.evemu"
    await #expect(throws: (any Error).self) {
      for try await _ in AsyncMotionManager(.recording(path: path, speed: nil)).updates() {}
    }
  }
}
