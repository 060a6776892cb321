import Evdev
import IIO
import Tilt

/// `tilt-cli record`: an evemu recording of a live device, which `evemu-play` accepts.
enum RecordCommand: Command {
  static let name = "record"
  static let overview = "Record a live device to an evemu file that evemu-play accepts."
  static let usage = "record [--device PATH] [--duration S] -o FILE"
  static let help = """
    OPTIONS:
      --device PATH           The evdev node (default: the first motion device found), or
                              an IIO sensor (/dev/iio:deviceN): recorded as a CSV log.
      --duration S            Stop after S seconds (default: until Ctrl-C or SIGTERM).
      -o, --output FILE       The recording to write. It appears under this name only
                              once complete; Ctrl-C and SIGTERM finish it cleanly.
    """
  static let spec = CommandLineArguments.Spec(
    options: ["device", "duration", "output"], aliases: ["o": "output"])

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    guard let output = arguments.string("output") else {
      throw UsageError("missing -o FILE (where to write the recording)")
    }
    let duration = try arguments.number("duration", in: 0.001...31_536_000)
    let device = try arguments.string("device") ?? DeviceChoice.firstMotionDevice()
    if IIOIMU.isIIOReference(device) {
      return try IIOLive.record(reference: device, outputPath: output, duration: duration)
    }
    return try Recorder(
      device: LiveDevice(path: device), devicePath: device, outputPath: output, duration: duration
    ).run()
  }
}
