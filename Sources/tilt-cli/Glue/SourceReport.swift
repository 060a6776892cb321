import Evdev
import Foundation
import Glibc
import SystemCalls
import Tilt

/// What `tilt-cli info` says about a device or a recording.
struct SourceReport {
  var source: String
  /// `device`, `evemu` or `csv`.
  var format: String
  var name: String?
  var profile: DeviceProfile?
  var csvHasGyroscope: Bool?
  var rate: RateReport?
  var measuredSeconds: Double?
  var frameCount: Int?

  static func make(for source: String, measureSeconds: Double) throws -> SourceReport {
    let kind: Syscall.FileKind
    do {
      kind = try Syscall.fileKind(source)
    } catch {
      throw Failure("\(source): \(error.message); give a /dev/input/eventN node or a recording")
    }
    if kind == .characterDevice {
      return try live(source, seconds: measureSeconds)
    }
    if kind == .directory {
      throw Failure("\(source): is a directory; give a /dev/input/eventN node or a recording")
    }
    if RecordingSource.looksLikeCSV(source) {
      let reader = try CSVMotionReader(path: source)
      var report = SourceReport(source: source, format: "csv")
      report.csvHasGyroscope = reader.hasGyroscope
      var count = 0
      while try reader.nextSample() != nil { count += 1 }
      report.frameCount = count
      return report
    }
    let reader = try EvemuReader(path: source)
    var probe = RateProbe()
    var frames = 0
    while let frame = try reader.nextFrame() {
      probe.add(frame)
      frames += 1
    }
    return SourceReport(
      source: source, format: "evemu", name: reader.info.name,
      profile: DeviceProfile.classify(reader.info), rate: probe.report, frameCount: frames)
  }

  private static func live(_ path: String, seconds: Double) throws -> SourceReport {
    let device = try LiveDevice(path: path)
    defer { device.close() }
    let matrix = DeviceSetup.udevMountMatrix(
      UdevProperties.accelMountMatrix(forDevicePath: path), device: path,
      warn: { StandardError.write("tilt-cli: \($0)\n") })
    var report = SourceReport(
      source: path, format: "device", name: device.info.name,
      profile: DeviceProfile.classify(device.info, mountMatrix: matrix))
    guard seconds > 0 else { return report }
    var probe = RateProbe()
    let end = monotonicSeconds() + seconds
    while case let left = end - monotonicSeconds(), left > 0 {
      if try !Poller.wait(for: [device.fileDescriptor], timeout: left).isEmpty {
        probe.add(try device.readFrames())
      }
    }
    report.rate = probe.report
    report.measuredSeconds = seconds
    return report
  }

  var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("source", .string(source)), ("format", .string(format)), ("name", JSONValue(name)),
    ]
    if let profile {
      members.append(("kind", .string(profile.kind.rawValue)))
      members += profile.jsonMembers
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
    return .object(members)
  }

  var text: String {
    var lines = ["source: \(source) (\(format))"]
    if let name { lines.append("name: \(name)") }
    if let profile {
      lines.append("kind: \(profile.kind.rawValue)")
      lines.append(
        "accelResolution: " + (profile.accelResolution.map { "\($0.compact) units/g" } ?? "none"))
      lines.append(
        "gyroResolution: "
          + (profile.gyroResolution.map { "\($0.compact) units/(deg/s)" } ?? "none"))
      lines.append("timestamps: \(profile.timestamps.rawValue)")
      if let quirk = profile.quirk { lines.append("quirk: \(quirk)") }
      lines.append("notes: \(profile.reason)")
    } else if let csvHasGyroscope {
      lines.append("kind: \(csvHasGyroscope ? "imu" : "accelerometer") (CSV log, card axes)")
    }
    if let frameCount { lines.append("\(format == "csv" ? "samples" : "frames"): \(frameCount)") }
    if let rate { lines += rate.lines(measuredFor: measuredSeconds) }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension RateReport {
  var json: JSONValue {
    .object([
      ("clock", JSONValue(clock.map { "\($0)" })),
      ("samples", .number(Double(sampleCount))),
      ("rateHz", JSONValue(rateHz)),
      ("medianIntervalMs", JSONValue(medianIntervalMs)),
      ("intervalStdDevMs", JSONValue(intervalStdDevMs)),
      ("intervalP99Ms", JSONValue(intervalP99Ms)),
      ("droppedFrames", clock == .msc ? .number(Double(droppedFrames)) : .null),
      ("gaps", .number(Double(gapCount))),
      ("synDropped", .number(Double(synDroppedCount))),
      ("timestampWraps", .number(Double(timestampWraps))),
      ("timestampResets", .number(Double(timestampResets))),
    ])
  }

  func lines(measuredFor seconds: Double?) -> [String] {
    let over = seconds.map { " (measured over \($0.compact) s)" } ?? ""
    guard let rateHz else { return ["rate: no timed samples\(over)"] }
    func ms(_ v: Double?) -> String { v.map { String(format: "%.3f ms", $0) } ?? "-" }
    // A device timed by event time reports only changes, so its gaps are not losses.
    let dropped =
      clock == .msc
      ? "dropped: \(droppedFrames) frames (\(synDroppedCount) SYN_DROPPED, \(missedSamples) missing from gaps)"
      : "dropped: \(synDroppedCount) SYN_DROPPED; \(gapCount) gaps over 1.5× the median interval (event-timed devices report only changes)"
    return [
      String(format: "rate: %.1f Hz", rateHz) + over,
      "interval: median \(ms(medianIntervalMs)), std dev \(ms(intervalStdDevMs)), p99 \(ms(intervalP99Ms))",
      dropped,
      "timestamp wraps: \(timestampWraps), resets: \(timestampResets)",
    ]
  }
}
