import SensorData

/// Each sample as a row of contract §2.3's CSV log (card axes, g and rad/s):
/// ``CSVColumns/header(hasGyroscope:)`` first, then ``CSVColumns/row(_:)``.
public final class CSVRows: MotionProcessor {
  let file: FileUnderTemporaryName
  let hasGyroscope: Bool
  /// Rows written.
  public private(set) var count = 0

  /// Writes the header into `file`.
  public init(file: FileUnderTemporaryName, hasGyroscope: Bool) {
    self.file = file
    self.hasGyroscope = hasGyroscope
    file.write(CSVColumns.header(hasGyroscope: hasGyroscope))
  }

  public var isActive: Bool { true }
  public func start() throws {}
  public func stop() throws {}
  public func recenter() throws {}

  public func take(_ item: MotionStep) throws {
    guard let sample = item.motion else { return }
    var fields =
      [sample.time] + [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
    if let r = sample.rotationRate { fields += [r.x, r.y, r.z] }
    file.write(CSVColumns.row(fields))
    count += 1
  }
}
