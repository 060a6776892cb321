import Foundation
import MotionSimulator
import Testing

@testable import Attitude

/// The accelerometer's own offset (the simulated 0.005 g an axis), which no
/// reading at one attitude can tell from a tilt: the fusion sits on the
/// accelerometer's vertical, as VQF does, and what is left of its error is
/// its own. Issue 19, sixth session (docs/bench-attitude.md): the misses
/// of clipped ±4 g seed 33 (1.088 × VQF) and of the cases made to break it
/// face down 1, on edge 2, turntable 2 and 3 are this offset's 0.3–0.8°,
/// the same in both filters, plus each filter's own error, smaller in the
/// fusion, whose direction happens to add to the offset's in the fusion and
/// to take from it in VQF.
@Suite struct AccelerometerOffsetTests {
  static func ups(_ recording: SimulatedRecording, _ parameters: FusionParameters) -> [Vector3] {
    var fusion = GyroAccelFusion(parameters: parameters)
    var up = Vector3(0, 0, 1)
    return recording.samples.map { s in
      if let e = fusion.update(s) { up = e.orientation.upVector }
      return up
    }
  }

  static func rms(_ values: [Double]) -> Double {
    (values.reduce(0) { $0 + $1 * $1 } / Double(max(values.count, 1))).squareRoot()
  }

  /// Clipped ±4 g, seed 33 (still, hand motion 8–22 s, a 6 s shake past the
  /// range from 12 s): still, the fusion's vertical is the accelerometer's
  /// own (the mean reading's direction, 0.33° from the truth), and the
  /// offset is all of its error: with the offset removed the RMSE is
  /// 0.052° (VQF on those readings 0.281°; on the suite's own, with the
  /// offset, 0.333° against VQF's 0.306°).
  @Test func clippedShakeErrorIsTheAccelerometersOffset() {
    let recording = StressSuite.named("clipped-4g")!.recording(seed: 33)
    var parameters = FusionParameters()
    parameters.accelerometerRange = recording.sensor.accelerometerRange
    parameters.gyroscopeRange = recording.sensor.gyroscopeRange
    let times = recording.samples.map(\.time)
    let still = recording.samples.indices.filter { times[$0] >= 2 && times[$0] < 8 }
    let mean = still.reduce(Vector3.zero) { $0 + recording.samples[$1].acceleration }
    let vertical = mean.normalized!
    let ups = Self.ups(recording, parameters)
    let offAccelerometer = Self.rms(still.map { InclinationScore.error(ups[$0], vertical) })
    let offTruth = InclinationScore.error(vertical, recording.truth[still[0]].upVector)
    #expect(offTruth > 0.25, "the offset tilts the reading by \(offTruth)°")
    #expect(offAccelerometer < 0.05, "\(offAccelerometer)° from the accelerometer's vertical")

    var fusion = GyroAccelFusion(parameters: parameters)
    let own = InclinationScore.errors(&fusion, on: recording.withoutAccelerometerBias())
    let rmse = InclinationScore.rmse(own, times: times)
    #expect(rmse < 0.1, "RMSE without the offset \(rmse)°")
  }

  /// Face down, seed 1 (1.149 × VQF with the offset): without it the
  /// fusion's RMSE is 0.142° (VQF 0.181°). The offset adds the same 0.315°
  /// to both; the fusion's own error leans with it, VQF's (a steady 0.1°
  /// from its bias estimate) against it.
  @Test func faceDownErrorIsTheAccelerometersOffset() {
    let recording = AdversarialCases.named("face-down")!.recording(seed: 1)
    let times = recording.samples.map(\.time)
    var fusion = GyroAccelFusion()
    let own = InclinationScore.errors(&fusion, on: recording.withoutAccelerometerBias())
    let rmse = InclinationScore.rmse(own, times: times)
    #expect(rmse < 0.17, "RMSE without the offset \(rmse)°")
  }

  /// At rest the low-pass speeds up only as far as the accelerometer
  /// disagrees with the estimate (``FusionParameters/restDisagreementScale``):
  /// a constant offset it can never remove does not keep it fast. A still
  /// card whose accelerometer reads 0.01 g off across gravity settles on
  /// the reading's vertical (0.57° from the truth) and, once there, jitters
  /// no more than with no offset.
  @Test func restDoesNotChaseAConstantOffset() {
    func still(offset: Vector3) -> SimulatedRecording {
      var sensor = SensorModel()
      sensor.accelerometerBias = offset
      return SimulatedRecording(
        name: "still", trajectory: Trajectory(duration: 40), sensor: sensor, seed: 5)
    }
    func settled(_ recording: SimulatedRecording) -> (tilt: Double, jitter: Double) {
      let ups = Self.ups(recording, FusionParameters())
      let late = recording.samples.indices.filter { recording.samples[$0].time >= 20 }
      let mean = late.reduce(Vector3.zero) { $0 + ups[$1] }.normalized!
      let tilt = InclinationScore.error(mean, Vector3(0, 0, 1))
      let jitter = Self.rms(late.map { InclinationScore.error(ups[$0], mean) })
      return (tilt, jitter)
    }
    let plain = settled(still(offset: .zero))
    let off = settled(still(offset: Vector3(0.01, 0, 0)))
    let offsetTilt = atan(0.01) * 180 / .pi
    #expect(
      abs(off.tilt - offsetTilt) < 0.03, "settled \(off.tilt)° off, the offset's \(offsetTilt)°")
    #expect(off.jitter <= 1.1 * plain.jitter, "jitter \(off.jitter)° against \(plain.jitter)°")
  }
}
