import CommandLineOptions
import IIO
import Reports
import Tilt

/// `tilt-cli info SOURCE`: what a device or a recording is.
enum InfoCommand: Command {
  static let name = "info"
  static let overview = "Tell what a device or a recording is: kind, resolutions, clock."
  static let usage = "info SOURCE [--json]"
  static let arguments = [
    ArgumentDeclaration(
      name: "SOURCE",
      help: """
        An evdev node (/dev/input/eventN), an IIO sensor
        (/dev/iio:deviceN), an evemu recording or a CSV log. A
        live device is also measured for one second: sample rate,
        interval jitter, dropped frames, clock wraps (an IIO
        buffer's by its scans' in_timestamp).
        """)
  ]
  enum Keys {
    static let json = Flag("json", help: "One JSON object instead of text.")
    static let measure = Option<Double>.number(
      "measure", "S",
      help: "Seconds to measure a live device, 0 to 60 (default 1; 0\nskips).", in: 0...60)
  }
  static let options = [Keys.json.declaration, Keys.measure.declaration]

  struct Request {
    var source: String
    var seconds: Double
    var json: Bool
  }

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    let seconds = try arguments[Keys.measure] ?? 1
    let json = arguments[Keys.json]
    guard let source = arguments.positionals.first else {
      throw UsageError("missing SOURCE (an evdev node, an evemu recording or a CSV log)")
    }
    return Request(source: source, seconds: seconds, json: json)
  }

  static func run(_ request: Request) throws -> Int32 {
    let (source, seconds) = (request.source, request.seconds)
    if MotionNode.isIIO(source) {
      return try IIOCommands.info(reference: source, json: request.json, measure: seconds)
    }
    let report = try SourceReport.make(for: source, measureSeconds: seconds) { note in
      switch note {
      case .recordingCheck(let text): StandardError.write("tilt-cli info: \(text)\n")
      case .ignoredMountMatrix(let ignored):
        StandardError.write("tilt-cli: \(LibraryErrorText.describe(ignored))\n")
      }
    }
    if request.json {
      print(report.json.serialized(pretty: true))
    } else {
      print(report.text, terminator: "")
    }
    return ExitStatus.success
  }
}
