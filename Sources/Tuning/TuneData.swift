import Attitude
import Foundation
import Motion
import SensorData

/// A recording held in memory for tuning: its samples, and the true
/// inclination where the file carries ground truth (BROAD's `opt_q…` columns).
public struct TuneData: Sendable {
  public var samples: [MotionSample]
  public var hasGyroscope: Bool
  /// The true up-vector in card coordinates per sample; `nil` where unknown.
  public var truthUp: [Vector3?]?
  /// The file's own rest marks (BROAD's `movement` = 0); `nil` without them.
  public var fileRest: [Bool]?
  /// Whether a joystick's stick drives the tilt (contract §2.5): its samples carry no noise.
  public var isJoystick = false

  public init(
    samples: [MotionSample], hasGyroscope: Bool, truthUp: [Vector3?]? = nil,
    fileRest: [Bool]? = nil, isJoystick: Bool = false
  ) {
    self.samples = samples
    self.hasGyroscope = hasGyroscope
    self.truthUp = truthUp
    self.fileRest = fileRest
    self.isJoystick = isJoystick
  }

  /// Reads `path` (evemu or CSV) as `configuration` decodes it (mount matrix, stick range).
  public static func load(path: String, configuration: DeviceMotionConfiguration) throws -> TuneData
  {
    var source = try Recording.open(path: path, configuration: configuration)
    var data = TuneData(samples: [], hasGyroscope: source.capabilities.hasGyroscope)
    if let csv = source as? CSVMotionSource, csv.reader.hasGroundTruth {
      var truth: [Vector3?] = []
      var rest: [Bool] = []
      while let record = try csv.reader.nextSample() {
        data.samples.append(
          MotionSample(
            time: record.time, acceleration: record.acceleration.vector,
            rotationRate: record.rotationRate?.vector))
        truth.append(record.groundTruth.flatMap(TuneData.upVector))
        rest.append(record.movement.map { $0 == 0 } ?? false)
      }
      data.truthUp = truth
      data.fileRest = rest
    } else {
      data.isJoystick = (source as? EvemuMotionSource)?.profile.kind == .joystick
      while let item = try source.next() {
        if let sample = item.motion { data.samples.append(sample) }
      }
    }
    guard data.samples.count >= 10 else {
      throw TuningError.tooFewSamples(path: path, count: data.samples.count)
    }
    return data
  }

  /// The vertical in sensor coordinates: the third row of the sensor-to-earth rotation.
  static func upVector(_ q: SIMD4<Double>) -> Vector3? {
    guard q.x.isFinite, q.y.isFinite, q.z.isFinite, q.w.isFinite else { return nil }
    let m = Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]).normalized.rotationMatrix
    return Vector3(m.m31, m.m32, m.m33)
  }
}
