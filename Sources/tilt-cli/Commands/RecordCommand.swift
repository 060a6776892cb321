import CommandLineOptions
import Evdev
import IIO
import Tilt

/// `tilt-cli record`: an evemu recording of a live device, which `evemu-play` accepts.
enum RecordCommand: Command {
  static let name = "record"
  static let overview = "Record a live device to an evemu file that evemu-play accepts."
  static let usage = "record [--device PATH] [--duration S] -o FILE"
  enum Keys {
    static let device = Option<String>.value(
      "device", "PATH",
      help: "The evdev node (default: the first motion device found), or\n"
        + "an IIO sensor (/dev/iio:deviceN): recorded as a CSV log.")
    static let duration = Option<Double>.number(
      "duration", "S", help: "Stop after S seconds (default: until Ctrl-C or SIGTERM).",
      in: 0.001...31_536_000)
    static let output = Option<String>.value(
      "output", short: "o", "FILE",
      help: "The recording to write. It appears under this name only\n"
        + "once complete; Ctrl-C and SIGTERM finish it cleanly.")
  }
  static let options = [
    Keys.device.declaration, Keys.duration.declaration, Keys.output.declaration,
  ]

  struct Request {
    var output: String
    var duration: Double?
    /// `nil`: the first motion device found.
    var device: String?
  }

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    let (duration, device) = (try arguments[Keys.duration], try arguments[Keys.device])
    guard let output = try arguments[Keys.output] else {
      throw UsageError("missing -o FILE (where to write the recording)")
    }
    return Request(output: output, duration: duration, device: device)
  }

  static func run(_ request: Request) throws -> Int32 {
    let (output, duration) = (request.output, request.duration)
    let device = try request.device ?? DeviceChoice.firstMotionDevice()
    switch try MotionNode.resolve(device) {
    case .iio(let imu):
      return try IIOCommands.record(imu, outputPath: output, duration: duration)
    case .evdev(let path):
      return try Recorder(
        device: LiveDevice(path: path), devicePath: path, outputPath: output, duration: duration
      ).run()
    }
  }
}
