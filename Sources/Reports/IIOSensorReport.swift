import Foundation
import IIO
import JSON
import Motion

/// What `info` and `devices` say of IIO sensors (contract §2.4's IIO sensor).
public enum IIOSensorReport {
  /// `info` of the IIO sensor `reference` names: kind, scale, rate, buffer,
  /// trigger, why not usable; contract §3.7's JSON object when `json`. With `seconds`
  /// over 0 a buffered sensor's scans are measured that long. Nil when no
  /// sensor has that name and ``IIOUsability/imu(_:)`` throws nothing.
  public static func info(reference: String, json: Bool, measure seconds: Double = 0) throws
    -> String?
  {
    let devices = IIOScanner.scan()
    let name = (reference as NSString).lastPathComponent
    guard let device = devices.first(where: { $0.deviceName == name }) else {
      _ = try IIOUsability.imu(reference)
      return nil
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
      return listing.serialized(pretty: true)
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
        lines.append(
          "  rate: polled at \(hz.compactText) Hz by tilt (no buffer: nothing to measure)")
      }
      return lines.joined(separator: "\n")
    }
  }

  /// `info --measure` of a buffered sensor: the rate of its scans by their timestamps.
  public static func measuredLines(_ rate: IIORate, seconds: Double) -> [String] {
    let over = " (measured over \(seconds.compactText) s, \(rate.scanCount) scans, by in_timestamp)"
    guard let hz = rate.rateHz else { return ["  rate: under two scans" + over] }
    func ms(_ v: Double?) -> String { v.map { String(format: "%.3f ms", $0) } ?? "-" }
    return [
      String(format: "  rate: %.1f Hz", hz) + over,
      "  interval: median \(ms(rate.medianIntervalMs)), std dev \(ms(rate.intervalStdDevMs)), "
        + "p99 \(ms(rate.intervalP99Ms)); \(rate.gapCount) gaps over 1.5× the median, "
        + "\(rate.timestampResets) timestamp resets",
    ]
  }

  /// The `measured` object of `info --json` for a buffered sensor.
  public static func measuredJSON(_ rate: IIORate, seconds: Double) -> JSONValue {
    .object([
      ("seconds", .number(seconds)), ("scans", .number(Double(rate.scanCount))),
      ("rateHz", JSONValue(rate.rateHz)), ("medianIntervalMs", JSONValue(rate.medianIntervalMs)),
      ("intervalStdDevMs", JSONValue(rate.intervalStdDevMs)),
      ("intervalP99Ms", JSONValue(rate.intervalP99Ms)), ("gaps", .number(Double(rate.gapCount))),
      ("timestampResets", .number(Double(rate.timestampResets))),
    ])
  }

  /// contract §3.7's kind of a sensor: `imu` (with its hub's gyroscope),
  /// `accelerometer` or `unsupported`.
  public static func kind(_ device: IIODevice, imu: IIOIMU?) -> String {
    if device.kinds.contains(.accelerometer) && device.kinds.contains(.gyroscope) { return "imu" }
    if imu?.gyroscope != nil { return "imu" }
    return device.kinds.contains(.accelerometer) ? "accelerometer" : "unsupported"
  }

  /// A sensor as `devices --json` and `info --json` list it.
  public static func listingJSON(_ device: IIODevice, among devices: [IIODevice]) -> JSONValue {
    let reason = IIOUsability.reason(for: device, among: devices)
    let imu = IIOIMU.find(device.deviceName, in: devices)
    let k = reason == nil ? kind(device, imu: imu) : "unsupported"
    let accel = device.kinds.contains(.accelerometer)
    // contract §3.7's resolutions: units/g and units/(deg/s) from the IIO scale.
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
  public static func rows(_ devices: [IIODevice]) -> [[String]] {
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
