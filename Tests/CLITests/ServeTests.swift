import Foundation
import Glibc
import TestTools
import Testing

/// `replay --serve` end to end: the built binary, a viewer on `/frames`.
@Suite struct ServeTests {
  /// Reads stderr until the `serving http://127.0.0.1:PORT/` line; the port.
  static func servingPort(_ stderr: FileHandle) -> UInt16? {
    var text = ""
    while true {
      let data = stderr.availableData
      if data.isEmpty { return nil }
      text += String(decoding: data, as: UTF8.self)
      if let range = text.range(
        of: #"serving http://127\.0\.0\.1:(\d+)/\n"#, options: .regularExpression)
      {
        let line = text[range].dropFirst("serving http://127.0.0.1:".count).dropLast(2)
        return UInt16(line)
      }
    }
  }

  @Test func replayServesEveryFrameToAViewerAsTheJSONLHas() throws {
    let demo = TiltCLI.packageRoot.appendingPathComponent("recordings/demo.evemu").path
    let process = Process()
    process.executableURL = TiltCLI.binary
    process.arguments = [
      "replay", demo, "--serve", "127.0.0.1:0", "--speed", "8", "--format", "jsonl",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var stdout = Data()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      stdout = out.fileHandleForReading.readDataToEndOfFile()
      done.signal()
    }
    let port = Self.servingPort(err.fileHandleForReading)
    #expect(port != nil, "no 'serving http://127.0.0.1:PORT/' line on stderr")
    guard let port else {
      process.terminate()
      return
    }
    // The frames up to the end event; the replay then serves on until a signal.
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    #expect(stream.wait(60) { $0.contains { $0.name == "end" } }, "no end event")
    let served = stream.events.filter { $0.name == "message" }.map(\.data)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    done.wait()
    #expect(process.terminationStatus == 0)
    let piped = String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    let reference = try TiltCLI.run(["replay", demo, "--speed", "max", "--format", "jsonl"])
    let expected = reference.stdout.split(separator: "\n").map(String.init)
    #expect(expected.count > 100)
    #expect(piped == expected, "the jsonl goes on beside the page")
    #expect(served.count == expected.count)
    #expect(served == expected, "the viewer got every frame, the same bytes")
  }

  @Test(arguments: ["", "x", "127.0.0.1:", "70000", "::1:80"])
  func aBadServeAddressIsAUsageError(address: String) throws {
    let demo = TiltCLI.packageRoot.appendingPathComponent("recordings/demo.evemu").path
    let result = try TiltCLI.run(["replay", demo, "--serve", address])
    #expect(result.status == 64)
    #expect(result.stderr.contains("'--serve' needs [HOST:]PORT"))
  }
}

/// One server-sent event as a viewer got it: its name (`message` for a frame),
/// its data, and when it came (seconds after the stream opened).
struct ServedEvent {
  var name: String
  var data: String
  var arrival: Double
  /// The frame's JSON object, for `message` events.
  var frame: [String: Any]? {
    guard name == "message" else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
  }
  var t: Double? { frame?["t"] as? Double }
  var state: String? { frame?["state"] as? String }
  var attitude: (pitch: Double, roll: Double)? {
    guard let a = frame?["attitude"] as? [String: Any], let p = a["pitch"] as? Double,
      let r = a["roll"] as? Double
    else { return nil }
    return (p, r)
  }
}

/// A `/frames` stream read as it comes, on a thread of its own, until the
/// server closes it or ``close()``.
final class EventStream: @unchecked Sendable {
  private let lock = NSLock()
  private var received: [ServedEvent] = []
  private var ended = false
  private let fd: Int32

  init?(port: UInt16) {
    fd = ServeTests.connect(port: port)
    guard fd >= 0 else { return nil }
    let request = Array("GET /frames HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    let start = Date()
    Thread.detachNewThread { [self] in
      var raw: [UInt8] = []
      var body: [UInt8] = []
      var headDone = false
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        raw += buffer[0..<n]
        if !headDone, let at = Self.find([13, 10, 13, 10], in: raw, from: 0) {
          raw.removeFirst(at + 4)
          headDone = true
        }
        // Chunked framing: size CRLF data CRLF, as many whole chunks as came.
        while headDone, let end = Self.find([13, 10], in: raw, from: 0),
          let size = Int(String(decoding: raw[0..<end], as: UTF8.self), radix: 16),
          end + 2 + size + 2 <= raw.count
        {
          body += raw[(end + 2)..<(end + 2 + size)]
          raw.removeFirst(end + 2 + size + 2)
        }
        while let split = Self.find([10, 10], in: body, from: 0) {
          let block = String(decoding: body[0..<split], as: UTF8.self)
          body.removeFirst(split + 2)
          var name = "message"
          var data = ""
          for line in block.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
          }
          let event = ServedEvent(name: name, data: data, arrival: Date().timeIntervalSince(start))
          lock.withLock { received.append(event) }
        }
      }
      lock.withLock { ended = true }
    }
  }

  var events: [ServedEvent] { lock.withLock { received } }
  var isClosed: Bool { lock.withLock { ended } }

  /// Waits up to `seconds` for `done` to hold on the events so far; whether it did.
  @discardableResult
  func wait(_ seconds: Double, until done: ([ServedEvent]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if done(events) { return true }
      if isClosed { return done(events) }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return done(events)
  }

  func close() { shutdown(fd, Int32(SHUT_RDWR)) }

  static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    var i = start
    while i + pattern.count <= bytes.count {
      if bytes[i] == pattern[0], Array(bytes[i..<i + pattern.count]) == pattern { return i }
      i += 1
    }
    return nil
  }
}

/// `tilt-cli replay … --serve 127.0.0.1:0` running, as a plain process or
/// in tmux (a terminal: its keys go to the view), its stderr in a file.
final class ServedReplay {
  let errFile: URL
  let statusFile: URL
  private var process: Process?
  private var tmux: (path: String, socket: String)?
  private var client: Process?

  init(_ arguments: [String], onTerminal: Bool, name: String) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-served-\(name)-\(getpid())")
    errFile = base.appendingPathExtension("err")
    statusFile = base.appendingPathExtension("status")
    try? FileManager.default.removeItem(at: errFile)
    try? FileManager.default.removeItem(at: statusFile)
    if onTerminal {
      let path = try Tool.tmux.require()
      let socket = "tilt-\(name)-\(getpid())"
      tmux = (path, socket)
      let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
      let command =
        "cd '\(TiltCLI.packageRoot.path)' && '\(TiltCLI.binary.path)' \(quoted) "
        + "2>'\(errFile.path)'; echo $? > '\(statusFile.path)'; sleep 5"
      let client = Process()
      client.executableURL = URL(fileURLWithPath: path)
      client.arguments = [
        "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "32", command,
      ]
      client.standardInput = FileHandle.nullDevice
      client.standardOutput = FileHandle.nullDevice
      client.standardError = FileHandle.nullDevice
      // Not waited for: the tmux server it forks would keep it from being reaped.
      try client.run()
      self.client = client
    } else {
      _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
      let p = Process()
      p.executableURL = TiltCLI.binary
      p.arguments = arguments
      p.currentDirectoryURL = TiltCLI.packageRoot
      p.standardInput = FileHandle.nullDevice
      p.standardOutput = FileHandle.nullDevice
      p.standardError = try FileHandle(forWritingTo: errFile)
      try p.run()
      process = p
    }
  }

  var stderr: String { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }

  /// The port of the `serving http://127.0.0.1:PORT/` line, within 20 s.
  func port() -> UInt16? {
    for _ in 0..<200 {
      if let range = stderr.range(
        of: #"serving http://127\.0\.0\.1:(\d+)/\n"#, options: .regularExpression)
      {
        return UInt16(stderr[range].dropFirst("serving http://127.0.0.1:".count).dropLast(2))
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return nil
  }

  /// Sends keys to the terminal (tmux's `send-keys`).
  func send(keys: String) throws {
    guard let tmux else { return }
    _ = try TiltCLI.runTool(tmux.path, ["-L", tmux.socket, "send-keys", keys])
  }

  func signal(_ number: Int32) {
    if let process { kill(process.processIdentifier, number) }
  }

  /// The exit status, once it has exited (nil after `seconds`).
  func exitStatus(within seconds: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let process, !process.isRunning { return process.terminationStatus }
      if tmux != nil, let text = try? String(contentsOf: statusFile, encoding: .utf8),
        let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return code
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
  }

  func close() {
    if let process, process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    if let tmux { _ = try? TiltCLI.runTool(tmux.path, ["-L", tmux.socket, "kill-server"]) }
    withExtendedLifetime(client) {}
    try? FileManager.default.removeItem(at: errFile)
    try? FileManager.default.removeItem(at: statusFile)
  }
}

extension ServeTests {
  /// A TCP connection to 127.0.0.1:`port` with a 20 s receive timeout; -1 when refused.
  static func connect(port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      Glibc.close(fd)
      return -1
    }
    return fd
  }

  /// One request on a connection of its own: the status and the body.
  static func request(_ method: String, _ path: String, body: String = "", port: UInt16) -> (
    status: Int, body: String
  ) {
    let fd = connect(port: port)
    guard fd >= 0 else { return (0, "") }
    defer { Glibc.close(fd) }
    let text =
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var raw: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      raw += buffer[0..<n]
    }
    let response = String(decoding: raw, as: UTF8.self)
    let status = Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
    let body = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(
      separator: "\r\n\r\n")
    return (status, body)
  }
}

/// The surfaces whose `p` stops and starts a served replay.
enum StopSurface: String, CaseIterable, CustomTestStringConvertible {
  case terminal, page
  var testDescription: String { rawValue }
}

@Suite struct ServedReplayEndTests {
  static let demo = "recordings/demo.evemu"

  /// contract §3.3: stopped, a replay holds the recording too; started again it
  /// continues at the time it stopped, from the attitude it had (no jump, no
  /// new reference). Stopped for 2 s with `p` on the terminal or the page's
  /// stop, the frames show it: the start frame comes 2 s later by the wall
  /// clock but at the stop frame's time on the recording's.
  @Test(.needs(.tmux), arguments: StopSurface.allCases)
  func aReplayStoppedFor2sContinuesAtTheTimeItStopped(surface: StopSurface) throws {
    let replay = try ServedReplay(
      ["replay", Self.demo, "--serve", "127.0.0.1:0", "--speed", "2"]
        + (surface == .page ? ["--format", "jsonl"] : []),
      onTerminal: surface == .terminal, name: "stop-\(surface)")
    defer { replay.close() }
    let port = try #require(replay.port(), "no serving line: \(replay.stderr)")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    // Mid-motion: the demo rolls from +23° to −25° between 2.7 s and 4.6 s.
    #expect(stream.wait(30) { $0.contains { ($0.t ?? 0) >= 3.0 } }, "\(replay.stderr)")
    func toggle(_ body: String) throws {
      if surface == .terminal {
        try replay.send(keys: "p")
      } else {
        #expect(Self.post(body, port: port) == 204)
      }
    }
    try toggle("stop")
    #expect(stream.wait(10) { $0.contains { $0.state == "stopped" } }, "no stopped frame")
    Thread.sleep(forTimeInterval: 2)
    try toggle("start")
    #expect(stream.wait(30) { $0.contains { $0.name == "end" } }, "no end event")
    let frames = stream.events.filter { $0.frame != nil }
    let stop = try #require(frames.firstIndex { $0.state == "stopped" })
    let start = try #require(frames[stop...].firstIndex { $0.state == "active" })
    let (held, resumed) = (frames[stop], frames[start])
    #expect(resumed.arrival - held.arrival > 1.8, "it stopped for 2 s by the wall clock")
    let gap = try #require(resumed.t) - (held.t ?? 0)
    #expect(
      gap >= 0 && gap < 0.1, "started again at \(resumed.t ?? 0) s, stopped at \(held.t ?? 0) s")
    // From the stopped frame to the start frame the roll moves as from one
    // frame to the next while playing (the start frame has the first samples
    // after the start in it), not by the 4 s of recording a stop used to skip
    // nor back to 0 as a new reference did (about 10° here).
    let (a, b) = (try #require(held.attitude), try #require(resumed.attitude))
    let rolls = frames.compactMap { $0.attitude?.roll }
    let step = zip(rolls, rolls.dropFirst()).map { abs($1 - $0) }.filter { $0 < 5 }.max() ?? 0
    #expect(
      abs(a.roll - b.roll) <= 3 * step && abs(a.pitch - b.pitch) <= 3 * step + 0.1,
      "no jump: roll \(a.roll)° at the stop, \(b.roll)° at the start (a frame's step: \(step)°)")
    // The recording played to its end after the start, none of it skipped.
    let reference = try TiltCLI.run(["replay", Self.demo, "--speed", "max", "--format", "jsonl"])
    let lastT = try Frames(reference.stdout).items.last?.t ?? 0
    let servedLastT = try #require(frames.last?.t)
    #expect(
      abs(servedLastT - lastT) < 0.05, "last frame at \(servedLastT) s, as unstopped \(lastT) s")
    if surface == .terminal { try replay.send(keys: "q") } else { replay.signal(SIGINT) }
    #expect(replay.exitStatus() == 0, "\(replay.stderr)")
  }

  /// contract §6.6: at its end a served replay says so (`event: end`), keeps the
  /// stream open and serves on (`/state` answers, a new viewer gets the last
  /// frame and the end) until SIGINT or SIGTERM, which exit 0.
  @Test(arguments: [SIGINT, SIGTERM])
  func aServedReplayEndsWellAndServesUntilASignal(signal: Int32) throws {
    let replay = try ServedReplay(
      ["replay", "recordings/roll-pitch.csv", "--serve", "127.0.0.1:0", "--speed", "4"],
      onTerminal: false, name: "end-\(signal)")
    defer { replay.close() }
    let port = try #require(replay.port(), "no serving line: \(replay.stderr)")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    #expect(stream.wait(30) { $0.contains { $0.name == "end" } }, "no end event: \(replay.stderr)")
    let events = stream.events
    let end = try #require(events.firstIndex { $0.name == "end" })
    let lastFrame = try #require(events[..<end].last { $0.frame != nil })
    let endT = try #require(
      (try JSONSerialization.jsonObject(with: Data(events[end].data.utf8)) as? [String: Double])?[
        "t"])
    #expect(
      events[end].data.range(of: #"^\{"t": \d+\.\d{6}\}$"#, options: .regularExpression) != nil)
    #expect(endT >= (lastFrame.t ?? .infinity) - 1e-6 && endT < 3.5, "end at \(endT) s")
    Thread.sleep(forTimeInterval: 1.5)
    #expect(!stream.isClosed, "the stream stays open after the end")
    #expect(replay.exitStatus(within: 0) == nil, "still serving after the end")
    let state = Self.get("/state", port: port)
    #expect(state.status == 200)
    #expect(state.body.contains("\"viewers\": 1"), "\(state.body)")
    // A viewer that comes after the end sees the end and the last frame.
    let late = try #require(EventStream(port: port))
    defer { late.close() }
    #expect(late.wait(5) { $0.contains { $0.name == "end" } })
    let lateEvents = late.events.map(\.name)
    #expect(lateEvents == ["viewer", "message", "end"], "\(lateEvents)")
    #expect(late.events.dropFirst().first?.data == lastFrame.data)
    replay.signal(signal)
    #expect(replay.exitStatus() == 0, "\(replay.stderr)")
    #expect(stream.wait(5) { _ in stream.isClosed })
  }

  /// `--loop`: at the end the recording plays again, its times going on from
  /// the end; no `end` event.
  @Test func loopPlaysTheRecordingAgain() throws {
    let replay = try ServedReplay(
      ["replay", "recordings/roll-pitch.csv", "--serve", "127.0.0.1:0", "--speed", "4", "--loop"],
      onTerminal: false, name: "loop")
    defer { replay.close() }
    let reference = try TiltCLI.run([
      "replay", "recordings/roll-pitch.csv", "--speed", "max", "--format", "jsonl",
    ])
    let once = try Frames(reference.stdout).items
    let length = try #require(once.last?.t)
    let port = try #require(replay.port(), "no serving line: \(replay.stderr)")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    #expect(stream.wait(30) { $0.contains { ($0.t ?? 0) > 2.2 * length } }, "\(replay.stderr)")
    #expect(!stream.events.contains { $0.name == "end" })
    // The second pass moves as the first: the roll's range is the same.
    let frames = stream.events.compactMap { e in e.t.map { ($0, e.attitude?.roll ?? 0) } }
    let first = frames.filter { $0.0 <= length }.map(\.1)
    let second = frames.filter { $0.0 > length + 0.05 && $0.0 <= 2 * length }.map(\.1)
    let (lo1, hi1) = (first.min() ?? 0, first.max() ?? 0)
    let (lo2, hi2) = (second.min() ?? 0, second.max() ?? 0)
    #expect(hi1 - lo1 > 10, "the recording moves: \(lo1)…\(hi1)")
    #expect(abs((hi2 - lo2) - (hi1 - lo1)) < 0.2 * (hi1 - lo1), "\(lo1)…\(hi1) then \(lo2)…\(hi2)")
    replay.signal(SIGINT)
    #expect(replay.exitStatus() == 0, "\(replay.stderr)")
  }

  @Test func loopNeedsAPacedReplay() throws {
    let r = try TiltCLI.run(["replay", "recordings/roll-pitch.csv", "--loop", "-o", "/dev/null"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: '--loop' plays until q or Ctrl-C"), "\(r.stderr)")
  }

  static func post(_ body: String, port: UInt16) -> Int {
    ServeTests.request("POST", "/control", body: body, port: port).status
  }

  static func get(_ path: String, port: UInt16) -> (status: Int, body: String) {
    ServeTests.request("GET", path, port: port)
  }
}

/// The live page's keys (contract §3.3) in a real Chromium against a served replay:
/// space flips, `p` stops and starts, `r` recenters, `q` leaves (the viewer
/// goes, the buttons are disabled); the frames the server made show each.
@Suite struct LivePageKeyTests {
  @Test(.needs(.chromium, .python3)) func theFourKeysOnTheLivePage() throws {
    _ = try Tool.chromium.require()
    let python = try Tool.python3.require()
    let jsonl = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-live-keys-\(getpid()).jsonl")
    defer { try? FileManager.default.removeItem(at: jsonl) }
    // Level for 1 s, rolled to 20° by 1.5 s, then held for a minute: however
    // late a busy machine hears a key, r comes while the roll is 20°.
    let csv = jsonl.deletingPathExtension().appendingPathExtension("csv")
    defer { try? FileManager.default.removeItem(at: csv) }
    var rows = ["t_s,acc_x_g,acc_y_g,acc_z_g"]
    for i in 0...6000 {
      let t = Double(i) / 100
      let roll = 20 * Double.pi / 180 * min(max((t - 1) / 0.5, 0), 1)
      rows.append(String(format: "%.2f,%.6f,0,%.6f", t, sin(roll), cos(roll)))
    }
    try (rows.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
    let replay = try ServedReplay(
      [
        "replay", csv.path, "--serve", "127.0.0.1:0", "--speed", "1",
        "--format", "jsonl", "-o", jsonl.path,
      ], onTerminal: false, name: "keys")
    defer { replay.close() }
    let port = try #require(replay.port(), "no serving line: \(replay.stderr)")
    let png = jsonl.deletingPathExtension().appendingPathExtension("png")
    defer { try? FileManager.default.removeItem(at: png) }
    let readout = "document.getElementById('readout').textContent"
    let roll = "Math.abs(parseFloat(\(readout).split('roll')[1]))"
    let shot = try TiltCLI.runTool(
      python,
      [
        TiltCLI.packageRoot.appendingPathComponent("Tests/browser/shoot").path,
        "http://127.0.0.1:\(port)/", png.path,
        "--wait", "document.body.dataset.face === 'front'",
        "--then", "Space", "document.body.dataset.face === 'back'",
        "--then", "p", "\(readout).includes('stopped')",
        // Started again, and on into the held roll of 20°.
        "--then", "p", "!\(readout).includes('stopped') && \(roll) > 15",
        // r: its POST and q's leaving go on two connections; q waits until the
        // page shows the level roll, so that it cannot overtake the recenter (a
        // stop first leaves no frame to show it).
        "--then", "r", "\(roll) < 2",
        "--then", "q", "document.getElementById('flip').disabled && document.body.dataset.quit",
      ])
    #expect(shot.status == 0, "\(shot.stdout)\(shot.stderr)")
    // q: this viewer left, so nobody watches.
    var viewers = ""
    for _ in 0..<100 {
      viewers = ServeTests.request("GET", "/state", port: port).body
      if viewers.contains("\"viewers\": 0") { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(viewers.contains("\"viewers\": 0"), "\(viewers)")
    replay.signal(SIGINT)
    #expect(replay.exitStatus() == 0, "\(replay.stderr)")
    let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
    let frames = lines.compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
    let flipped = frames.firstIndex { ($0["card"] as? [String: Any])?["flipped"] as? Bool == true }
    let stopped = frames.firstIndex { $0["state"] as? String == "stopped" }
    #expect(flipped != nil, "space flipped the card")
    #expect(stopped != nil && flipped.map { stopped! > $0 } == true, "p stopped it after")
    // r: the attitude reads level again at once, from a roll well away from it.
    let rolls = frames.map { (($0["attitude"] as? [String: Any])?["roll"] as? Double) ?? 0 }
    let recentered = (1..<max(rolls.count, 1)).contains { i in
      abs(rolls[i]) < 0.5 && abs(rolls[i - 1]) > 3 && i > (stopped ?? rolls.count)
    }
    #expect(recentered, "r made the roll read 0 from \(rolls.map { Int($0) })")
  }
}
