import CommandLineOptions
import IIO
import SystemCalls
import Tilt
import TiltCard

/// `tilt-cli live`: tilt from an attached sensor.
enum LiveCommand: Command {
  static let name = "live"
  static let overview = "Tilt the card live from an attached motion sensor or joystick."
  static let usage = "live [--device PATH] [--wait] [options]"
  enum Keys {
    static let device = Option<String>.value(
      "device", "PATH",
      help: "The evdev node, like /dev/input/event5, or an IIO sensor,\n"
        + "/dev/iio:device0 (default: the first motion device found;\n"
        + "see 'tilt-cli devices').")
    static let wait = Flag(
      "wait", help: "When the device goes away, wait for it to come back\ninstead of exiting.")
  }
  static let options =
    [Keys.device.declaration, Keys.wait.declaration] + PipelineOptions.declarations

  struct Request {
    var options: PipelineOptions
    /// `nil`: the first motion device found.
    var device: String?
    var wait: Bool
  }

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    Request(
      options: try PipelineOptions(arguments), device: try arguments[Keys.device],
      wait: arguments[Keys.wait])
  }

  static func run(_ request: Request) throws -> Int32 {
    let device = try request.device ?? DeviceChoice.firstMotionDevice()
    return try live(options: request.options, devicePath: device, wait: request.wait)
  }

  /// The live loop of the library, into the sink the options ask for, with
  /// the terminal's keys; exit 1 when the device went away.
  static func live(options: PipelineOptions, devicePath: String, wait: Bool) throws -> Int32 {
    var iio: IIOIMU?
    if case .iio(let imu) = try MotionNode.resolve(devicePath) { iio = imu }
    var configuration = try options.tiltConfiguration()
    configuration.gyroBiasStore = GyroBiasStore()
    let manager = try TiltMotionManager(
      devicePath: devicePath, configuration: configuration,
      makeSink: { info in try options.makeSink(card: configuration.card, title: info.name) },
      waitsForReconnect: wait,
      onNote: { note in
        if iio == nil, case .ignoredUdevMountMatrix = note {
          StandardError.write("tilt-cli: \(LibraryErrorText.describe(note))\n")
        } else {
          StandardError.write("tilt-cli live: \(LibraryErrorText.describe(note))\n")
        }
      })
    if let iio {
      StandardError.write(
        IIOCommands.chosen(iio, polling: (manager.device as? IIOMotionDevice)?.pollInterval))
    } else {
      manager.buttonsStartUpdates = true  // a pad's button wakes a stopped card
    }
    return try manager.runLive(options: options, card: configuration.card)
  }
}
