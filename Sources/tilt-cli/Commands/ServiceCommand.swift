import CardServer
import CommandLineOptions
import DSU
import Foundation
import Motion
import MotionService
import PollLoop

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
  enum Keys {
    static let device = RepeatableOption(
      "device", "PATH",
      help: "Serve this device (an evdev node, or /dev/iio:deviceN);\n"
        + "repeat for more (default: every motion device).")
    static let replay = Option<String>.value(
      "replay", "FILE",
      help: "Serve a recording as the one device, paced and looping,\ninstead of the devices.")
    static let dsu = Option<String>.value(
      "dsu", "[HOST:]PORT",
      help: "Also serve the same devices to emulators over DSU\n(as 'tilt-cli dsu --listen').")
    static let allow = RepeatableOption(
      "allow", "CIDR", help: "With --dsu: answer DSU clients in this range; repeatable.")
  }
  static let options = ([Keys.device, Keys.replay, Keys.dsu, Keys.allow] as [any OptionKey])
    .map(\.declaration)

  struct Request {
    /// The devices to serve; none: every motion device.
    var named: [String]
    var replay: String?
    /// `--dsu` and its `--allow`s.
    var dsu: (address: ServeAddress, allowList: AllowList)?
  }

  static func request(from arguments: CommandLineArguments) throws -> Request {
    let named = arguments[Keys.device]
    let replay = try arguments[Keys.replay]
    if replay != nil && !named.isEmpty {
      throw UsageError("--replay serves a recording; it takes no --device")
    }
    if let replay, !FileManager.default.isReadableFile(atPath: replay) {
      throw Failure("\(replay): cannot read the recording")
    }
    return Request(named: named, replay: replay, dsu: try dsu(arguments))
  }

  static func run(_ request: Request) throws -> Int32 {
    let (named, replay, dsuListening) = (request.named, request.replay, request.dsu)
    var configuration = DeviceMotionConfiguration()
    configuration.gyroBiasStore = GyroBiasStore()
    let hub = DeviceHub(
      replay.map { .recording(path: $0) } ?? .live(devices: named),
      configuration: configuration.unsmoothed)
    let service: MotionBusService
    do {
      service = try MotionBusService(hub: hub, version: Version.string)
    } catch {
      throw Failure(error.description)
    }
    // §7 from the same hub: one open device, one calibration for both kinds of client.
    let dsuServer = try dsuListening.map {
      try DSUServer(host: $0.address.host, port: $0.address.port, allowList: $0.allowList, hub: hub)
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
    if let dsuServer {
      StandardError.write("serving DSU on udp://\(dsuServer.address)\n")
      // The service's lines are drawn in place; DSU's changes go above them.
      let dsuStatus = DSUStatusDisplay(
        server: dsuServer, live: false, describe: LibraryErrorText.describe,
        note: { StandardError.write("tilt-cli service: DSU \($0)\n") },
        write: StandardError.write, writeControl: StandardError.writeControl)
      dsuServer.onEvent = { dsuStatus.event($0) }
      dsuServer.start()
    }
    service.start()
    for path in named where !FileManager.default.fileExists(atPath: path) {
      StandardError.write(
        "tilt-cli service: \(path): no such device node yet; it is served when it appears\n")
    }
    if replay == nil && named.isEmpty && hub.devices.isEmpty {
      status.noDevices(hub.unreadable)
    }
    defer {
      dsuServer?.stop()
      service.stop()
      hub.finish()
      status.end()
    }
    // The status is drawn before each wait; SIGINT or SIGTERM ends the run.
    do {
      try loop.run(
        [service, hub] + (dsuServer.map { [$0] } ?? []),
        done: {
          status.draw()
          return false
        })
    } catch let error as MotionServiceError {
      throw Failure(error.description)
    }
    return ExitStatus.success
  }

  /// `--dsu [HOST:]PORT` and its `--allow CIDR`s, checked as `tilt-cli dsu`
  /// checks `--listen` and `--allow`; nil without `--dsu`.
  static func dsu(_ arguments: CommandLineArguments) throws
    -> (address: ServeAddress, allowList: AllowList)?
  {
    let allowed = arguments[Keys.allow]
    guard let text = try arguments[Keys.dsu] else {
      if !allowed.isEmpty {
        throw UsageError("--allow is for --dsu's clients; give --dsu [HOST:]PORT too")
      }
      return nil
    }
    let address = try DsuCommand.listenAddress(text, option: "--dsu")
    let allowList = try DsuCommand.allowList(
      host: address.host, allowed: allowed, serving: "--dsu on",
      loopback: "serve DSU on 127.0.0.1")
    return (address, allowList)
  }
}
