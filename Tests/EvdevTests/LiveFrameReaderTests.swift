import SystemCalls
import Testing

@testable import Evdev
@testable import SensorData

@Suite struct LiveFrameReaderTests {
  @Test func assemblesFramesAtSynReport() throws {
    let first = Script.sample(1, 2, 3, at: 1000)
    let second = Script.sample(4, 5, 6, at: 2000)
    var reader = FrameReader(
      source: FakeEventSource((first + second).asSuccesses + [.outcome(.wouldBlock)]), path: "fake")
    let frames = try reader.readFrames()
    #expect(frames == [Frame(events: first), Frame(events: second)])
    #expect(reader.droppedCount == 0)
    #expect(reader.source.modes.allSatisfy { $0 == .normal })
  }

  @Test func keepsAnIncompleteFrameForTheNextRead() throws {
    let sample = Script.sample(7, 8, 9, at: 5000)
    var reader = FrameReader(
      source: FakeEventSource(
        Array(sample.prefix(2)).asSuccesses + [.outcome(.wouldBlock)]
          + Array(sample.suffix(2)).asSuccesses),
      path: "fake")
    #expect(try reader.readFrames().isEmpty)
    #expect(try reader.readFrames() == [Frame(events: sample)])
  }

  @Test func nothingAvailableGivesNoFrames() throws {
    var reader = FrameReader(source: FakeEventSource([]), path: "fake")
    #expect(try reader.readFrames().isEmpty)
    #expect(reader.source.modes == [.normal])
  }

  /// libevdev's documented sequence: SYN_DROPPED → LIBEVDEV_READ_STATUS_SYNC, then
  /// read with LIBEVDEV_READ_FLAG_SYNC until -EAGAIN, then normal mode again.
  @Test func synDroppedDiscardsTheIncompleteFrameAndDeliversTheSyncedState() throws {
    let before = Script.sample(1, 1, 1, at: 1000)
    let incomplete = [Script.abs(AbsCode.x, 50, at: 2000)]
    let dropped = Script.dropped(at: 2500)
    let delta = [Script.abs(AbsCode.x, 60, at: 3000), Script.report(at: 3000)]
    let after = Script.sample(2, 2, 2, at: 4000)
    let steps: [FakeEventSource.Step] =
      before.asSuccesses + incomplete.asSuccesses + [.outcome(.sync(dropped))] + delta.asSyncs
      + [.outcome(.wouldBlock)] + after.asSuccesses + [.outcome(.wouldBlock)]
    var reader = FrameReader(source: FakeEventSource(steps), path: "fake")

    let frames = try reader.readFrames()

    #expect(
      frames == [
        Frame(events: before), Frame(events: [dropped] + delta), Frame(events: after),
      ])
    #expect(frames[1].isResync)
    #expect(!frames[0].isResync && !frames[2].isResync)
    #expect(reader.droppedCount == 1)
    let modes = reader.source.modes
    let syncReads = before.count + incomplete.count + 1..<before.count + incomplete.count + 1 + 3
    #expect(modes[syncReads].allSatisfy { $0 == .sync })
    #expect(
      modes.enumerated().filter { !syncReads.contains($0.offset) }.allSatisfy {
        $0.element == .normal
      })
  }

  @Test func synDroppedWithNoStateChangeStillGivesAResyncFrame() throws {
    let dropped = Script.dropped(at: 9000)
    var reader = FrameReader(
      source: FakeEventSource([.outcome(.sync(dropped)), .outcome(.wouldBlock)]), path: "fake")
    let frames = try reader.readFrames()
    #expect(frames == [Frame(events: [dropped, Script.report(at: 9000)])])
    #expect(frames[0].isResync)
    #expect(reader.droppedCount == 1)
  }

  @Test func multiTouchDeltaIsSplitAtEachSynReport() throws {
    let dropped = Script.dropped(at: 100)
    let part1 = [Script.abs(0x2f, 0, at: 200), Script.report(at: 200)]
    let part2 = [Script.abs(0x2f, 1, at: 200), Script.report(at: 200)]
    var reader = FrameReader(
      source: FakeEventSource([.outcome(.sync(dropped))] + (part1 + part2).asSyncs), path: "fake")
    #expect(try reader.readFrames() == [Frame(events: [dropped] + part1), Frame(events: part2)])
  }

  @Test func repeatedOverflowsAreCounted() throws {
    var steps: [FakeEventSource.Step] = []
    for index in 0..<5 {
      let time = Int64(index) * 10_000
      steps += [.outcome(.sync(Script.dropped(at: time)))]
      steps += [Script.abs(AbsCode.z, Int32(index), at: time), Script.report(at: time)].asSyncs
      steps += [.outcome(.wouldBlock)]
    }
    var reader = FrameReader(source: FakeEventSource(steps), path: "fake")
    let frames = try reader.readFrames()
    #expect(reader.droppedCount == 5)
    #expect(frames.count == 5)
    #expect(frames.allSatisfy { $0.isResync })
    #expect(frames.last?.events[1].value == 4)
  }

  @Test func vanishedDeviceThrowsVanishedNamingTheNode() {
    var reader = FrameReader(
      source: FakeEventSource([.failure(.noDevice)]), path: "/dev/input/event7")
    #expect(throws: DeviceError.vanished("/dev/input/event7")) { try reader.readFrames() }
  }

  @Test func framesReadBeforeTheDeviceVanishedAreDeliveredFirst() throws {
    let sample = Script.sample(3, 2, 1, at: 1000)
    var reader = FrameReader(
      source: FakeEventSource(sample.asSuccesses + [.failure(.noDevice)]),
      path: "/dev/input/event7")
    #expect(try reader.readFrames() == [Frame(events: sample)])
    #expect(throws: DeviceError.vanished("/dev/input/event7")) { try reader.readFrames() }
  }

  @Test func vanishingDuringResyncIsReported() {
    var reader = FrameReader(
      source: FakeEventSource([.outcome(.sync(Script.dropped(at: 0))), .failure(.noDevice)]),
      path: "/dev/input/event3")
    #expect(throws: DeviceError.vanished("/dev/input/event3")) { try reader.readFrames() }
    #expect(reader.droppedCount == 1)
  }

  @Test func otherErrorsNameTheOperationAndErrno() {
    var reader = FrameReader(
      source: FakeEventSource([.failure(Errno(rawValue: 5))]), path: "/dev/input/event1")
    #expect(
      throws: DeviceError.system(
        "/dev/input/event1", Errno(rawValue: 5), operation: "libevdev_next_event")
    ) {
      try reader.readFrames()
    }
  }
}
