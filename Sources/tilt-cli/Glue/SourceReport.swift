import Evdev
import Foundation
import SystemCalls
import Tilt
import TiltCard

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
  /// The `MSC_TIMESTAMP` clock's rate against the event clock (SPEC §1).
  var timestampRate: ClockRateCheck?
  /// What a CSV log holds.
  var csv: CSVSummary?
  /// The button that flips the card (evemu files and devices).
  var flip: FlipReport?

  static func make(for source: String, measureSeconds: Double) throws -> SourceReport {
    let kind: SourcePath.Kind
    do {
      kind = try SourcePath.kind(of: source)
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
      var summary = CSVSummary(
        accelerometerUnit: reader.accelerometerUnit, gyroscopeUnit: reader.gyroscopeUnit,
        groundTruthColumns: reader.columns.filter { $0.hasPrefix("opt_") || $0 == "movement" },
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
    for note in reader.check.notes { StandardError.write("tilt-cli info: \(note)\n") }
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

  private static func live(_ path: String, seconds: Double) throws -> SourceReport {
    let device = try LiveDevice(path: path)
    defer { device.close() }
    let matrix = DeviceSetup.udevMountMatrix(
      UdevProperties.accelMountMatrix(forDevicePath: path), device: path,
      warn: { StandardError.write("tilt-cli: \(LibraryErrorText.describe($0))\n") })
    var info = device.info
    info.driver = UdevProperties.driver(forDevicePath: path)
    let profile = DeviceProfile.classify(info, mountMatrix: matrix)
    var report = SourceReport(
      source: path, format: "device", name: info.name, profile: profile)
    report.flip = FlipReport(live: path, info: info, profile: profile)
    guard seconds > 0 else { return report }
    var probe = RateProbe()
    var decoder = SampleDecoder(profile: profile)
    let loop = try EventLoop()
    defer { loop.end() }
    let reading = ClosureParticipant(descriptors: { [device.fileDescriptor] }) { ready in
      guard !ready.isEmpty else { return }
      let frames = try device.readFrames()
      probe.add(frames)
      for frame in frames { _ = decoder.decode(frame) }
    }
    try loop.run([reading], until: .now + .seconds(seconds))
    report.rate = probe.report
    report.measuredSeconds = seconds
    if profile.timestamps == .msc { report.timestampRate = decoder.timestampRate }
    return report
  }

  var json: JSONValue {
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
    return lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
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

/// What `info` says of a CSV log: how long, how fast, which units, which
/// columns beyond the motion.
struct CSVSummary {
  var accelerometerUnit: String
  var gyroscopeUnit: String?
  /// The `opt_*` and `movement` columns, in header order.
  var groundTruthColumns: [String]
  /// Whether `opt_qw … opt_qz` are all there (what `tune` scores against).
  var hasGroundTruth: Bool
  var samples = 0
  /// Rows with a ground-truth quaternion that is not NaN.
  var groundTruthSamples = 0
  /// Seconds from the first row to the last.
  var duration = 0.0
  /// The median of the rows' time steps, seconds; nil with fewer than two rows.
  var medianInterval: Double?

  var rateHz: Double? {
    guard let medianInterval, medianInterval > 0 else { return nil }
    return 1 / medianInterval
  }

  var jsonMembers: [(String, JSONValue)] {
    [
      ("durationSeconds", .number(duration)),
      ("rateHz", JSONValue(rateHz)),
      (
        "units",
        .object([
          ("time", .string("s")), ("accelerometer", .string(accelerometerUnit)),
          ("gyroscope", JSONValue(gyroscopeUnit)),
        ])
      ),
      ("gyroscope", .bool(gyroscopeUnit != nil)),
      ("groundTruthColumns", .array(groundTruthColumns.map { .string($0) })),
      ("groundTruth", .bool(hasGroundTruth)),
      ("groundTruthSamples", .number(Double(groundTruthSamples))),
    ]
  }

  var lines: [String] {
    let rate = rateHz.map {
      String(format: "%.1f Hz (median step %.3f ms)", $0, medianInterval! * 1000)
    }
    let truth =
      groundTruthColumns.isEmpty
      ? "none"
      : groundTruthColumns.joined(separator: ", ")
        + (hasGroundTruth ? " (\(groundTruthSamples) rows with an orientation)" : "")
    return [
      String(format: "duration: %.3f s", duration),
      "rate: " + (rate ?? "fewer than two timed rows"),
      "units: t_s in s, accelerometer in \(accelerometerUnit), gyroscope "
        + (gyroscopeUnit.map { "in \($0)" } ?? "none"),
      "gyroscope: \(gyroscopeUnit == nil ? "no" : "yes")",
      "ground truth: \(truth)",
    ]
  }
}

extension ClockRateCheck {
  var json: JSONValue {
    .object([
      ("eventPerMsc", JSONValue(rate)),
      ("uncertainty", JSONValue(rateError)),
      ("windowSeconds", .number(seconds)),
      ("frames", .number(Double(count))),
      ("eventClockRateWins", .bool(eventClockWins)),
      ("appliedRate", .number(appliedRate)),
    ])
  }

  /// One line: how the clocks compare and which rate times the samples.
  var text: String {
    guard let rate else { return "too few MSC_TIMESTAMP frames to compare with the event clock" }
    let difference = (1 - 1 / rate) * 100
    let percent = abs(difference) < 0.005 ? 0 : difference
    let spread = rateError.map { String(format: " ± %.2f %%", $0 * 100) } ?? ""
    let over = String(format: "over %.1f s", seconds)
    if eventClockWins {
      let how = percent > 0 ? "slow" : "fast"
      return String(format: "MSC_TIMESTAMP runs %.2f %% %@", abs(percent), how) + spread
        + " against the event clock \(over), more than their jitter explains: the event clock's "
        + String(format: "rate wins (each MSC_TIMESTAMP step × %.4f)", appliedRate)
    }
    return String(
      format: "MSC_TIMESTAMP agrees with the event clock (%+.2f %%", percent == 0 ? 0 : -percent)
      + spread
      + ") \(over): timed by MSC_TIMESTAMP"
  }
}

/// The card's flip button for a device (`Buttons.primary(among:)`
/// of its keys): what `info` says as `flip:`.
struct FlipReport {
  /// The flip buttons, lowest code first.
  var codes: [UInt16]
  /// The paired button node they are on, when not the node itself.
  var pairedNode: String?

  init(keys: Set<UInt16>, pairedNode: String?) {
    codes = Buttons.primary(among: keys).sorted()
    self.pairedNode = pairedNode
  }

  /// A live node with the buttons of the node it pairs with, as `live` opens them.
  init(live path: String, info: DeviceInfo, profile: DeviceProfile) {
    let nodes = DeviceScanner.scan(directory: DeviceChoice.inputDirectory, known: [path: info])
    let paired = nodes.first { $0.path == path }?.pairedButtonPath
    let pairedInfo = nodes.first { $0.path == paired }?.info
    self.init(
      keys: DeviceSetup.buttons(profile: profile, pairedButtons: pairedInfo),
      pairedNode: pairedInfo == nil ? nil : paired)
  }

  var names: [String] {
    codes.map {
      EventNames.codeName(type: EventType.key, code: $0) ?? "BTN_0x\(String($0, radix: 16))"
    }
  }

  var text: String {
    guard !codes.isEmpty else { return "none (no button to flip with; the space key flips)" }
    return names.joined(separator: ", ") + (pairedNode.map { " (on \($0))" } ?? "")
  }

  var jsonMembers: [(String, JSONValue)] {
    [
      ("flipButtons", .array(names.map { .string($0) })),
      ("flipButtonNode", JSONValue(pairedNode)),
    ]
  }
}
