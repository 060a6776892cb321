import CardServer
import CommandLineOptions
import DSU
import Foundation
import PollLoop
import Tilt

/// `tilt-cli dsu`: serves motion to emulators over the DSU ("cemuhook")
/// protocol (contract §7).
enum DsuCommand: Command {
  static let name = "dsu"
  static let overview = "Serve motion to emulators (Dolphin, Cemu, …) over the DSU protocol."
  static let usage =
    "dsu [--listen [HOST:]PORT] [--device PATH]... [--allow CIDR]... [--replay FILE]"
  static let discussion = """
    Every motion device that 'tilt-cli devices' lists as an IMU or an
    accelerometer is a slot (at most 4), calibrated: the stored gyroscope
    bias, then what is learned at rest. A device is opened only while an
    emulator asks for its motion, and closed 5 s after it stops asking.
    In the emulator, add a DSU client at 127.0.0.1, port 26760.
    """
  enum Keys {
    static let listen = Option<String>.value(
      "listen", "[HOST:]PORT",
      help: "Where to listen (default: 127.0.0.1:26760). Any address\n"
        + "but loopback needs --allow.")
    static let device = RepeatableOption(
      "device", "PATH",
      help: "Serve this device (an evdev node, or /dev/iio:deviceN);\n"
        + "repeat for more slots (default: every motion device).")
    static let allow = RepeatableOption(
      "allow", "CIDR",
      help: "Answer clients in this range (192.168.1.0/24, fd00::/8);\n"
        + "repeatable; others are dropped unanswered.")
    static let replay = Option<String>.value(
      "replay", "FILE",
      help: "Serve a recording as slot 0, paced and looping, instead\nof the devices.")
  }
  static let options = ([Keys.listen, Keys.device, Keys.allow, Keys.replay] as [any OptionKey])
    .map(\.declaration)

  struct Request {
    var listen: ServeAddress
    var allowList: AllowList
    /// The devices to serve; none: every motion device.
    var named: [String]
    var replay: String?
  }

  static func request(from arguments: CommandLineArguments) throws -> Request {
    let listen =
      try arguments[Keys.listen].map { text throws(UsageError) in
        try listenAddress(text)
      } ?? ServeAddress(port: 26760)
    // Checked here rather than in the declarations: the values of both are
    // checked together with what they mean for each other.
    let allowList = try allowList(
      host: listen.host, allowed: arguments[Keys.allow], serving: "serving on",
      loopback: "listen on 127.0.0.1")
    let named = arguments[Keys.device]
    let replay = try arguments[Keys.replay]
    if replay != nil && !named.isEmpty {
      throw UsageError("--replay serves a recording; it takes no --device")
    }
    if let replay, !FileManager.default.isReadableFile(atPath: replay) {
      throw Failure("\(replay): cannot read the recording")
    }
    return Request(listen: listen, allowList: allowList, named: named, replay: replay)
  }

  static func run(_ request: Request) throws -> Int32 {
    let (listen, named, replay) = (request.listen, request.named, request.replay)
    var configuration = DeviceMotionConfiguration()
    configuration.gyroBiasStore = GyroBiasStore()
    let server = try DSUServer(
      host: listen.host, port: listen.port, allowList: request.allowList,
      selection: replay.map { .recording(path: $0) } ?? .live(devices: named),
      deviceConfiguration: configuration)
    StandardError.write("serving DSU on udp://\(server.address)\n")
    let status = DSUStatusDisplay(
      server: server, live: StandardError.isTerminal, describe: LibraryErrorText.describe,
      note: { StandardError.write("tilt-cli dsu: \($0)\n") }, write: StandardError.write,
      writeControl: StandardError.writeControl)
    server.onEvent = { status.event($0) }
    let loop = try EventLoop(handling: [.interrupt, .terminate])
    defer { loop.end() }
    loop.participants = [server]
    server.start()
    for path in named where !FileManager.default.fileExists(atPath: path) {
      StandardError.write(
        "tilt-cli dsu: \(path): no such device node yet; it gets a slot when it appears\n")
    }
    if replay == nil && named.isEmpty && server.status.isEmpty {
      status.noDevices(server.hub.unreadable)
    }
    // The status is drawn before each wait, so after every turn; SIGINT or SIGTERM ends the run.
    try loop.run(
      [],
      done: {
        status.draw()
        return false
      })
    server.stop()
    status.end()
    return ExitStatus.success
  }

  /// Who a DSU server on `host` answers: the `--allow` ranges, needed
  /// off loopback. `serving` and `loopback` word the error for the option
  /// that named the host ("serving on", "listen on 127.0.0.1").
  static func allowList(host: String, allowed: [String], serving: String, loopback: String)
    throws(UsageError) -> AllowList
  {
    let ranges = try allowed.map { text throws(UsageError) in
      guard let range = CIDRRange(text) else {
        throw UsageError("'--allow' needs an address range like 192.168.1.0/24, not '\(text)'")
      }
      return range
    }
    guard let allowList = AllowList.forListening(host: host, ranges: ranges) else {
      throw UsageError(
        "\(serving) \(host) answers the network: give --allow CIDR for the clients "
          + "to answer (e.g. --allow 192.168.1.0/24), or \(loopback)")
    }
    return allowList
  }

  /// `--listen [HOST:]PORT` (or `option`'s): an IP literal (or `localhost`) and a port.
  static func listenAddress(_ text: String, option: String = "--listen") throws(UsageError)
    -> ServeAddress
  {
    var address: ServeAddress
    do {
      address = try ServeAddress(parsing: text)
    } catch {
      throw UsageError(error.described(option: option, example: "26760 or 127.0.0.1:26760"))
    }
    if address.host == "localhost" { address.host = "127.0.0.1" }
    guard CIDRRange(address.host) != nil else {
      throw UsageError("\(option) \(text): the host must be an IP address like 127.0.0.1 or ::1")
    }
    return address
  }
}
