import CommandLineOptions
import Evdev
import Foundation
import Tilt

/// Plain `tilt-cli`: live from the first motion device, else the bundled demo.
enum DefaultCommand: Command {
  static let name = ""
  static let overview = "Tilt a two-sided card with a Linux motion sensor, Core Motion style."
  static let usage = "[<command>] [options]"
  static var discussion: String {
    let width = CommandList.all.map { $0.name.count }.max().map { $0 + 2 } ?? 12
    let rows = CommandList.all.map {
      "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.overview
    }
    return """
      With no command: live tilt from the first motion device found, or the bundled
      demo recording when there is none, with the options below.

      COMMANDS:
      \(rows.joined(separator: "\n"))
      """
  }
  static let footer =
    "See 'tilt-cli <command> --help' (or 'tilt-cli help <command>') for a command's options."
  enum Keys {
    static let version = Flag("version", help: "Show the version.")
  }
  static let options = [Keys.version.declaration] + PipelineOptions.declarations

  /// `--version`, or a run with the pipeline's options.
  enum Request {
    case version
    case tilt(PipelineOptions)
  }

  /// `--version` before the other options: it prints the version whatever they are.
  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    arguments[Keys.version] ? .version : .tilt(try PipelineOptions(arguments))
  }

  static func run(_ request: Request) throws -> Int32 {
    guard case .tilt(let options) = request else {
      print("tilt-cli \(Version.string)")
      return ExitStatus.success
    }
    if let device = DeviceChoice.firstMotionDeviceIfAny() {
      return try LiveCommand.live(options: options, devicePath: device, wait: false)
    }
    let notice = DemoNotice(
      unreadable: DeviceListing.scan().entries.compactMap { entry in
        guard case .permissionDenied = entry.device.openError else { return nil }
        return UnreadableDevice(path: entry.device.path)
      })
    // Before the view: on a terminal it is there again when the view ends.
    StandardError.write("tilt-cli: \(notice.message)\n")
    let configuration = try options.tiltConfiguration()
    return try ReplayCommand.play(
      DemoMotionSource(configuration: configuration), options: options,
      configuration: configuration, speed: 1, title: notice.heading,
      endNote: "tilt-cli: the demo ended. With a motion device attached, 'tilt-cli' follows it "
        + "live; 'tilt-cli replay FILE' plays a recording.")
  }
}

/// Why plain `tilt-cli` plays the bundled demo, for standard error and for the
/// view's heading (the full-screen view hides what was printed before it).
struct DemoNotice {
  /// The nodes that could not be opened for lack of permission.
  var unreadable: [UnreadableDevice]

  /// The unreadable nodes that may be motion devices: those udev calls one,
  /// or all of them when udev says nothing about any.
  var suspects: [UnreadableDevice] {
    let motion = unreadable.filter { $0.isMotionDevice == true }
    return motion.isEmpty ? unreadable.filter { $0.isMotionDevice == nil } : motion
  }

  var message: String {
    let suspects = suspects
    guard !suspects.isEmpty else {
      return "no motion device found (see 'tilt-cli devices'); playing the bundled demo."
    }
    let names = suspects.map { d in d.name.map { "\(d.path) (\($0))" } ?? d.path }
      .joined(separator: ", ")
    let what =
      suspects.allSatisfy { $0.isMotionDevice == true }
      ? (suspects.count == 1 ? "the motion device" : "the motion devices")
      : (suspects.count == 1 ? "the input device" : "the input devices")
    return "cannot read \(what) \(names): permission denied. To use "
      + (suspects.count == 1 ? "it" : "them")
      + ", \(DeviceError.permissionFix). Playing the bundled demo."
  }

  /// The view's first line.
  var heading: String {
    let suspects = suspects
    guard !suspects.isEmpty else {
      return "Demo: the bundled recording (no motion device found; see 'tilt-cli devices')"
    }
    let count = suspects.count == 1 ? "1 device" : "\(suspects.count) devices"
    return "Demo: the bundled recording (\(count) not readable: permission denied; q shows the fix)"
  }
}
