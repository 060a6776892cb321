import Foundation
import TestTools
import Testing

/// Well-formed requests with bytes changed at random (a fixed seed): the
/// server answers nothing malformed, never more than the request asks for,
/// and is still serving after all of them.
@Suite struct EndToEndMutationTests {
  @Test func mutatedRequestsGetNoMalformedAnswerAndTheServerSurvives() throws {
    let server = try DSUServerProcess(["--replay", "recordings/roll-pitch.csv"])
    let client = try server.client()
    var random = SeededGenerator(seed: 35)
    let bases = [
      client.requests.version(), client.requests.portInfo(slots: [0, 1, 2, 3]),
      client.requests.portInfo(slots: [3]), client.requests.padData(.slot(0)),
    ]
    var sent = 0
    var answers: [[UInt8]] = []
    let start = Date()
    for round in 0..<400 {
      var p = bases[round % bases.count]
      // One to three bytes changed; half the time the CRC is made right
      // again, so that the parser's later checks are reached.
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        p[Int.random(in: 0..<p.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      if Bool.random(using: &random) { p = WireRequests.sealed(p) }
      if Int.random(in: 0..<8, using: &random) == 0 {
        p = Array(p.prefix(Int.random(in: 0..<p.count, using: &random)))
      }
      try client.send(p)
      sent += 1
      if round % 20 == 19 { answers += try client.receiveAll(for: 0.05) }
    }
    let sending = Date().timeIntervalSince(start)
    answers += try client.receiveAll(for: 1.5)
    // Changes that miss every checked field (the sender id, a pad-data
    // request's MAC) leave valid requests: some answers must come.
    #expect(!answers.isEmpty, "no answer to \(sent) requests, some of them still valid")
    for a in answers {
      #expect(throws: Never.self, "a malformed answer: \(a)") { _ = try WireAnswer.parse(a) }
    }
    // A pad-data request may have survived a mutation of its sender id: the
    // stream it started is fine. Version and port-info requests are answered
    // at most 20 a second (4 datagrams each at most).
    let others = answers.filter { !Self.isPadData($0) }
    let bound = Int((sending + 1).rounded(.up)) * 20 * 4
    #expect(
      others.count <= bound, "\(others.count) answers to \(sent) mutated requests in \(sending) s")
    #expect(server.process.isRunning)
    #expect(try client.version() == 1001, "the server stopped answering")
    #expect(server.stop() == 0)
  }

  static func isPadData(_ datagram: [UInt8]) -> Bool {
    if case .padData = try? WireAnswer.parse(datagram) { return true }
    return false
  }
}
