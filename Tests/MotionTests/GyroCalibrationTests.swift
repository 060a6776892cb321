import Attitude
import Foundation
import PollLoop
import SensorData
import SystemCalls
import Testing

@testable import Motion

/// The calibration as a participant of an app's loop: it shares the loop
/// with another participant, both make progress, and its end is a
/// completion (a result or an error), never the loop's end.
@Suite struct GyroCalibrationTests {
  @Test func calibratesOnTheAppsLoopBesideAnotherParticipant() throws {
    let calibrator = GyroCalibrator(samples: StillSamples(), devicePath: "still")
    var fractions: [Double] = []
    var outcome: Result<GyroCalibrator.Result, any Error>?
    let calibration = calibrator.measurement(
      seconds: 0.3, progress: { fractions.append($0) }, completion: { outcome = $0 })
    let ticker = Ticker(every: 0.02)
    let loop = try EventLoop()
    defer { loop.end() }
    try loop.run([ticker, calibration], until: .now + .seconds(30), done: { outcome != nil })
    let result = try #require(try outcome?.get())
    #expect(calibration.isFinished)
    #expect(result.bias.samples > 10)
    #expect(fractions.first == 0 && fractions.last == 1)
    #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(ticker.count >= 5, "the other participant was served meanwhile")
    // Finished, it asks for nothing: the loop goes on without it.
    #expect(calibration.pollDescriptors.isEmpty && calibration.deadline == nil)
    let before = ticker.count
    try loop.run([ticker, calibration], until: .now + .seconds(0.1))
    #expect(ticker.count > before)
  }

  @Test func aMoveEndsTheCalibrationNotTheLoop() throws {
    let calibrator = GyroCalibrator(samples: StillSamples(turnsAfter: 20), devicePath: "moved")
    var outcome: Result<GyroCalibrator.Result, any Error>?
    let calibration = calibrator.measurement(seconds: 5, completion: { outcome = $0 })
    let loop = try EventLoop()
    defer { loop.end() }
    try loop.run([calibration], until: .now + .seconds(30), done: { outcome != nil })
    guard case .failure(let error) = outcome else {
      Issue.record("a move did not fail the calibration: \(String(describing: outcome))")
      return
    }
    #expect("\(error)".contains("moved during the measurement"), "\(error)")
  }

  /// The convenience runs the same measurement on a loop of its own.
  @Test func measureRunsALoopOfItsOwn() throws {
    let calibrator = GyroCalibrator(samples: StillSamples(), devicePath: "still")
    let result = try calibrator.measure(seconds: 0.1)
    #expect(result.devicePath == "still" && result.bias.samples > 2)
  }
}

/// A still gyroscope sampled at 200 Hz on the loop's deadlines; with
/// `turnsAfter` it starts turning after that many samples.
final class StillSamples: CalibrationSamples {
  let info = DeviceInfo(name: "still", id: DeviceID(bustype: 0, vendor: 0, product: 0, version: 0))
  private var next = MonotonicInstant.now
  private var taken = 0
  private let turnsAfter: Int?

  init(turnsAfter: Int? = nil) { self.turnsAfter = turnsAfter }

  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { next }

  func read(ready: Set<Int32>) throws -> [MotionSample] {
    var samples: [MotionSample] = []
    while next <= .now {
      let turning = turnsAfter.map { taken >= $0 } ?? false
      samples.append(
        MotionSample(
          time: Double(taken) / 200, acceleration: Vector3(0, 0, -1),
          rotationRate: Vector3(0.001, turning ? 2 : -0.002, 0.0005)))
      taken += 1
      next = next + .seconds(1.0 / 200)
    }
    return samples
  }

  func close() {}
}

/// Another participant of the loop: served at its deadline, every `every` seconds.
final class Ticker: LoopParticipant {
  private(set) var count = 0
  private let every: Double
  private var next: MonotonicInstant

  init(every: Double) {
    self.every = every
    next = .now + .seconds(every)
  }

  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { next }
  func service(ready: Set<Int32>) throws {
    count += 1
    next = .now + .seconds(every)
  }
}
