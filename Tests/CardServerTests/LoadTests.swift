import Foundation
import Glibc
import Testing

@testable import CardServer

/// The server under a bounded load on loopback (issue 20): every loop is
/// bounded in count and in time and the test stops by itself. 127.0.0.0/8 is
/// all this machine, so clients take different source addresses in it to be
/// different peers; nothing leaves the machine.
@Suite(.serialized) struct LoadTests {
  /// This process's resident set, and its peak so far, in KiB (/proc/self/status).
  static func memory() -> (rss: Int, peak: Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return (0, 0)
    }
    func field(_ name: String) -> Int {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else {
        return 0
      }
      return Int(
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
  }

  /// 1,000 connections opened and dropped, 64 slowloris clients, 100 event
  /// stream viewers (half of them stalled: they never read), POST floods,
  /// all while frames go out at 60 Hz: the first viewer gets every frame
  /// with no gap over a second, the server's memory stays bounded, nothing
  /// crashes. Prints the figures for BENCHMARKS.md.
  @Test(.timeLimit(.minutes(3))) func theFirstViewerIsServedThroughout() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    let port = loop.port
    nonisolated(unsafe) var controls = 0
    loop.perform { $0.onControl = { _ in controls += 1 } }
    let before = Self.memory()
    let testEnd = Date().addingTimeInterval(120)

    // The first viewer, read on a thread of its own.
    let first = try EventStream(port: port)
    #expect(first.id.count == 32)
    let frameLine = { (i: Int) in CardServerTests.line(i, padding: 500) }
    final class Tally: @unchecked Sendable {
      let lock = NSLock()
      var received = 0
      var inOrder = true
      var longestGap = 0.0
      var peakRSS = 0
      var done = false
    }
    let tally = Tally()
    let reader = Thread.detachNewThreadWithResult { () -> Int in
      var last = Date()
      var expected = 0
      while let event = first.nextEvent() {
        if event == "data: end" { break }
        let now = Date()
        tally.lock.lock()
        tally.longestGap = max(tally.longestGap, now.timeIntervalSince(last))
        if event != "data: " + frameLine(expected).dropLast() { tally.inOrder = false }
        tally.received += 1
        tally.lock.unlock()
        expected += 1
        last = now
      }
      return expected
    }
    // Frames at 60 Hz and a memory sample every 50 ms until the load is over.
    nonisolated(unsafe) var sent = 0
    let broadcaster = Thread.detachNewThreadWithResult { () -> Int in
      var i = 0
      while true {
        tally.lock.lock()
        let done = tally.done
        tally.peakRSS = max(tally.peakRSS, Self.memory().rss)
        tally.lock.unlock()
        if done || Date() > testEnd { break }
        let line = Array(frameLine(i).utf8)
        loop.perform { $0.broadcast(frameJSON: line) }
        i += 1
        usleep(16_667)
      }
      return i
    }

    // 64 slowloris clients, each from its own address, held to the end.
    var slow: [RawConnection] = []
    for i in 0..<64 {
      if let c = try? RawConnection(port: port, source: "127.0.2.\(i + 1)") {
        c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ")
        slow.append(c)
      }
    }
    // 1,000 connections opened and dropped: at once, mid-request, with a reset.
    var dropped = 0
    for i in 0..<1000 where Date() < testEnd {
      guard let c = try? RawConnection(port: port, source: "127.0.3.\(i % 200 + 1)") else {
        continue
      }
      switch i % 3 {
      case 0: break
      case 1: c.send("GET /frames HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
      default:
        var reset = linger(l_onoff: 1, l_linger: 0)
        setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
        c.send("POST /control HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 4\r\n\r\nfl")
      }
      dropped += 1
    }
    // 100 viewers, each from its own address; the odd ones never read.
    var viewers: [EventStream] = []
    for i in 0..<100 where Date() < testEnd {
      if let v = try? EventStream(
        port: port, receiveBuffer: i % 2 == 1 ? 4096 : nil, source: "127.0.4.\(i + 1)")
      {
        viewers.append(v)
      }
    }
    let served = viewers.filter { $0.id.count == 32 }
    let reading = served.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let drainer = Thread.detachNewThreadWithResult { () -> Int in
      var events = 0
      while Date() < testEnd {
        tally.lock.lock()
        let done = tally.done
        tally.lock.unlock()
        if done { break }
        var fds = reading.map { pollfd(fd: $0.connection.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
        var buffer = [UInt8](repeating: 0, count: 65536)
        for fd in fds where fd.revents != 0 {
          if recv(fd.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 { events += 1 }
        }
      }
      return events
    }
    // POST floods: four threads of 500 each, short and over-long bodies,
    // with and without keep-alive, from four addresses.
    let flooders = (0..<4).map { t in
      Thread.detachNewThreadWithResult { () -> [Int: Int] in
        var statuses: [Int: Int] = [:]
        for i in 0..<500 where Date() < testEnd {
          let body = i % 10 == 9 ? String(repeating: "flip", count: 5000) : "flip"
          let headers = ["Origin": "http://127.0.0.1:\(port)"]
          let status =
            (try? HTTP.request(port, "POST", "/control", body: body, headers: headers))?
            .status ?? -1
          statuses[status, default: 0] += 1
        }
        return statuses
      }
    }
    let floods = flooders.map { $0.wait() }
    tally.lock.lock()
    tally.done = true
    tally.lock.unlock()
    let frames = broadcaster.wait()
    _ = drainer.wait()
    loop.perform { $0.broadcast(frameJSON: Array("end".utf8)) }
    let read = reader.wait()
    let after = Self.memory()
    let statuses = floods.reduce(into: [Int: Int]()) { all, one in
      all.merge(one, uniquingKeysWith: +)
    }
    let (drops, evicted, refused, timedOut) = loop.perform {
      (
        $0.viewers[first.id]?.dropped ?? -1, $0.evictedConnections, $0.refusedConnections,
        $0.timedOutConnections
      )
    }
    print(
      "load: \(frames) frames at 60 Hz; first viewer got \(read), longest gap "
        + "\(String(format: "%.3f", tally.longestGap)) s, dropped \(drops); \(dropped) dropped "
        + "connections, \(slow.count) slowloris, \(served.count) of \(viewers.count) viewers "
        + "served (\(reading.count) reading), POSTs \(statuses.sorted { $0.key < $1.key }); "
        + "evicted \(evicted), refused \(refused), timed out \(timedOut); RSS \(before.rss) KiB "
        + "before, peak \(tally.peakRSS) KiB sampled, \(after.rss) KiB after, VmHWM \(after.peak) KiB"
    )
    #expect(read == frames, "the first viewer got every frame")
    #expect(tally.inOrder)
    #expect(drops == 0)
    #expect(tally.longestGap < 1.0)
    #expect(dropped == 1000)
    #expect(served.count >= 32, "viewers from other addresses got in too")
    #expect(statuses[204, default: 0] + statuses[400, default: 0] == 2000, "\(statuses)")
    #expect(loop.perform { _ in controls } == statuses[204, default: 0])
    // 64 connections at most, each: libmicrohttpd's 32 KiB pool and a queue
    // of 256 events of about 600 bytes: under 16 MiB together; the clients
    // here add their own buffers. 48 MiB leaves room and still catches a leak.
    #expect(tally.peakRSS - before.rss < 48 * 1024, "grew by \(tally.peakRSS - before.rss) KiB")
    #expect(loop.perform { $0.openConnections } <= 64)
    _ = slow
  }
}
