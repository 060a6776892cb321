import Foundation
import Glibc
import Testing

@testable import CardServer

@Suite(.serialized) struct SequenceTests {
  /// The VM scenario's order: a viewer, a flip whose frames are broadcast from
  /// inside the request, a viewer killed, a stalled one; the first still gets every frame.
  @Test func theFirstViewerGoesOnThroughFlipKillAndStall() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    nonisolated(unsafe) var n = 0
    loop.perform { server in
      server.onControl = { _ in
        n += 1
        server.broadcast(frameJSON: Array(CardServerTests.line(1000 + n).utf8))
      }
    }
    let first = try EventStream(port: loop.port)
    for i in 0..<5 { loop.perform { $0.broadcast(frameJSON: Array(CardServerTests.line(i).utf8)) } }
    for _ in 0..<5 { #expect(first.nextEvent() != nil) }
    #expect(try HTTP.request(loop.port, "POST", "/control", body: "flip").status == 204)
    #expect(first.nextEvent() == "data: " + CardServerTests.line(1001).dropLast())
    var killed: EventStream? = try EventStream(port: loop.port)
    let stalled = try EventStream(port: loop.port, receiveBuffer: 4096)
    _ = stalled
    #expect(loop.eventually { $0.viewerCount == 3 })
    killed = nil
    _ = killed
    #expect(loop.eventually { $0.viewerCount == 2 })
    for i in 0..<89 {
      loop.perform { $0.broadcast(frameJSON: Array(CardServerTests.line(i, padding: 600).utf8)) }
      usleep(10_000)
    }
    var got = 0
    while got < 89, let event = first.nextEvent() {
      if event.hasPrefix("data: ") { got += 1 }
    }
    #expect(got == 89)
  }
}

extension SequenceTests {
  /// With a stalled viewer that has filled its socket, each frame still
  /// reaches a reading viewer at once, not at some later wake-up.
  @Test func framesReachAReaderPromptlyBesideAStalledViewer() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    let reader = try EventStream(port: loop.port)
    let stalled = try EventStream(port: loop.port, receiveBuffer: 4096)
    _ = stalled
    #expect(loop.eventually { $0.viewerCount == 2 })
    // Fill the stalled viewer's socket and queue.
    for i in 0..<300 {
      loop.perform { $0.broadcast(frameJSON: Array(CardServerTests.line(i, padding: 3000).utf8)) }
      #expect(reader.nextEvent() != nil)
    }
    var late = 0
    for i in 0..<50 {
      loop.perform { $0.broadcast(frameJSON: Array(CardServerTests.line(500 + i).utf8)) }
      var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
      setsockopt(
        reader.connection.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout,
        socklen_t(MemoryLayout<timeval>.size))
      if reader.nextEvent() != "data: " + CardServerTests.line(500 + i).dropLast() { late += 1 }
    }
    #expect(late == 0, "\(late) of 50 frames did not arrive within 0.2 s")
  }
}
