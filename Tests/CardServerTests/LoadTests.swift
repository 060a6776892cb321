import Foundation
import Glibc
import Testing

@testable import CardServer

/// The server under a bounded load on loopback (issue 20): every loop is
/// bounded in count and in time and the test stops by itself. 127.0.0.0/8 is
/// all this machine, so clients take different source addresses in it to be
/// different peers; nothing leaves the machine.
@Suite(.serialized) struct LoadTests {
  /// A process's resident set and its peak so far, in KiB (/proc/PID/status).
  static func memory(of pid: String = "self") -> (rss: Int, peak: Int) {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return (0, 0)
    }
    func field(_ name: String) -> Int {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
      else { return 0 }
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
  }

  /// What one load did and what it got.
  struct Figures: CustomStringConvertible {
    var dropped = 0
    var slow = 0
    var viewers = 0
    var served = 0
    var reading = 0
    var statuses: [Int: Int] = [:]
    var probes = 0
    var probesOK = 0
    var slowestProbe = 0.0
    var medianProbe = 0.0
    var seconds = 0.0

    var description: String {
      "\(dropped) connections opened and dropped, \(slow) slowloris, \(served) of \(viewers) "
        + "viewers served (\(reading) reading, the rest stalled), POSTs "
        + "\(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }), "
        + "GET /state \(probesOK)/\(probes) answered (median "
        + "\(String(format: "%.3f", medianProbe)) s, slowest \(String(format: "%.3f", slowestProbe)) s), in \(String(format: "%.1f", seconds)) s"
    }
  }

  /// 1,000 connections opened and dropped (at once, mid-request, reset),
  /// 64 slowloris clients held to the end, 100 `/frames` viewers (the odd
  /// ones never read), four threads of 500 POSTs (one in ten over-long), and
  /// a `GET /state` every 100 ms throughout: against the server at `port`.
  /// `headers` go with every request (a token cookie). Stops by `end`.
  static func load(port: UInt16, headers: [String: String] = [:], end: Date) -> Figures {
    var f = Figures()
    let start = Date()
    final class Flag: @unchecked Sendable {
      let lock = NSLock()
      var done = false
      var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
      }
    }
    let flag = Flag()
    let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
    let prober = Thread.detachNewThreadWithResult { () -> (Int, Int, [Double]) in
      var (n, ok, times) = (0, 0, [Double]())
      while !flag.isDone && Date() < end {
        let t0 = Date()
        if (try? HTTP.request(port, "GET", "/state", headers: headers))?.status == 200 { ok += 1 }
        times.append(Date().timeIntervalSince(t0))
        n += 1
        usleep(100_000)
      }
      return (n, ok, times.sorted())
    }
    var slow: [RawConnection] = []
    for i in 0..<64 {
      if let c = try? RawConnection(port: port, source: "127.0.2.\(i + 1)") {
        c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)X-Slow: ")
        slow.append(c)
      }
    }
    f.slow = slow.count
    for i in 0..<1000 where Date() < end {
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
      f.dropped += 1
    }
    var viewers: [EventStream] = []
    for i in 0..<100 where Date() < end {
      if let v = try? EventStream(
        port: port, receiveBuffer: i % 2 == 1 ? 4096 : nil, headers: headers,
        source: "127.0.4.\(i + 1)")
      {
        viewers.append(v)
      }
    }
    f.viewers = viewers.count
    let served = viewers.enumerated().filter { $0.element.id.count == 32 }
    f.served = served.count
    let reading = served.filter { $0.offset % 2 == 0 }.map(\.element)
    f.reading = reading.count
    let drainer = Thread.detachNewThreadWithResult { () -> Int in
      var reads = 0
      var buffer = [UInt8](repeating: 0, count: 65536)
      while !flag.isDone && Date() < end {
        var fds = reading.map { pollfd(fd: $0.connection.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
        for fd in fds where fd.revents != 0 {
          if recv(fd.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
        }
      }
      return reads
    }
    let flooders = (0..<4).map { t in
      Thread.detachNewThreadWithResult { () -> [Int: Int] in
        var statuses: [Int: Int] = [:]
        var own = headers
        own["Origin"] = "http://127.0.0.1:\(port)"
        for i in 0..<500 where Date() < end {
          let body =
            i % 10 == 9
            ? String(repeating: "flip", count: 5000) : (t % 2 == 0 ? "flip" : "recenter")
          let status =
            (try? HTTP.request(port, "POST", "/control", body: body, headers: own))?.status ?? -1
          statuses[status, default: 0] += 1
        }
        return statuses
      }
    }
    for flooder in flooders {
      f.statuses.merge(flooder.wait(), uniquingKeysWith: +)
    }
    // The stalled viewers and the slow clients stay a moment longer.
    usleep(500_000)
    flag.lock.lock()
    flag.done = true
    flag.lock.unlock()
    _ = drainer.wait()
    let times: [Double]
    (f.probes, f.probesOK, times) = prober.wait()
    f.slowestProbe = times.last ?? 0
    f.medianProbe = times.isEmpty ? 0 : times[times.count / 2]
    f.seconds = Date().timeIntervalSince(start)
    _ = slow
    return f
  }

  /// The server in this process, frames at 60 Hz: the first viewer gets
  /// every frame, with no gap over a second, and drops none; the process's
  /// memory stays bounded; nothing crashes.
  @Test(.timeLimit(.minutes(3))) func theFirstViewerIsServedThroughout() throws {
    let loop = try TestLoop()
    defer { loop.stop() }
    let port = loop.port
    nonisolated(unsafe) var controls = 0
    loop.perform { $0.onControl = { _ in controls += 1 } }
    let before = Self.memory()
    let end = Date().addingTimeInterval(120)
    let first = try EventStream(port: port)
    #expect(first.id.count == 32)
    let firstID = first.id  // the reader thread owns `first` from here on
    let frameLine: @Sendable (Int) -> String = { i in CardServerTests.line(i, padding: 500) }
    final class Tally: @unchecked Sendable {
      let lock = NSLock()
      var inOrder = true
      var longestGap = 0.0
      var peakRSS = 0
      var done = false
    }
    let tally = Tally()
    let reader = Thread.detachNewThreadWithResult { () -> Int in
      var last = Date()
      var expected = 0
      while let event = first.nextEvent(), event != "data: end" {
        let now = Date()
        tally.lock.lock()
        tally.longestGap = max(tally.longestGap, now.timeIntervalSince(last))
        if event != "data: " + frameLine(expected).dropLast() { tally.inOrder = false }
        tally.lock.unlock()
        expected += 1
        last = now
      }
      return expected
    }
    let broadcaster = Thread.detachNewThreadWithResult { () -> Int in
      var i = 0
      while true {
        tally.lock.lock()
        let done = tally.done
        tally.peakRSS = max(tally.peakRSS, Self.memory().rss)
        tally.lock.unlock()
        if done || Date() > end { break }
        let line = Array(frameLine(i).utf8)
        loop.perform { $0.broadcast(frameJSON: line) }
        i += 1
        usleep(16_667)
      }
      return i
    }
    let figures = Self.load(port: port, end: end)
    tally.lock.lock()
    tally.done = true
    tally.lock.unlock()
    let frames = broadcaster.wait()
    loop.perform { $0.broadcast(frameJSON: Array("end".utf8)) }
    let read = reader.wait()
    let after = Self.memory()
    let (drops, evicted, refused, timedOut) = loop.perform {
      (
        $0.viewers[firstID]?.dropped ?? -1, $0.evictedConnections, $0.refusedConnections,
        $0.timedOutConnections
      )
    }
    print(
      "load (in-process server): \(figures); \(frames) frames at 60 Hz, the first viewer got "
        + "\(read) in order \(tally.inOrder), longest gap \(String(format: "%.3f", tally.longestGap)) s, "
        + "dropped \(drops); cut to make room \(evicted), refused \(refused), timed out "
        + "\(timedOut); this process's RSS \(before.rss) KiB before, \(tally.peakRSS) KiB peak "
        + "(sampled every 17 ms), \(after.rss) KiB after, VmHWM \(after.peak) KiB")
    #expect(read == frames, "the first viewer got every frame")
    #expect(tally.inOrder)
    #expect(drops == 0)
    #expect(tally.longestGap < 1.0)
    #expect(figures.dropped == 1000 && figures.slow == 64 && figures.viewers == 100)
    #expect(figures.served == 47, "the stream limit (48) less the first viewer")
    #expect(figures.statuses[204, default: 0] + figures.statuses[400, default: 0] == 2000)
    #expect(loop.perform { _ in controls } == figures.statuses[204, default: 0])
    #expect(figures.probesOK == figures.probes && figures.probes > 0)
    // At most 64 connections, each with libmicrohttpd's 32 KiB pool and a
    // queue of 256 events of about 600 bytes: under 16 MiB together. 48 MiB
    // leaves room for the clients in this process and still catches a leak.
    #expect(tally.peakRSS - before.rss < 48 * 1024, "grew by \(tally.peakRSS - before.rss) KiB")
    #expect(loop.eventually { $0.openConnections <= 64 })
  }

  /// The built `tilt-cli` (`TILT_CLI`, else `.build/debug/tilt-cli`).
  static let cli: String? = {
    if let path = ProcessInfo.processInfo.environment["TILT_CLI"] { return path }
    let path = LivePageBrowserTests.packageRoot.appendingPathComponent(".build/debug/tilt-cli").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  /// `tilt-cli replay recordings/demo.evemu --speed 0.25 --serve 0.0.0.0:0` in a
  /// process of its own under the same load, token and all: the first
  /// viewer stays served, `/state` answers throughout, the process's peak
  /// RSS (VmHWM) stays bounded and it is still running at the end.
  @Test(
    .enabled(if: cli != nil, "needs the built tilt-cli (swift build), or TILT_CLI"),
    .timeLimit(.minutes(3)))
  func theCLIServesThroughTheLoad() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.cli!)
    // At a quarter of its speed the demo lasts 52 s, longer than the load.
    p.arguments = ["replay", "recordings/demo.evemu", "--speed", "0.25", "--serve", "0.0.0.0:0"]
    p.currentDirectoryURL = LivePageBrowserTests.packageRoot
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    var text = ""
    while !text.contains("token="), let chunk = try err.fileHandleForReading.read(upToCount: 1),
      !chunk.isEmpty
    {
      text += String(decoding: chunk, as: UTF8.self)
    }
    while !text.hasSuffix("\n"), let chunk = try err.fileHandleForReading.read(upToCount: 1),
      !chunk.isEmpty
    {
      text += String(decoding: chunk, as: UTF8.self)
    }
    // The next line says that the card is on the network.
    var warning = ""
    while !warning.hasSuffix("\n"), let chunk = try err.fileHandleForReading.read(upToCount: 1),
      !chunk.isEmpty
    {
      warning += String(decoding: chunk, as: UTF8.self)
    }
    #expect(warning.contains("warning: the card is served to the network"), "\(warning)")
    let prefix = "serving http://0.0.0.0:"
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(text)")
    let parts = line.dropFirst(prefix.count).split(separator: "/?token=")
    let port = try #require(parts.first.flatMap { UInt16($0) }, "\(line)")
    let token = try #require(parts.dropFirst().first, "\(line)")
    #expect(token.count == 32)
    let cookie = ["Cookie": "tilt-token-\(port)=\(token)"]
    let pid = String(p.processIdentifier)
    let before = Self.memory(of: pid)
    let first = try EventStream(port: port, headers: cookie)
    #expect(first.id.count == 32)
    let firstFD = first.connection.fd  // the reader thread owns `first` from here on
    final class Count: @unchecked Sendable { var frames = 0 }
    let count = Count()
    let reader = Thread.detachNewThreadWithResult { () -> Bool in
      while let event = first.nextEvent() {
        if event.hasPrefix("data: {") { count.frames += 1 }
        if count.frames >= 1_000_000 { break }
      }
      return true
    }
    let figures = Self.load(port: port, headers: cookie, end: Date().addingTimeInterval(120))
    let during = count.frames
    // The load's own viewers go as their sockets close.
    var state = try HTTP.request(port, "GET", "/state", headers: cookie)
    for _ in 0..<50 where !state.body.contains(#""viewers": 1,"#) {
      usleep(100_000)
      state = try HTTP.request(port, "GET", "/state", headers: cookie)
    }
    let after = Self.memory(of: pid)
    let alive = p.isRunning
    kill(p.processIdentifier, SIGKILL)  // the replay would go on for its 52 s
    p.waitUntilExit()
    shutdown(firstFD, Int32(SHUT_RDWR))
    _ = reader.wait()
    print(
      "load (tilt-cli replay --speed 0.25 --serve 0.0.0.0:0, pid \(pid)): \(figures); the first viewer "
        + "got \(during) frames; /state after: \(state.body.trimmingCharacters(in: .newlines)); "
        + "tilt-cli RSS \(before.rss) KiB before, \(after.rss) KiB after, peak (VmHWM) "
        + "\(after.peak) KiB")
    #expect(during > 0, "the first viewer was served")
    #expect(
      state.body.contains(#""viewers": 1,"#), "the first viewer is still there: \(state.body)")
    #expect(figures.probesOK == figures.probes && figures.probes > 0)
    #expect(figures.dropped == 1000 && figures.served == 47)
    #expect(figures.statuses[204, default: 0] + figures.statuses[400, default: 0] == 2000)
    #expect(after.peak - before.rss < 48 * 1024, "peak \(after.peak) KiB from \(before.rss) KiB")
    #expect(alive, "tilt-cli is still serving after the load")
  }
}
