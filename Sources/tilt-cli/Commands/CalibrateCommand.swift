import CommandLineOptions
import Foundation
import JSON
import Tilt

/// `tilt-cli calibrate`: measures the gyroscope bias at rest and stores it
/// for the device, so that later starts show no drift from the first second.
enum CalibrateCommand: Command {
  static let name = "calibrate"
  static let overview = "Measure a gyroscope's bias at rest and store it for the device."
  static let usage = "calibrate [--device PATH] [--duration S] [--json]"
  static let discussion = """
    Lay the device on a table, or hold it very still, while it is measured.
    The bias is stored under $XDG_STATE_HOME/tilt (else ~/.local/state/tilt),
    one file a device (by its uniq, else bus, vendor, product and name; an
    IIO sensor by its hub and its sensors' names), and 'tilt-cli live' starts
    from it. A device that moves during the
    measurement gets exit 1 and nothing is stored. Moving is judged by how
    the readings vary, not by their mean: a steady bias of any size up to
    \(degrees(GyroCalibrator.maximumBiasDegreesPerSecond)) deg/s on an axis is measured, and said to be large beyond the
    \(degrees(GyroCalibrator.largeBiasDegreesPerSecond)) deg/s that live learns by itself (such a device drifts without it).
    """
  enum Keys {
    static let device = Option<String>.value(
      "device", "PATH",
      help: "The evdev node, or an IIO sensor, /dev/iio:device0 (its\n"
        + "accelerometer with the gyroscope of its hub) (default:\n"
        + "the first motion device with a gyroscope).")
    static let duration = Option<Double>.number(
      "duration", "S", help: "Seconds to measure, 0.5 to 600 (default: 3).", in: 0.5...600)
    static let json = Flag(
      "json",
      help: "Print {\"device\", \"bias\", \"uncertainty\", \"samples\",\n"
        + "\"large\"}: bias and uncertainty in deg/s, card\n"
        + "coordinates; large true beyond \(degrees(GyroCalibrator.largeBiasDegreesPerSecond)) deg/s on an axis."
    )
  }
  static let options = [Keys.device.declaration, Keys.duration.declaration, Keys.json.declaration]

  struct Request {
    var seconds: Double
    var json: Bool
    /// `nil`: the first motion device with a gyroscope.
    var device: String?
  }

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    Request(
      seconds: try arguments[Keys.duration] ?? 3, json: arguments[Keys.json],
      device: try arguments[Keys.device])
  }

  static func run(_ request: Request) throws -> Int32 {
    let (seconds, json) = (request.seconds, request.json)
    guard let store = GyroBiasStore() else {
      throw Failure("neither XDG_STATE_HOME nor HOME is set: nowhere to store the bias")
    }
    let path = try request.device ?? DeviceChoice.firstGyroscopeDevice()
    let calibrator = try GyroCalibrator(devicePath: path)
    let bar = ProgressLine(enabled: StandardError.isTerminal)
    if !json || bar.enabled {
      StandardError.write(
        "Hold \"\(calibrator.info.name)\" still for \(format(seconds)) s…\n")
    }
    let result: GyroCalibrator.Result
    do {
      result = try calibrator.measure(seconds: seconds) { bar.show($0) }
      bar.end()
    } catch {
      bar.end()
      throw error
    }
    try store.save(result.bias, for: result.device)
    let b = result.bias.biasDegreesPerSecond
    if json {
      let fields: [(String, JSONValue)] = [
        ("device", .string(path)),
        ("bias", .array([.number(b.x), .number(b.y), .number(b.z)])),
        ("uncertainty", .number(result.bias.uncertaintyDegreesPerSecond)),
        ("samples", .number(Double(result.bias.samples))),
        ("large", .bool(result.isLarge)),
      ]
      print(JSONValue.object(fields).serialized())
    } else {
      print(
        """
        gyroscope bias of \(path) ("\(result.device.name)"), deg/s, card axes:
          x \(format(b.x))  y \(format(b.y))  z \(format(b.z))  (± \(format(result.bias.uncertaintyDegreesPerSecond)), \(result.bias.samples) samples)
        """)
      if result.isLarge {
        print(
          "  large: beyond the \(format(GyroCalibrator.largeBiasDegreesPerSecond)) deg/s that 'tilt-cli live' "
            + "learns by itself; without this calibration the device drifts.")
      }
      print("stored in \(store.path(for: result.device)); 'tilt-cli live' starts from it.")
    }
    return ExitStatus.success
  }

  private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
  private static func degrees(_ value: Double) -> String { String(format: "%g", value) }
}

/// A progress bar redrawn in place on standard error, when it is a terminal.
struct ProgressLine {
  let enabled: Bool

  func show(_ fraction: Double) {
    guard enabled else { return }
    let width = 30
    let filled = Int((fraction * Double(width)).rounded(.down))
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    StandardError.writeControl("\r  \(bar) \(Int((fraction * 100).rounded(.down)))%")
  }

  func end() {
    if enabled { StandardError.write("\n") }
  }
}
