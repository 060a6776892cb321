import Tilt

/// Plain `tilt-cli`: live from the first motion device, else the bundled demo.
enum DefaultCommand: Command {
  static let name = ""
  static let overview = "Live tilt from the first motion device, or the bundled demo."
  static let usage = "[options]"
  static let help = """
    OPTIONS:
    \(PipelineOptions.help)
    """
  static let spec = CommandLineArguments.Spec(
    options: PipelineOptions.valueOptions, flags: PipelineOptions.flagOptions,
    aliases: ["o": "output"], maxPositionals: 0)

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    let options = try PipelineOptions(arguments)
    if let device = DeviceChoice.firstMotionDeviceIfAny() {
      return try LiveCommand.live(options: options, devicePath: device, wait: false)
    }
    StandardError.write(
      "tilt-cli: no motion device found (see 'tilt-cli devices'); playing the bundled demo.\n")
    let configuration = try options.tiltConfiguration()
    return try ReplayCommand.play(
      DemoMotionSource(configuration: configuration), options: options,
      configuration: configuration, speed: 1)
  }
}
