import CommandLineOptions
import Foundation
import Motion
import MotionService

/// `tilt-cli service`: serves motion to any program on the session bus as
/// `org.tilt.Motion1` (contract §8).
enum ServiceCommand: Command {
  static let name = "service"
  static let overview = "Serve motion to any program on the session bus (D-Bus)."
  static let usage =
    "service [--device PATH]... [--replay FILE] [--dsu [HOST:]PORT [--allow CIDR]...]"
  static let discussion = """
    Owns org.tilt.Motion1 on the session bus. Every motion device that
    'tilt-cli devices' lists as an IMU or an accelerometer is an object
    /org/tilt/Motion1/devices/N; a program claims one with Claim(interval)
    and gets Motion signals (attitude, gravity, rotation rate, user
    acceleration) every interval. A device is opened only while claimed.
    Try: busctl --user tree org.tilt.Motion1
    """
  static let options: [OptionDeclaration] = [
    .value(
      "device", "PATH",
      help: "Serve this device (an evdev node, or /dev/iio:deviceN);\n"
        + "repeat for more (default: every motion device).",
      repeatable: true),
    .value(
      "replay", "FILE",
      help: "Serve a recording as the one device, paced and looping,\ninstead of the devices."),
    .value(
      "dsu", "[HOST:]PORT",
      help: "Also serve the same devices to emulators over DSU\n(as 'tilt-cli dsu --listen')."),
    .value(
      "allow", "CIDR",
      help: "With --dsu: answer DSU clients in this range; repeatable.", repeatable: true),
  ]

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    let named = arguments.strings("device")
    let replay = arguments.string("replay")
    if replay != nil && !named.isEmpty {
      throw UsageError("--replay serves a recording; it takes no --device")
    }
    if arguments.string("dsu") == nil && !arguments.strings("allow").isEmpty {
      throw UsageError("--allow is for --dsu's clients; give --dsu [HOST:]PORT too")
    }
    if let replay, !FileManager.default.isReadableFile(atPath: replay) {
      throw Failure("\(replay): cannot read the recording")
    }
    // TODO(lead): --dsu and --allow serve §7 from this hub (one DSU server on
    // `hub`, a participant of the same loop); until then they are refused.
    if arguments.string("dsu") != nil {
      throw Failure("--dsu is not served by 'tilt-cli service' yet; run 'tilt-cli dsu' beside it")
    }
    var configuration = DeviceMotionConfiguration()
    configuration.gyroBiasStore = GyroBiasStore()
    let hub = DeviceHub(
      replay.map { .recording(path: $0) } ?? .live(devices: named),
      configuration: MotionBusService.configuration(configuration))
    let service: MotionBusService
    do {
      service = try MotionBusService(hub: hub, version: Version.string)
    } catch {
      throw Failure(error.description)
    }
    let status = ServiceStatusDisplay(
      service: service, live: StandardError.isTerminal, describe: LibraryErrorText.describe,
      note: { StandardError.write("tilt-cli service: \($0)\n") }, write: StandardError.write,
      writeControl: StandardError.writeControl)
    service.onEvent = { status.event($0) }
    // SIGINT and SIGTERM are handled before the start line says the service is there.
    let loop = try EventLoop(handling: [.interrupt, .terminate])
    defer { loop.end() }
    StandardError.write("serving motion on the session bus as \(MotionInterface.busName)\n")
    service.start()
    defer {
      service.stop()
      hub.finish()
      status.end()
    }
    // The status is drawn before each wait; SIGINT or SIGTERM ends the run.
    do {
      try loop.run(
        [service, hub],
        done: {
          status.draw()
          return false
        })
    } catch let error as MotionServiceError {
      throw Failure(error.description)
    }
    return ExitStatus.success
  }
}
