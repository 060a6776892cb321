import Attitude
import Foundation
import MotionSimulator
import Testing

@testable import Tuning

/// `tune` on a plain accelerometer (a tablet's or a laptop's, no gyroscope),
/// on recordings simulated here whose stillness is known to the sample: its
/// rest stretches end where each tilt starts, and its unfiltered jitter is
/// what the pipeline shows on the same still stretches (issue 23: 0.25° and
/// 0.87 °/s of drift said, 0.01–0.04° shown, stretches 0.3 s into the tilts).
@Suite struct PlainAccelerometerTests {
  /// Still, tilt 30° about the card's y axis, still, −20° about x, still,
  /// −30° about a horizontal diagonal, still: each tilt at a steady speed
  /// that starts and stops at once, so each still stretch ends on a known sample.
  struct Tablet {
    static let tilts: [(axis: Vector3, degrees: Double)] = [
      (Vector3(0, 1, 0), 30), (Vector3(1, 0, 0), -20), (Vector3(0.6, -0.8, 0), -30),
    ]
    static let stillSeconds = [2.0, 2.5, 2.5, 2.0]

    var recording: SimulatedRecording
    /// The still stretches, seconds.
    var stills: [(Double, Double)] = []

    init(speed: Double, rate: Double = 100, noise: Double, count: Double, seed: UInt64) {
      var moves: [(from: Double, to: Double, axis: Vector3)] = []
      var t = 0.0
      for (k, tilt) in Self.tilts.enumerated() {
        stills.append((t, t + Self.stillSeconds[k]))
        t += Self.stillSeconds[k]
        let length = abs(tilt.degrees) / speed
        moves.append((t, t + length, tilt.axis * (tilt.degrees < 0 ? -1 : 1)))
        t += length
      }
      stills.append((t, t + Self.stillSeconds.last!))
      let all = moves
      let radians = speed * .pi / 180
      var sensor = SensorModel()
      sensor.rate = rate
      sensor.accelerometerNoise = noise
      sensor.accelerometerResolution = count
      sensor.accelerometerRange = 2
      recording = SimulatedRecording(
        name: "tablet",
        trajectory: Trajectory(
          duration: stills.last!.1,
          angularVelocity: { t in
            all.first { t >= $0.from && t < $0.to }.map { $0.axis * radians } ?? .zero
          }),
        sensor: sensor, seed: seed)
    }

    /// The accelerometer alone, as a tablet reports it.
    var data: TuneData {
      TuneData(
        samples: recording.samples.map {
          MotionSample(time: $0.time, acceleration: $0.acceleration, rotationRate: nil)
        }, hasGyroscope: false)
    }

    /// The true reading (the up-vector, card frame) at sample `i`.
    func up(_ i: Int) -> Vector3 { recording.truth[i].conjugate.rotate(Vector3(0, 0, 1)) }

    /// The edge of the still stretch that `inside` (seconds) lies in, seen
    /// in `direction` (+1: toward the tilt after it, −1: toward the one
    /// before): its last still sample that way, and the first sample past it
    /// whose true reading has moved `by` (g) from the still one.
    func edge(inside: Double, direction: Int, by distance: Double) -> (still: Int, seen: Int) {
      let count = recording.samples.count
      var k = recording.samples.firstIndex { $0.time >= inside }!
      let still = up(k)
      while k + direction >= 0, k + direction < count, (up(k + direction) - still).length < 1e-9 {
        k += direction
      }
      var seen = k
      while seen + direction >= 0, seen + direction < count, (up(seen) - still).length <= distance {
        seen += direction
      }
      return (k, seen)
    }
  }

  /// A count of 1/1024 g, as most tablets' accelerometers report.
  static let millig = 1.0 / 1024

  static func scorer(_ data: TuneData) -> FilterScorer {
    FilterScorer(data: data, base: MotionConfiguration(), card: .init())
  }

  /// The found stretches against the known still stretches: one each, its
  /// edges within `tolerance` samples of the still stretch's; with no
  /// tolerance, no further into a tilt than where the tilt has moved the
  /// reading by three noise deviations (and at most two samples short).
  static func checkEdges(_ tablet: Tablet, noise: Double, tolerance: Int?) {
    let scorer = Self.scorer(tablet.data)
    let samples = tablet.recording.samples
    let found = scorer.restRuns
    func time(_ i: Int) -> String {
      String(format: "%.3f", samples[min(i, samples.count - 1)].time)
    }
    let description = found.map { "\(time($0.lowerBound))…\(time($0.upperBound - 1)) s" }
    #expect(found.count == tablet.stills.count, "found \(description)")
    guard found.count == tablet.stills.count else { return }
    for (run, (from, to)) in zip(found, tablet.stills) {
      let said = "rest \(time(run.lowerBound))…\(time(run.upperBound - 1)) s"
      if to < tablet.stills.last!.1 {
        let (still, seen) = tablet.edge(inside: to - 0.2, direction: 1, by: 3 * noise)
        let last = run.upperBound - 1
        let (earliest, latest) = (still - (tolerance ?? 2), tolerance.map { still + $0 } ?? seen)
        #expect(
          last >= earliest && last <= latest,
          "\(said): the still stretch ends at \(time(still)) s (sample \(still), rest's \(last))")
      }
      if from > 0 {
        let (still, seen) = tablet.edge(inside: from + 0.2, direction: -1, by: 3 * noise)
        let first = run.lowerBound
        let (earliest, latest) = (tolerance.map { still - $0 } ?? seen, still + (tolerance ?? 2))
        #expect(
          first >= earliest && first <= latest,
          "\(said): the still stretch starts at \(time(still)) s (sample \(still), rest's \(first))"
        )
      }
    }
  }

  /// A tilt at 60 °/s moves a 100 Hz reading by 3.5 noise deviations a
  /// sample: the rest ends on the tilt's first sample, give or take two.
  @Test(arguments: [UInt64(1), 2, 3])
  func restEndsWithinTwoSamplesOfAQuickTilt(seed: UInt64) {
    let tablet = Tablet(speed: 60, noise: 0.003, count: Self.millig, seed: seed)
    Self.checkEdges(tablet, noise: 0.003, tolerance: 2)
  }

  /// The same at 50 Hz, and at 400 Hz with a quieter sensor.
  static let otherRates: [(rate: Double, noise: Double)] = [(50, 0.003), (400, 0.001)]

  @Test(arguments: otherRates)
  func restEndsWithinTwoSamplesAtOtherRates(rate: Double, noise: Double) {
    let tablet = Tablet(speed: 60, rate: rate, noise: noise, count: Self.millig, seed: 4)
    Self.checkEdges(tablet, noise: noise, tolerance: 2)
  }

  /// Slow tilts (10 °/s), on a quiet, a usual and a noisy sensor, and on a
  /// laptop's coarse counts (18 mg, lis3lv02d): no still window sees a
  /// slow tilt (it moves the reading by less than a noise deviation a
  /// sample), but the rest still ends where the tilt becomes visible, and
  /// no stretch spans a tilt. Before, each was one stretch from 0.25 s to the
  /// end (the reading's spread in 0.25 s stayed under a fixed 0.02 g), or
  /// none at all at 15 mg of noise.
  static let slowTiltSensors: [(noise: Double, count: Double)] = [
    (0.001, millig), (0.003, millig), (0.010, millig), (0.015, millig), (0.002, 0.018),
  ]

  @Test(arguments: slowTiltSensors)
  func slowTiltsAreMotion(noise: Double, count: Double) {
    let tablet = Tablet(speed: 10, noise: noise, count: count, seed: 5)
    // Counts coarser than the noise hide a tilt until it crosses one.
    Self.checkEdges(tablet, noise: max(noise, count), tolerance: nil)
  }

  /// The jitter of the unfiltered estimate that `tune` says, against what
  /// the pipeline (a `MotionManager`, as `replay --filter none` runs it)
  /// shows on the known still stretches after the same settling, measured
  /// here from scratch: within 1.5 × + 0.02°, with no drift to speak of.
  static let jitterCases: [(speed: Double, noise: Double, count: Double)] = [
    (10, 0.003, millig), (30, 0.003, millig), (60, 0.001, millig), (10, 0.010, millig),
    (30, 0.015, millig), (30, 0.002, 0.018),
  ]

  @Test(arguments: jitterCases)
  func unfilteredJitterIsWhatThePipelineShows(speed: Double, noise: Double, count: Double) throws {
    let tablet = Tablet(speed: speed, noise: noise, count: count, seed: 6)
    let data = tablet.data
    let score = Self.scorer(data).score(FilterSetting(filter: .none))
    let said = try #require(score.jitter, "tune measured no jitter")
    let shown = Self.pipelineJitter(data, stills: tablet.stills, settle: FilterScorer.settleTime)
    #expect(
      said <= 1.5 * shown + 0.02 && shown <= 1.5 * said + 0.02,
      "tune says \(said)°, the pipeline shows \(shown)° on the still stretches")
    // A line fitted to noise alone has a slope of about σ_angle·√12 / T^1.5.
    let drift = try #require(score.drift)
    #expect(drift < 0.2, "drift \(drift) °/s while still")
  }

  /// The RMS rotation of the unfiltered attitude from each still stretch's
  /// mean rotation drifting at its own steady rate, degrees.
  static func pipelineJitter(_ data: TuneData, stills: [(Double, Double)], settle: Double) -> Double
  {
    var configuration = MotionConfiguration()
    configuration.filter = .none
    let manager = MotionManager(configuration: configuration, hasGyroscope: false)
    var attitudes: [(Double, Quaternion)] = []
    _ = manager.startDeviceMotionUpdates(from: data.samples) { motion in
      attitudes.append((motion.timestamp, motion.attitude.quaternion))
    }
    var sum = 0.0
    var count = 0
    for (from, to) in stills {
      let still = attitudes.filter { $0.0 >= from + settle && $0.0 < to }
      guard still.count > 2, let first = still.first?.1 else { continue }
      var total = Quaternion(w: 0, x: 0, y: 0, z: 0)
      for (_, q) in still {
        let sign = first.w * q.w + first.x * q.x + first.y * q.y + first.z * q.z < 0 ? -1.0 : 1.0
        total = Quaternion(
          w: total.w + sign * q.w, x: total.x + sign * q.x, y: total.y + sign * q.y,
          z: total.z + sign * q.z)
      }
      let mean = total.normalized
      let vectors = still.map { (mean.conjugate * $0.1).rotationVector }
      let times = still.map(\.0)
      let meanTime = times.reduce(0, +) / Double(times.count)
      let spread = times.map { ($0 - meanTime) * ($0 - meanTime) }.reduce(0, +)
      let meanVector = vectors.reduce(Vector3.zero, +) / Double(vectors.count)
      var slope = Vector3.zero
      for (t, v) in zip(times, vectors) { slope += (v - meanVector) * ((t - meanTime) / spread) }
      for (t, v) in zip(times, vectors) {
        sum += (v - meanVector - slope * (t - meanTime)).lengthSquared
      }
      count += still.count
    }
    return (sum / Double(max(count, 1))).squareRoot() * 180 / .pi
  }
}
