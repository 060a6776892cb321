import Foundation
import IIO
import SystemCalls
import Tilt
import TiltCard

/// The IIO paths of `live`, `record`, `info` and `devices` (SPEC §2's IIO sensor).
enum IIOLive {
  /// The IMU that `reference` (`/dev/iio:deviceN`, `iio:deviceN` or its sysfs
  /// directory) names, or an error that says what there is.
  static func imu(_ reference: String) throws -> IIOIMU { try IIOUsability.imu(reference) }

  /// What `live` says on stderr about the sensors it chose.
  static func chosen(_ imu: IIOIMU, polling: Double?) -> String {
    var text =
      "tilt-cli live: IIO sensor \"\(imu.accelerometer.name)\" (\(imu.accelerometer.nodePath))"
    if let gyro = imu.gyroscope, gyro != imu.accelerometer {
      text += " with the gyroscope \"\(gyro.name)\" (\(gyro.nodePath)) of the same hub"
    } else if imu.gyroscope == nil {
      text += ", no gyroscope (accelerometer only)"
    }
    if let polling { text += "; no buffer: polling in_*_raw at \((1 / polling).compact) Hz" }
    return text + "\n"
  }

  static func live(options: PipelineOptions, reference: String, wait: Bool) throws -> Int32 {
    let imu = try imu(reference)
    var configuration = try options.tiltConfiguration()
    configuration.gyroBiasStore = GyroBiasStore()
    let manager = try TiltMotionManager(
      devicePath: reference, configuration: configuration,
      makeSink: { info in try options.makeSink(card: configuration.card, title: info.name) },
      waitsForReconnect: wait,
      onNote: { note in StandardError.write("tilt-cli live: \(LibraryErrorText.describe(note))\n") }
    )
    StandardError.write(
      chosen(imu, polling: (manager.device as? IIOMotionDevice)?.pollInterval))
    return try CardRun.live(manager, options: options)
  }

  /// `record` of an IIO sensor: SPEC §2's CSV log (card axes, g and rad/s),
  /// the samples `live` would feed the pipeline, timed as it times them.
  static func record(reference: String, outputPath: String, duration: Double?) throws -> Int32 {
    let imu = try imu(reference)
    // Under a temporary name in the same directory until complete, as the
    // evemu recorder writes (EvemuWriter): the path never holds half a log.
    let file = try FileUnderTemporaryName(path: outputPath)
    let rows = CSVRows(file: file, hasGyroscope: imu.gyroscope != nil)
    let note = { (note: MotionNote) in
      StandardError.write("tilt-cli record: \(LibraryErrorText.describe(note))\n")
    }
    let device = IIOMotionDevice(imu: imu, onNote: note)
    let manager = try DeviceMotionManager(device: device, processor: rows, onNote: note)
    if let duration {
      manager.participants.append(
        EndAfter(seconds: duration) { [unowned manager] in
          manager.requestEnd()
        })
    }
    StandardError.write(
      "tilt-cli record: recording \"\(imu.name)\" (\(imu.accelerometer.nodePath)) to \(outputPath)"
        + (duration.map { " for \($0.compact) s" } ?? "; Ctrl-C to finish") + "\n")
    var wentAway = false
    do {
      do {
        try manager.run()
      } catch let error as TiltError {
        guard case .deviceGone = error else { throw error }
        wentAway = true
      }
      try file.finish()
    } catch {
      file.abandon()
      throw error
    }
    StandardError.write(
      "tilt-cli record: wrote \(rows.count) samples to \(outputPath)"
        + (wentAway ? " (the sensor went away; the recording ends there)" : "")
        + "\n")
    return wentAway ? ExitStatus.failure : ExitStatus.success
  }

  /// `info` of an IIO sensor: kind, scale, rate, buffer, trigger, why not usable.
  static func info(reference: String, json: Bool, measure seconds: Double = 0) throws -> Int32 {
    let devices = IIOScanner.scan()
    let name = (reference as NSString).lastPathComponent
    guard let device = devices.first(where: { $0.deviceName == name }) else {
      _ = try imu(reference)
      return ExitStatus.failure
    }
    let reason = IIOUsability.reason(for: device, among: devices)
    let imu = IIOIMU.find(reference, in: devices)
    var rate: IIORate?
    if seconds > 0, reason == nil, device.hasBuffer {
      let stream = try IIOStream(device: device, kinds: Array(device.kinds))
      defer { stream.close() }
      rate = try stream.measureRate(seconds: seconds)
    }
    if json {
      var listing = listingJSON(device, among: devices)
      if case .object(var fields) = listing, let rate {
        fields.append(("measured", measuredJSON(rate, seconds: seconds)))
        listing = .object(fields)
      }
      print(listing.serialized(pretty: true))
    } else {
      var lines = [
        "\(device.nodePath): \"\(device.name)\" (IIO, \(device.sysfsPath))",
        "  kind: \(kind(device, imu: imu))\(reason.map { " (unusable: \($0))" } ?? "")",
        "  \(device.summary)",
        "  trigger: \(device.currentTrigger.map { $0.isEmpty ? "none set (the device's own is set on start)" : $0 } ?? "none")",
        "  buffer length: \(device.bufferLength.map(String.init) ?? "-")",
        "  hub: \(device.hub)",
        "  mount matrix: \(device.mountMatrixAttribute ?? "none from the driver")",
      ]
      if let imu, let gyro = imu.gyroscope, gyro != device {
        lines.append("  paired with: \(gyro.nodePath) (\(gyro.name))")
      } else if let imu, imu.accelerometer != device {
        lines.append("  paired with: \(imu.accelerometer.nodePath) (\(imu.accelerometer.name))")
      }
      if let rate { lines += measuredLines(rate, seconds: seconds) }
      if seconds > 0, !device.hasBuffer {
        let hz = IIOMotionDevice.pollRate(for: device)
        lines.append("  rate: polled at \(hz.compact) Hz by tilt (no buffer: nothing to measure)")
      }
      print(lines.joined(separator: "\n"))
    }
    return ExitStatus.success
  }

  /// `info --measure` of a buffered sensor: the rate of its scans by their timestamps.
  static func measuredLines(_ rate: IIORate, seconds: Double) -> [String] {
    let over = " (measured over \(seconds.compact) s, \(rate.scanCount) scans, by in_timestamp)"
    guard let hz = rate.rateHz else { return ["  rate: under two scans" + over] }
    func ms(_ v: Double?) -> String { v.map { String(format: "%.3f ms", $0) } ?? "-" }
    return [
      String(format: "  rate: %.1f Hz", hz) + over,
      "  interval: median \(ms(rate.medianIntervalMs)), std dev \(ms(rate.intervalStdDevMs)), "
        + "p99 \(ms(rate.intervalP99Ms)); \(rate.gapCount) gaps over 1.5× the median, "
        + "\(rate.timestampResets) timestamp resets",
    ]
  }

  static func measuredJSON(_ rate: IIORate, seconds: Double) -> JSONValue {
    .object([
      ("seconds", .number(seconds)), ("scans", .number(Double(rate.scanCount))),
      ("rateHz", JSONValue(rate.rateHz)), ("medianIntervalMs", JSONValue(rate.medianIntervalMs)),
      ("intervalStdDevMs", JSONValue(rate.intervalStdDevMs)),
      ("intervalP99Ms", JSONValue(rate.intervalP99Ms)), ("gaps", .number(Double(rate.gapCount))),
      ("timestampResets", .number(Double(rate.timestampResets))),
    ])
  }

  static func kind(_ device: IIODevice, imu: IIOIMU?) -> String {
    if device.kinds.contains(.accelerometer) && device.kinds.contains(.gyroscope) { return "imu" }
    if imu?.gyroscope != nil { return "imu" }
    return device.kinds.contains(.accelerometer) ? "accelerometer" : "unsupported"
  }

  static func listingJSON(_ device: IIODevice, among devices: [IIODevice]) -> JSONValue {
    let reason = IIOUsability.reason(for: device, among: devices)
    let imu = IIOIMU.find(device.deviceName, in: devices)
    let k = reason == nil ? kind(device, imu: imu) : "unsupported"
    let accel = device.kinds.contains(.accelerometer)
    // SPEC §3's resolutions: units/g and units/(deg/s) from the IIO scale.
    let accelResolution: Double? =
      accel ? IIOConvention.standardGravity / device.scale(.accelerometer).x : nil
    let gyroResolution: Double? =
      device.kinds.contains(.gyroscope) ? (Double.pi / 180) / device.scale(.gyroscope).x : nil
    return .object([
      ("path", .string(device.nodePath)), ("name", .string(device.name)), ("kind", .string(k)),
      ("bus", .string("iio")), ("sysfs", .string(device.sysfsPath)),
      ("sensor", .string(accel ? "accelerometer" : "gyroscope")),
      ("accelResolution", JSONValue(accelResolution)),
      ("gyroResolution", JSONValue(gyroResolution)),
      ("scale", .number(device.scale(accel ? .accelerometer : .gyroscope).x)),
      ("samplingFrequency", JSONValue(device.samplingFrequency)),
      ("buffer", .bool(device.hasBuffer)),
      ("timestamps", .string("iio")),
      (
        "pairedWith",
        JSONValue(
          imu.flatMap {
            $0.accelerometer == device
              ? ($0.gyroscope == device ? nil : $0.gyroscope?.nodePath) : $0.accelerometer.nodePath
          })
      ),
      ("reason", .string(reason ?? device.summary)),
      ("error", JSONValue(reason)),
    ])
  }

  /// The table rows of `devices` for the IIO sensors.
  static func rows(_ devices: [IIODevice]) -> [[String]] {
    devices.map { device in
      let imu = IIOIMU.find(device.deviceName, in: devices)
      if let reason = IIOUsability.reason(for: device, among: devices) {
        return [device.nodePath, "-", device.name, "IIO; \(reason)"]
      }
      var note =
        "IIO \(device.kinds.contains(.accelerometer) ? "accelerometer" : "gyroscope"); \(device.summary)"
      if let imu, let gyro = imu.gyroscope, gyro != device, imu.accelerometer == device {
        note += "; gyroscope \(gyro.nodePath)"
      } else if let imu, imu.accelerometer != device {
        note += "; with accelerometer \(imu.accelerometer.nodePath)"
      }
      return [device.nodePath, kind(device, imu: imu), device.name, note]
    }
  }
}

/// Ends a loop after a number of seconds (`record --duration`).
final class EndAfter: LoopParticipant {
  let end: MonotonicInstant
  let requestEnd: () -> Void
  init(seconds: Double, requestEnd: @escaping () -> Void) {
    end = .now + .seconds(seconds)
    self.requestEnd = requestEnd
  }
  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { end }
  func service(ready: Set<Int32>) throws {
    if end <= .now { requestEnd() }
  }
}

/// Each sample as a row of SPEC §2's CSV log (card axes, g and rad/s).
final class CSVRows: MotionProcessor {
  let file: FileUnderTemporaryName
  let hasGyroscope: Bool
  private(set) var count = 0

  init(file: FileUnderTemporaryName, hasGyroscope: Bool) {
    self.file = file
    self.hasGyroscope = hasGyroscope
    file.write(
      "t_s,acc_x_g,acc_y_g,acc_z_g" + (hasGyroscope ? ",gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s" : "")
        + "\n")
  }

  var isActive: Bool { true }
  func start() throws {}
  func stop() throws {}
  func recenter() throws {}

  func take(_ item: SourceItem) throws {
    guard let sample = item.motion else { return }
    var fields =
      [sample.time] + [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
    if let r = sample.rotationRate { fields += [r.x, r.y, r.z] }
    file.write(fields.map { String(format: "%.9g", $0) }.joined(separator: ",") + "\n")
    count += 1
  }
}
