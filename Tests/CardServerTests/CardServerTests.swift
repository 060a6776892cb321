import Foundation
import Glibc
import Testing
import TiltCard

@testable import CardServer

/// The server of contract §6 alone, in a poll loop of its own on 127.0.0.1:0,
/// spoken to over raw sockets.
@Suite(.serialized) struct CardServerTests {
  /// A frame line like the jsonl sink's, numbered.
  static func line(_ i: Int, padding: Int = 0) -> String {
    #"{"t":\#(Double(i) / 100),"card":{"face":"front"},"pad":"\#(String(repeating: "x", count: padding))","state":"active"}"#
      + "\n"
  }

  @Test func routesAnswerAsTheSpecSays() throws {
    let loop = try TestLoop(page: "<!doctype html><p>the card</p>")
    defer { loop.stop() }
    nonisolated(unsafe) var controls: [CardServer.Control] = []
    loop.perform { server in
      server.onControl = { controls.append($0) }
      server.status = { CardServer.Status(deviceOpen: true, state: .stopped) }
    }
    let page = try HTTP.request(loop.port, "GET", "/")
    #expect(page.status == 200)
    #expect(page.headers["content-type"] == "text/html; charset=utf-8")
    #expect(page.body == "<!doctype html><p>the card</p>")
    #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)

    let state = try HTTP.request(loop.port, "GET", "/state")
    #expect(state.status == 200)
    #expect(state.headers["content-type"] == "application/json")
    #expect(
      state.body == #"{"viewers": 0, "visible": 0, "device": "open", "state": "stopped"}"# + "\n")

    for body in ["flip", "recenter", "stop", "start", "flip\n"] {
      #expect(try HTTP.request(loop.port, "POST", "/control", body: body).status == 204)
    }
    #expect(loop.perform { _ in controls } == [.flip, .recenter, .stop, .start, .flip])
    for body in ["", "jump", "FLIP", String(repeating: "flip", count: 200)] {
      #expect(try HTTP.request(loop.port, "POST", "/control", body: body).status == 400)
    }
    #expect(try HTTP.request(loop.port, "GET", "/nothing").status == 404)
    #expect(try HTTP.request(loop.port, "POST", "/nothing", body: "flip").status == 404)
    let wrong = try HTTP.request(loop.port, "GET", "/control")
    #expect(wrong.status == 405)
    #expect(wrong.headers["allow"] == "POST")
    #expect(try HTTP.request(loop.port, "DELETE", "/state").status == 405)
    #expect(
      try HTTP.request(loop.port, "POST", "/visibility?viewer=nobody", body: "hidden").status
        == 404)
    #expect(try HTTP.request(loop.port, "POST", "/visibility", body: "hidden").status == 400)
    #expect(loop.perform { _ in controls.count } == 5, "no refused request reached the card")
  }

  @Test func foreignOriginsAndHostsAreRefused() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    nonisolated(unsafe) var controls = 0
    loop.perform { $0.onControl = { _ in controls += 1 } }
    let port = loop.port
    let foreign = try HTTP.request(
      port, "POST", "/control", body: "flip", headers: ["Origin": "http://evil.example"])
    #expect(foreign.status == 403)
    #expect(
      try HTTP.request(port, "POST", "/control", body: "flip", headers: ["Origin": "null"]).status
        == 403)
    #expect(
      try HTTP.request(
        port, "POST", "/control", body: "flip", headers: ["Origin": "http://127.0.0.1:\(port)"]
      ).status == 204)
    // A page on another name that resolves here (DNS rebinding) is refused too.
    let c = try RawConnection(port: port)
    c.send(
      "POST /control HTTP/1.1\r\nHost: evil.example:\(port)\r\nOrigin: http://evil.example:\(port)\r\n"
        + "Content-Length: 4\r\nConnection: close\r\n\r\nflip")
    #expect(HTTP.parse(c.read()).status == 403)
    #expect(loop.perform { _ in controls } == 1)
  }

  @Test func aViewerGetsItsIdThenEveryFrame() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    nonisolated(unsafe) var changes: [Bool] = []
    loop.perform { $0.onVisibilityChange = { changes.append($0) } }
    let viewer = try EventStream(port: loop.port)
    #expect(viewer.head.hasPrefix("HTTP/1.1 200"))
    #expect(viewer.head.lowercased().contains("content-type: text/event-stream"))
    #expect(viewer.id.count == 32)
    #expect(loop.perform { _ in changes } == [true])
    #expect(
      try HTTP.request(loop.port, "GET", "/state").body.hasPrefix(#"{"viewers": 1, "visible": 1"#))

    for i in 0..<5 { loop.perform { $0.broadcast(frameJSON: Array(Self.line(i).utf8)) } }
    for i in 0..<5 {
      #expect(viewer.nextEvent() == "data: " + Self.line(i).dropLast())
    }
    let hidden = try HTTP.request(
      loop.port, "POST", "/visibility?viewer=\(viewer.id)", body: "hidden")
    #expect(hidden.status == 204)
    #expect(loop.perform { _ in changes } == [true, false])
    #expect(
      try HTTP.request(loop.port, "GET", "/state").body.hasPrefix(#"{"viewers": 1, "visible": 0"#))
    #expect(
      try HTTP.request(loop.port, "POST", "/visibility?viewer=\(viewer.id)", body: "maybe").status
        == 400)
    #expect(
      try HTTP.request(loop.port, "POST", "/visibility?viewer=\(viewer.id)", body: "visible")
        .status == 204)
    #expect(loop.perform { _ in changes } == [true, false, true])
  }

  /// With a viewer connected and nothing to send, the server asks for no
  /// wake-up and the loop sleeps.
  @Test func noWakeUpsAtRest() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    let viewer = try EventStream(port: loop.port)
    loop.perform { $0.broadcast(frameJSON: Array(Self.line(1).utf8)) }
    #expect(viewer.nextEvent() != nil)
    #expect(loop.perform { $0.deadline } == nil)
    let before = loop.wakeUpCount
    usleep(1_000_000)
    #expect(loop.wakeUpCount == before)
    #expect(loop.perform { $0.deadline } == nil)
  }

  @Test func aKilledViewerLeavesTheOthersServed() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    nonisolated(unsafe) var changes: [Bool] = []
    loop.perform { $0.onVisibilityChange = { changes.append($0) } }
    let keeper = try EventStream(port: loop.port)
    var victim: EventStream? = try EventStream(port: loop.port)
    #expect(loop.eventually { $0.viewerCount == 2 })
    #expect(
      try HTTP.request(loop.port, "POST", "/visibility?viewer=\(keeper.id)", body: "hidden")
        .status == 204)
    #expect(loop.perform { _ in changes } == [true])
    victim = nil  // the socket closes: the only visible viewer goes away
    _ = victim
    #expect(loop.eventually { $0.viewerCount == 1 }, "noticed at rest, without a frame")
    #expect(loop.perform { _ in changes } == [true, false])
    for i in 0..<3 { loop.perform { $0.broadcast(frameJSON: Array(Self.line(i).utf8)) } }
    for i in 0..<3 { #expect(keeper.nextEvent() == "data: " + Self.line(i).dropLast()) }

    // Killed mid-stream, with bytes in flight.
    let second = try EventStream(port: loop.port)
    #expect(loop.eventually { $0.viewerCount == 2 })
    for i in 0..<50 {
      loop.perform { $0.broadcast(frameJSON: Array(Self.line(i, padding: 4000).utf8)) }
    }
    var linger = linger(l_onoff: 1, l_linger: 0)  // close with a reset
    setsockopt(
      second.connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    shutdown(second.connection.fd, Int32(SHUT_RDWR))
    for i in 50..<60 {
      loop.perform { $0.broadcast(frameJSON: Array(Self.line(i, padding: 4000).utf8)) }
    }
    var seen = 0
    while let event = keeper.nextEvent() {
      seen += 1
      if event == "data: " + Self.line(59, padding: 4000).dropLast() { break }
    }
    #expect(seen == 60)
    #expect(loop.eventually { $0.viewerCount == 1 })
  }

  /// A viewer that never reads fills its socket and its queue: it loses its
  /// own frames; the loop goes on and the other viewer gets every one.
  @Test func aStalledViewerDropsOnlyItsOwnFrames() throws {
    var limits = CardServer.Limits()
    limits.queuedEvents = 8
    let loop = try TestLoop(limits: limits)
    defer { loop.stop() }
    let stalled = try EventStream(port: loop.port, receiveBuffer: 4096)
    let reader = try EventStream(port: loop.port)
    #expect(loop.eventually { $0.viewerCount == 2 })
    let count = 600
    // The reader takes each frame before the next is sent: it never lags,
    // whatever the machine's load; the stalled viewer falls behind at once.
    var received = 0
    for i in 0..<count {
      loop.perform { $0.broadcast(frameJSON: Array(Self.line(i, padding: 16000).utf8)) }
      if reader.nextEvent() == "data: " + Self.line(i, padding: 16000).dropLast() { received += 1 }
    }
    #expect(received == count)
    #expect(loop.perform { $0.droppedEvents } > 0)
    #expect(loop.perform { $0.viewers[stalled.id]?.dropped ?? 0 } > 0)
    #expect(loop.perform { $0.viewers[reader.id]?.dropped ?? -1 } == 0)
  }

  /// More connections than the limit: the oldest unfinished ones make room
  /// for the new (slow clients cannot keep anyone out), the viewers already
  /// there go on, and with every slot a stream the new ones are closed at once.
  @Test func aConnectionFloodIsBounded() throws {
    var limits = CardServer.Limits()
    limits.connections = 8
    let loop = try TestLoop(limits: limits)
    defer { loop.stop() }
    let viewer = try EventStream(port: loop.port)
    var flood: [RawConnection] = []
    for _ in 0..<40 {
      let c = try RawConnection(port: loop.port)
      c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  // never finished
      flood.append(c)
    }
    #expect(loop.eventually { $0.evictedConnections == 40 - 7 && $0.openConnections == 8 })
    loop.perform { $0.broadcast(frameJSON: Array(Self.line(7).utf8)) }
    #expect(viewer.nextEvent() == "data: " + Self.line(7).dropLast())
    // The oldest were closed, not left waiting in the backlog; the newest stay.
    let states = flood.map { c -> Int in
      var byte: UInt8 = 0
      let n = recv(c.fd, &byte, 1, Int32(MSG_DONTWAIT))
      return n == 0 || (n < 0 && errno == ECONNRESET) ? 1 : 0
    }
    #expect(states == Array(repeating: 1, count: 33) + Array(repeating: 0, count: 7))
    // Streams are never cut to make room: with eight, a ninth connection goes.
    let others = try (0..<7).map { _ in try EventStream(port: loop.port) }
    #expect(others.allSatisfy { $0.id.count == 32 })
    let extra = try EventStream(port: loop.port)
    #expect(extra.id.isEmpty)
    #expect(loop.perform { $0.refusedConnections } >= 1)
    #expect(loop.perform { $0.viewerCount } == 8)
    flood = []
    _ = others
  }

  /// At most ``CardServer/Limits/streams`` viewers: the next gets 503 and the
  /// connections left serve the page and its controls.
  @Test func viewersLeaveRoomForThePage() throws {
    var limits = CardServer.Limits()
    limits.streams = 3
    let loop = try TestLoop(limits: limits)
    defer { loop.stop() }
    let viewers = try (0..<3).map { _ in try EventStream(port: loop.port) }
    #expect(viewers.allSatisfy { $0.id.count == 32 })
    let fourth = try HTTP.request(loop.port, "GET", "/frames")
    #expect(fourth.status == 503)
    #expect(try HTTP.request(loop.port, "POST", "/control", body: "flip").status == 204)
    #expect(loop.perform { $0.viewerCount } == 3)
  }

  @Test func addressesParse() throws {
    #expect(try ServeAddress(parsing: "8080") == ServeAddress(host: "127.0.0.1", port: 8080))
    #expect(try ServeAddress(parsing: "0.0.0.0:0") == ServeAddress(host: "0.0.0.0", port: 0))
    #expect(try ServeAddress(parsing: "[::1]:9") == ServeAddress(host: "::1", port: 9))
    #expect(ServeAddress(host: "::1", port: 9).description == "[::1]:9")
    for bad in ["", "x", "1:2:3", "host:", ":80", "70000", "[::1]", "[::1]80", "-1"] {
      #expect(throws: ServeAddress.Problem.self) { try ServeAddress(parsing: bad) }
    }
  }

  @Test func aTakenPortIsAClearError() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    #expect {
      _ = try CardServer(address: ServeAddress(port: loop.port), page: "")
    } throws: { error in
      "\(error)".contains("cannot serve on 127.0.0.1:\(loop.port)")
    }
  }
}

extension Thread {
  /// Runs `body` on a new thread; `wait()` returns its result. `body` is
  /// `sending`: the caller gives up what it captures, so the thread owns it.
  static func detachNewThreadWithResult<T>(_ body: sending @escaping () -> T) -> Waiter<T> {
    let waiter = Waiter<T>()
    let handedOver = HandedOver(body)
    Thread.detachNewThread {
      waiter.value = handedOver.body()
      waiter.semaphore.signal()
    }
    return waiter
  }
}

/// A closure passed as `sending`: no one else holds what it captures.
private struct HandedOver<T>: @unchecked Sendable {
  let body: () -> T
  init(_ body: sending @escaping () -> T) { self.body = body }
}

final class Waiter<T>: @unchecked Sendable {
  var value: T?
  let semaphore = DispatchSemaphore(value: 0)
  func wait() -> T {
    semaphore.wait()
    return value!
  }
}
