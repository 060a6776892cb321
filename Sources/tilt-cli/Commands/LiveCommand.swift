/// `tilt-cli live`: tilt from an attached sensor.
enum LiveCommand: Command {
  static let name = "live"
  static let overview = "Tilt the card live from an attached motion sensor or joystick."
  static let usage = "live [--device PATH] [--wait] [options]"
  static let help = """
    OPTIONS:
      --device PATH           The evdev node, like /dev/input/event5 (default: the first
                              motion device found; see 'tilt-cli devices').
      --wait                  When the device goes away, wait for it to come back
                              instead of exiting.
    \(PipelineOptions.help)
    """
  static let spec = CommandLineArguments.Spec(
    options: PipelineOptions.valueOptions.union(["device"]),
    flags: PipelineOptions.flagOptions.union(["wait"]),
    aliases: ["o": "output"], maxPositionals: 0)

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    let options = try PipelineOptions(arguments)
    let device = try arguments.string("device") ?? DeviceChoice.firstMotionDevice()
    return try LiveSession(options: options, devicePath: device, wait: arguments.has("wait"))
      .run()
  }
}
