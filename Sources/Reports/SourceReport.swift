import Evdev
import Foundation
import JSON
import Motion
import SensorData
import SystemCalls

/// What a motion source is: an input device (measured for a while), an evemu
/// recording or a CSV log (read to its end). Its ``json`` is contract §3's `info
/// --json`; its ``text`` the lines a person reads.
public struct SourceReport {
  /// Why a path can't be reported on: one line, the path first.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// The path as given.
  public var source: String
  /// `device`, `evemu` or `csv`.
  public var format: String
  /// The device's name (devices and evemu files).
  public var name: String?
  /// How the card reads the device (devices and evemu files).
  public var profile: DeviceProfile?
  /// Whether a CSV log has gyroscope columns (CSV logs only).
  public var csvHasGyroscope: Bool?
  /// The frames' rate, intervals and losses.
  public var rate: RateReport?
  /// How long a device was measured.
  public var measuredSeconds: Double?
  /// Frames of an evemu file, rows of a CSV log.
  public var frameCount: Int?
  /// The `MSC_TIMESTAMP` clock's rate against the event clock (contract §1.7).
  public var timestampRate: ClockRateCheck?
  /// What a CSV log holds.
  public var csv: CSVSummary?
  /// The button that flips the card (evemu files and devices).
  public var flip: FlipReport?

  /// What reading a source noticed beside the report.
  public enum Note {
    /// A line of an evemu file's check (``EvemuReader/check``).
    case recordingCheck(RecordingError)
    /// The device's udev mount matrix, ignored.
    case ignoredMountMatrix(IgnoredMountMatrix)
  }

  /// Reads `source` (a live device for `measureSeconds`, or a recording to its
  /// end); `onNote` hears what it noticed on the way.
  public static func make(
    for source: String, measureSeconds: Double, onNote: @escaping (Note) -> Void = { _ in }
  ) throws -> SourceReport {
    let kind: InputPath.Kind
    do {
      kind = try InputPath.kind(of: source)
    } catch {
      throw Failure("\(source): \(error.message); give a /dev/input/eventN node or a recording")
    }
    if kind == .characterDevice {
      return try live(source, seconds: measureSeconds, onNote: onNote)
    }
    if kind == .directory {
      throw Failure("\(source): is a directory; give a /dev/input/eventN node or a recording")
    }
    if Recording.looksLikeCSV(source) {
      let reader = try CSVMotionReader(path: source)
      var report = SourceReport(source: source, format: "csv")
      report.csvHasGyroscope = reader.hasGyroscope
      var summary = CSVSummary(
        accelerometerUnit: reader.accelerometerUnit, gyroscopeUnit: reader.gyroscopeUnit,
        groundTruthColumns: reader.columns.filter {
          $0.hasPrefix("opt_") || $0 == CSVColumns.movement
        },
        hasGroundTruth: reader.hasGroundTruth)
      var intervals: [Double] = []
      var last: Double?
      while let record = try reader.nextSample() {
        summary.samples += 1
        if let truth = record.groundTruth, !truth.x.isNaN, !truth.y.isNaN, !truth.z.isNaN,
          !truth.w.isNaN
        {
          summary.groundTruthSamples += 1
        }
        if let last, record.time > last { intervals.append(record.time - last) }
        last = record.time
        summary.duration = record.time
      }
      intervals.sort()
      if !intervals.isEmpty { summary.medianInterval = intervals[intervals.count / 2] }
      report.frameCount = summary.samples
      report.csv = summary
      return report
    }
    let reader = try EvemuReader(path: source)
    for note in reader.check.notes { onNote(.recordingCheck(note)) }
    let profile = DeviceProfile.classify(reader.info)
    var decoder = SampleDecoder(profile: profile)
    var probe = RateProbe()
    var frames = 0
    while let frame = try reader.nextFrame() {
      probe.add(frame)
      _ = decoder.decode(frame)
      frames += 1
    }
    var report = SourceReport(
      source: source, format: "evemu", name: reader.info.name, profile: profile,
      rate: probe.report, frameCount: frames)
    report.flip = FlipReport(keys: profile.buttons, pairedNode: nil)
    if profile.timestamps == .msc { report.timestampRate = decoder.timestampRate }
    return report
  }

  private static func live(
    _ path: String, seconds: Double, onNote: @escaping (Note) -> Void
  ) throws -> SourceReport {
    let device = try LiveDevice(path: path)
    defer { device.close() }
    let matrix = DeviceSetup.udevMountMatrix(
      UdevProperties.accelMountMatrix(forDevicePath: path), device: path,
      warn: { onNote(.ignoredMountMatrix($0)) })
    var info = device.info
    info.driver = UdevProperties.driver(forDevicePath: path)
    let profile = DeviceProfile.classify(info, mountMatrix: matrix)
    var report = SourceReport(
      source: path, format: "device", name: info.name, profile: profile)
    report.flip = FlipReport(live: path, info: info, profile: profile)
    guard seconds > 0 else { return report }
    var decoder = SampleDecoder(profile: profile)
    report.rate = try device.rateMeasurement(
      seconds: seconds,
      onFrames: { frames in
        for frame in frames { _ = decoder.decode(frame) }
      }
    ).run()
    report.measuredSeconds = seconds
    if profile.timestamps == .msc { report.timestampRate = decoder.timestampRate }
    return report
  }

  /// contract §3.7's `info --json` object.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("source", .string(source)), ("format", .string(format)), ("name", JSONValue(name)),
    ]
    if let profile {
      members.append(("kind", .string(profile.kind.rawValue)))
      members += profile.jsonMembers
      members.append(("udev", profile.udevJSON))
    } else if let csvHasGyroscope {
      members += [
        ("kind", .string(csvHasGyroscope ? "imu" : "accelerometer")),
        ("accelResolution", .null), ("gyroResolution", .null), ("timestamps", .string("csv")),
      ]
    }
    if let frameCount {
      members.append((format == "csv" ? "samples" : "frames", .number(Double(frameCount))))
    }
    if let rate { members.append(("rate", rate.json)) }
    if let timestampRate {
      members.append(("timestampRate", timestampRate.json))
      members.append(("eventClockRateWins", .bool(timestampRate.eventClockWins)))
    }
    if let csv { members += csv.jsonMembers }
    if let flip { members += flip.jsonMembers }
    return .object(members)
  }

  /// The lines a person reads, control characters escaped.
  public var text: String {
    var lines = ["source: \(source) (\(format))"]
    if let name { lines.append("name: \(name)") }
    if let profile {
      lines.append("kind: \(profile.kind.rawValue)")
      lines.append(
        "accelResolution: "
          + (profile.accelResolution.map { "\($0.compactText) units/g" } ?? "none"))
      lines.append(
        "gyroResolution: "
          + (profile.gyroResolution.map { "\($0.compactText) units/(deg/s)" } ?? "none"))
      lines.append("timestamps: \(profile.timestamps.rawValue)")
      if let quirk = profile.quirk { lines.append("quirk: \(quirk)") }
      lines.append("udev: \(profile.udevText)")
      lines.append("notes: \(profile.reason)")
      if let flip { lines.append("flip: \(flip.text)") }
    } else if let csvHasGyroscope {
      lines.append("kind: \(csvHasGyroscope ? "imu" : "accelerometer") (CSV log, card axes)")
    }
    if let frameCount { lines.append("\(format == "csv" ? "samples" : "frames"): \(frameCount)") }
    if let csv { lines += csv.lines }
    if let rate { lines += rate.lines(measuredFor: measuredSeconds) }
    if let timestampRate {
      lines.append("timestamp rate: " + timestampRate.text)
      if timestampRate.eventClockWins, let hz = rate?.rateHz {
        lines.append(
          String(format: "rate by the event clock: %.1f Hz", hz / timestampRate.appliedRate))
      }
    }
    // The source's path, the device's name, a CSV log's column names: text
    // from a device or a file, shown with its control characters escaped.
    return lines.map { TerminalEscapes.escaped($0) }.joined(separator: "\n") + "\n"
  }
}
