import Foundation
import Testing

/// Who `tilt-cli dsu` answers (contract §7): loopback by default; elsewhere only
/// with `--allow CIDR`, and datagrams from outside the range get nothing.
@Suite struct EndToEndNetworkTests {
  static let recording = "recordings/roll-pitch.csv"

  @Test func offLoopbackWithoutAllowIsAUsageError() throws {
    let port = try DSUServerProcess.freePort()
    let r = try DSUServerProcess.runToExit([
      "dsu", "--replay", Self.recording, "--listen", "0.0.0.0:\(port)",
    ])
    #expect(!r.timedOut, "it served instead of refusing")
    #expect(r.status == 64, "exit \(r.status); stderr: \(r.stderr)")
    #expect(r.stderr.contains("--allow"), "stderr: \(r.stderr)")
  }

  @Test func aDatagramFromOutsideTheAllowedRangeGetsNothing() throws {
    let server = try DSUServerProcess(
      ["--replay", Self.recording, "--allow", "127.0.0.2/32"], host: "0.0.0.0")
    let outside = try server.client(localHost: "127.0.0.1")
    try outside.send(outside.requests.version())
    try outside.send(outside.requests.portInfo(slots: [0]))
    try outside.send(outside.requests.padData(.all))
    #expect(try outside.receiveAll(for: 1).isEmpty, "127.0.0.1 is outside 127.0.0.2/32")
    let inside = try server.client(localHost: "127.0.0.2")
    #expect(try inside.version() == 1001, "127.0.0.2 is inside")
    #expect(try inside.padData(.all, for: 0.5).count > 20)
    #expect(server.stop() == 0)
  }

  /// contract §7's clear errors: a port in use is named, with what to do.
  @Test func aPortInUseIsNamedWithWhatToDo() throws {
    let holder = try DSUTestClient(port: 9, localHost: "127.0.0.1")
    let port = try holder.localPort()
    let r = try DSUServerProcess.runToExit([
      "dsu", "--replay", Self.recording, "--listen", "127.0.0.1:\(port)",
    ])
    #expect(!r.timedOut, "it served on a port in use")
    #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
    #expect(r.stderr.contains("\(port)") && r.stderr.contains("--listen"), "stderr: \(r.stderr)")
  }

  @Test func portZeroServesOnThePortItsLineNames() throws {
    let server = try DSUServerProcess(["--replay", Self.recording], port: 0)
    #expect(server.port != 0, "stderr: \(server.stderr)")
    #expect(try server.client().version() == 1001)
    #expect(server.stop() == 0)
  }

  /// contract §7: at most 16 clients at once; the 17th subscriber gets nothing
  /// while the 16 are live.
  @Test func atMostSixteenClientsAreServed() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let clients = try (0..<17).map { _ in try server.client() }
    for c in clients { try c.send(c.requests.padData(.all)) }
    usleep(1_000_000)
    var served = 0
    var starved = 0
    for c in clients {
      var count = 0
      while try c.receiveRaw(timeout: 0) != nil { count += 1 }
      if count > 20 { served += 1 } else if count == 0 { starved += 1 }
    }
    #expect(served == 16 && starved == 1, "\(served) clients served, \(starved) got nothing")
    #expect(server.stop() == 0)
  }

  @Test func portInfoIsAnsweredAtMostTwentyTimesASecondPerAddress() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let client = try server.client()
    for _ in 0..<60 { try client.send(client.requests.version()) }
    let answers = try client.receiveAll(for: 1)
    #expect(answers.count >= 1 && answers.count <= 20, "\(answers.count) answers to 60 requests")
    #expect(server.stop() == 0)
  }
}
