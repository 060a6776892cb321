import Foundation
import Motion
import SystemCalls
import TestTools

@testable import DSU

/// A DSU server on 127.0.0.1 (a free port) serving the bundled demo
/// recording as slot 0, turned by hand, and a UDP socket to talk to it.
final class ServerHarness {
  let server: DSUServer
  let loop: EventLoop
  let client: UDPSocket
  let serverAddress: SocketAddress
  private(set) var events: [DSUServer.Event] = []

  static let demo = TestTools.packageRoot.appendingPathComponent("recordings/demo.evemu").path

  init(
    allowList: AllowList = AllowList(ranges: [], allowsEveryone: true),
    supply: HubSupply? = nil, limits: DSUService.Limits = .init()
  ) throws {
    if let supply {
      server = try DSUServer(
        host: "127.0.0.1", port: 0, allowList: allowList,
        hub: DeviceHub(supply: supply, configuration: DeviceMotionConfiguration().unsmoothed),
        ownsHub: true, limits: limits)
    } else {
      server = try DSUServer(
        host: "127.0.0.1", port: 0, allowList: allowList, selection: .recording(path: Self.demo))
    }
    loop = try EventLoop()
    loop.participants = [server]
    client = try UDPSocket(binding: SocketAddress(numericHost: "127.0.0.1", port: 0)!)
    serverAddress = SocketAddress(numericHost: "127.0.0.1", port: server.port)!
    server.onEvent = { [unowned self] in events.append($0) }
    server.start()
  }

  func send(_ bytes: [UInt8]) throws {
    try client.send(bytes, to: serverAddress)
  }

  /// Turns the server's loop for `seconds`, collecting what the client got.
  func collect(for seconds: Double, until enough: ([[UInt8]]) -> Bool = { _ in false }) throws
    -> [[UInt8]]
  {
    var received: [[UInt8]] = []
    let end = MonotonicInstant.now + .milliseconds(Int64(seconds * 1000))
    while MonotonicInstant.now < end {
      try loop.turn(until: min(end, MonotonicInstant.now + .milliseconds(5)))
      while let (bytes, _) = try client.receive() { received.append(bytes) }
      if enough(received) { break }
    }
    return received
  }

  /// What the client gets for one request, within `seconds`.
  func answers(to bytes: [UInt8], within seconds: Double = 0.2, expecting count: Int = .max)
    throws -> [[UInt8]]
  {
    try send(bytes)
    return try collect(for: seconds) { $0.count >= count }
  }

  /// The state byte of each slot's port-info answer.
  func slotStates() throws -> [UInt8] {
    let answers = try answers(to: RequestBytes.portInfo([0, 1, 2, 3]), expecting: 4)
    return answers.sorted { $0[20] < $1[20] }.map { $0[21] }
  }

  deinit { loop.end() }
}
