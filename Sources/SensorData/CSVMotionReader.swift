/// One row of a CSV IMU log, in card axes (contract §2.3).
public struct MotionRecord: Hashable, Sendable {
  /// Seconds since the first row.
  public var time: Double
  /// Specific force in g (lying still face up: (0, 0, +1)).
  public var acceleration: SIMD3<Double>
  /// Rad/s; nil when the log has no gyroscope columns.
  public var rotationRate: SIMD3<Double>?
  /// Ground-truth orientation `opt_qw, opt_qx, opt_qy, opt_qz` (scalar first,
  /// sensor to earth) when the log has it; components may be NaN where the
  /// truth was lost.
  public var groundTruth: SIMD4<Double>?
  /// The `movement` column (1 for samples a benchmark scores), when present.
  public var movement: Double?

  public init(
    time: Double, acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>? = nil,
    groundTruth: SIMD4<Double>? = nil, movement: Double? = nil
  ) {
    self.time = time
    self.acceleration = acceleration
    self.rotationRate = rotationRate
    self.groundTruth = groundTruth
    self.movement = movement
  }
}

/// Reads a CSV IMU log row by row with constant memory.
///
/// The first non-blank line is the header; columns are found by name and the
/// others ignored: `t_s` (seconds), the accelerometer as `acc_x_m_s2,
/// acc_y_m_s2, acc_z_m_s2` (m/s², divided by g = 9.80665) or `acc_x_g, …` (g),
/// the gyroscope as `gyr_x_rad_s, …` or `gyr_x_deg_s, …` (optional), and for
/// tuning `opt_qw … opt_qz` and `movement` (optional). Lines starting with `#`
/// are skipped. Times must not go backwards; NaN and infinities are refused in
/// every column but the ground truth and `movement`, as are times beyond
/// ±10¹² s and readings beyond ±10⁹ (in the column's unit). A regular file is
/// read through once at `init` (``check``), so a bad row anywhere is thrown
/// before the first sample; unless `checksFirst` is false (a served replay,
/// which must not wait for a whole file): then only the header is read at
/// `init`, and a bad row is thrown when it is reached, with the same text.
///
/// Not thread-safe (not `Sendable`): use it from one thread or task at a time.
public final class CSVMotionReader {
  /// Standard gravity, m/s² per g: SensorData's `standardGravity`.
  @available(*, deprecated, message: "use SensorData's standardGravity")
  public static var standardGravity: Double { SensorData.standardGravity }

  /// The header's column names.
  public let columns: [String]
  public var hasGyroscope: Bool { gyro != nil }
  public var hasGroundTruth: Bool { truth != nil }
  /// The accelerometer columns' unit as found: `m/s²` or `g`.
  public var accelerometerUnit: String { accelScale == 1 ? "g" : "m/s²" }
  /// The gyroscope columns' unit as found (`rad/s` or `deg/s`), or nil.
  public var gyroscopeUnit: String? { gyro == nil ? nil : gyroScale == 1 ? "rad/s" : "deg/s" }
  /// The 1-based number of the line read last.
  public var lineNumber: Int { lines.lineNumber }
  public var path: String { lines.path }
  /// What reading the log through before its first row found: every row is
  /// parsed then, so a bad row anywhere is an error before the first sample.
  public private(set) var check = RecordingCheck.unchecked

  private let lines: BufferedLineReader
  private let time: Int
  private let accel: [Int]
  private let accelScale: Double
  private let gyro: [Int]?
  private let gyroScale: Double
  private let truth: [Int]?
  private let movement: Int?
  private let widestNeeded: Int
  private var firstTime: Double?
  private var lastTime = -Double.infinity
  private var fields: [Substring] = []

  static let needs = "a CSV log needs \(CSVColumns.needed)"

  /// The largest `t_s` magnitude, seconds (about 31 700 years, as for evemu
  /// event times): beyond it differences of times lose meaning or overflow.
  static let largestTime = 1e12
  /// The largest accelerometer or gyroscope magnitude in the column's unit;
  /// far beyond any sensor, and small enough that squares stay finite.
  static let largestReading = 1e9

  public init(path: String, checksFirst: Bool = true) throws(RecordingError) {
    lines = try BufferedLineReader(path: path, expected: "a CSV log")
    var headerLine: String?
    while let line = try lines.nextLine() {
      try lines.refuseBinary(line)
      var text = String(decoding: line, as: UTF8.self)
      if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
      let trimmed = Substring(text).trimmingBlanks()
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      headerLine = text
      break
    }
    guard let headerLine else {
      throw RecordingError(
        file: path, line: 0, kind: .empty, message: "empty file; \(Self.needs)")
    }
    let names = headerLine.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0.trimmingBlanks()).trimmingQuotes()
    }
    columns = names
    let headerNumber = lines.lineNumber
    func index(_ name: String) -> Int? { names.firstIndex(of: name) }
    func missing(_ message: String) -> RecordingError {
      RecordingError(file: path, line: headerNumber, kind: .missingColumn, message: message)
    }
    /// The three columns of `axes`, nil if none, an error if some.
    func triple(_ axes: CSVColumns.Axes) throws(RecordingError) -> [Int]? {
      let (prefix, suffix) = (axes.prefix, axes.unit)
      let found = axes.names.map(index)
      if found.allSatisfy({ $0 == nil }) { return nil }
      if let gap = zip(["x", "y", "z"], found).first(where: { $0.1 == nil }) {
        throw missing(
          "no \(prefix)_\(gap.0)_\(suffix) column next to the other \(prefix)_…_\(suffix) ones; give all three axes"
        )
      }
      return found.map { $0! }
    }
    guard let time = index(CSVColumns.time) else {
      throw missing("no \(CSVColumns.time) column; \(Self.needs)")
    }
    self.time = time
    if let a = try triple(CSVColumns.accelerometerMetresPerSecondSquared) {
      accel = a
      accelScale = 1 / SensorData.standardGravity
    } else if let a = try triple(CSVColumns.accelerometerG) {
      accel = a
      accelScale = 1
    } else {
      throw missing("no accelerometer columns; \(Self.needs)")
    }
    if let g = try triple(CSVColumns.gyroscopeRadiansPerSecond) {
      gyro = g
      gyroScale = 1
    } else if let g = try triple(CSVColumns.gyroscopeDegreesPerSecond) {
      gyro = g
      gyroScale = .pi / 180
    } else {
      gyro = nil
      gyroScale = 1
    }
    let q = CSVColumns.groundTruth.map(index)
    truth = q.allSatisfy { $0 != nil } ? q.map { $0! } : nil
    movement = index(CSVColumns.movement)
    widestNeeded =
      ([time] + accel + (gyro ?? []) + (truth ?? []) + (movement.map { [$0] } ?? [])).max()!
    if checksFirst, lines.canRewind {
      var result = RecordingCheck(isChecked: true)
      while let record = try nextSample() {
        result.events += 1
        result.duration = record.time
      }
      result.frames = result.events
      check = result
      try lines.rewind()
      try lines.skip(toLine: headerNumber)
      firstTime = nil
      lastTime = -.infinity
    }
  }

  /// The next row, or nil at the end of the file.
  public func nextSample() throws(RecordingError) -> MotionRecord? {
    while let line = try lines.nextLine() {
      if EvemuReader.isBlank(line) || line[0] == UInt8(ascii: "#") { continue }
      try lines.refuseBinary(line)
      return try parseRow(String(decoding: line, as: UTF8.self))
    }
    return nil
  }

  private func parseRow(_ text: String) throws(RecordingError) -> MotionRecord {
    fields.removeAll(keepingCapacity: true)
    fields.append(contentsOf: text.split(separator: ",", omittingEmptySubsequences: false))
    guard fields.count > widestNeeded else {
      throw RecordingError(
        file: path, line: lineNumber, kind: .truncated,
        message:
          "short row: \(fields.count) fields, the header has \(columns.count); the log was cut off or edited"
      )
    }
    let t = try number(time, limit: Self.largestTime)
    if t < lastTime {
      throw RecordingError(
        file: path, line: lineNumber, kind: .timeBackwards,
        message: "t_s goes backwards (\(t) after \(lastTime)); sort the log by time")
    }
    lastTime = t
    if firstTime == nil { firstTime = t }
    var record = MotionRecord(
      time: t - firstTime!,
      acceleration: SIMD3(
        try reading(accel[0]), try reading(accel[1]), try reading(accel[2])) * accelScale)
    if let gyro {
      record.rotationRate =
        SIMD3(
          try reading(gyro[0]), try reading(gyro[1]), try reading(gyro[2])) * gyroScale
    }
    if let truth {
      record.groundTruth = SIMD4(
        try number(truth[0]), try number(truth[1]), try number(truth[2]), try number(truth[3]))
    }
    if let movement { record.movement = try number(movement) }
    return record
  }

  private func reading(_ column: Int) throws(RecordingError) -> Double {
    try number(column, limit: Self.largestReading)
  }

  /// The number in `column`; with a `limit`, it must be finite and no larger
  /// in magnitude.
  private func number(_ column: Int, limit: Double? = nil) throws(RecordingError) -> Double {
    let field = fields[column].trimmingBlanks()
    guard let value = Double(field) else {
      throw RecordingError(
        file: path, line: lineNumber, kind: .notANumber,
        message:
          "'\(field.prefix(24))' in column \(columns[column]) is not a number; fix or remove the row"
      )
    }
    guard let limit else { return value }
    if !value.isFinite {
      throw RecordingError(
        file: path, line: lineNumber, kind: .notFinite,
        message: "\(columns[column]) is \(value); a log needs finite numbers there")
    }
    if value.magnitude > limit {
      throw RecordingError(
        file: path, line: lineNumber, kind: .outOfRange,
        message:
          "\(columns[column]) is \(value), beyond ±\(Int(limit)); the row is corrupt, remove or fix it"
      )
    }
    return value
  }
}

extension String {
  func trimmingQuotes() -> String {
    count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
  }
}
