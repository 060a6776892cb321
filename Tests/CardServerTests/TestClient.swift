import Foundation
import Glibc

@testable import CardServer

/// Runs a server in a `poll()` loop of its own thread, as the CLI's loop
/// does, and counts its wake-ups. Work for the server goes through
/// ``perform(_:)`` so that only the loop thread touches it.
final class TestLoop: @unchecked Sendable {
  let server: CardServer
  private let lock = NSLock()
  private var jobs: [(CardServer) -> Void] = []
  private var pipeFDs: [Int32] = [-1, -1]
  private var thread: Thread?
  private var done = false
  private let finished = DispatchSemaphore(value: 0)
  /// poll() returns not caused by ``perform(_:)``: the server's own wake-ups.
  private(set) var wakeUps = 0
  var port: UInt16 { server.address.port }

  convenience init(
    limits: CardServer.Limits = CardServer.Limits(), page: String = "<p>card</p>",
    address: ServeAddress = ServeAddress(port: 0)
  ) throws {
    try self.init(server: CardServer(address: address, page: page, limits: limits))
  }

  init(server: CardServer) throws {
    self.server = server
    precondition(pipe(&pipeFDs) == 0)
    let thread = Thread { [unowned self] in self.loop() }
    self.thread = thread
    thread.start()
  }

  private func loop() {
    while true {
      var fds = server.pollDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      fds.append(pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0))
      var timeout: Int32 = -1
      if let deadline = server.deadline {
        timeout = Int32(clamping: (deadline.timeLeft.nanoseconds + 999_999) / 1_000_000)
      }
      let n = poll(&fds, nfds_t(fds.count), timeout)
      if n < 0 && errno == EINTR { continue }
      let ready = Set(fds.filter { $0.revents != 0 }.map(\.fd))
      if ready.contains(pipeFDs[0]) {
        var byte: UInt8 = 0
        _ = read(pipeFDs[0], &byte, 1)
        lock.lock()
        let work = jobs
        jobs = []
        let stop = done
        lock.unlock()
        for job in work { job(server) }
        if stop { break }
      } else {
        lock.lock()
        wakeUps += 1
        lock.unlock()
      }
      try? server.service(ready: ready.subtracting([pipeFDs[0]]))
    }
    server.close()
    finished.signal()
  }

  /// Runs `job` on the loop thread and waits for it.
  @discardableResult
  func perform<T>(_ job: @escaping (CardServer) -> T) -> T {
    let sem = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: T?
    lock.lock()
    jobs.append { server in
      result = job(server)
      sem.signal()
    }
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(pipeFDs[1], &byte, 1)
    sem.wait()
    return result!
  }

  var wakeUpCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return wakeUps
  }

  func stop() {
    lock.lock()
    done = true
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(pipeFDs[1], &byte, 1)
    finished.wait()
    Glibc.close(pipeFDs[0])
    Glibc.close(pipeFDs[1])
  }

  /// Waits up to `seconds` for `condition` (evaluated on the loop thread).
  func eventually(_ seconds: Double = 5, _ condition: @escaping (CardServer) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if perform(condition) { return true }
      usleep(10_000)
    }
    return false
  }
}

/// A raw TCP connection to the server: what a test says, byte for byte.
final class RawConnection {
  let fd: Int32

  /// Connects to `host` (an IPv4 or IPv6 literal) from `source` (an IPv4
  /// literal: any of 127.0.0.0/8 is this machine, a different client each).
  init(
    port: UInt16, receiveBuffer: Int32? = nil, host: String = "127.0.0.1", source: String? = nil
  ) throws {
    let v6 = host.contains(":")
    fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    if let source {
      var from = sockaddr_in()
      from.sin_family = sa_family_t(AF_INET)
      from.sin_addr.s_addr = inet_addr(source)
      let bound = withUnsafePointer(to: &from) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else {
        Glibc.close(fd)
        throw POSIXError(.EADDRNOTAVAIL)
      }
    }
    var rc: Int32
    if v6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      inet_pton(AF_INET6, host, &address.sin6_addr)
      rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr(host)
      rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard rc == 0 else {
      Glibc.close(fd)
      throw POSIXError(.ECONNREFUSED)
    }
  }

  deinit { Glibc.close(fd) }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return }
      sent += n
    }
  }

  /// Reads what arrives until `done` says enough, EOF, or 5 s of silence.
  func read(until done: (String) -> Bool = { _ in false }) -> String {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(String(decoding: data, as: UTF8.self)) {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      data += buffer[0..<n]
    }
    return String(decoding: data, as: UTF8.self)
  }
}

struct Answer {
  var status: Int
  var headers: [String: String]
  var body: String
}

enum HTTP {
  /// One request with `Connection: close`; the answer once the server closes.
  /// `host` is where to connect; `hostHeader` the `Host` sent (the default:
  /// the same, with the port).
  static func request(
    _ port: UInt16, _ method: String, _ path: String, body: String? = nil,
    headers: [String: String] = [:], host: String = "127.0.0.1", hostHeader: String? = nil
  ) throws -> Answer {
    let c = try RawConnection(port: port, host: host)
    let authority = hostHeader ?? ((host.contains(":") ? "[\(host)]" : host) + ":\(port)")
    var text = "\(method) \(path) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
    for (k, v) in headers { text += "\(k): \(v)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    c.send(text)
    return parse(c.read())
  }

  static func parse(_ text: String) -> Answer {
    guard let split = text.range(of: "\r\n\r\n") else {
      return Answer(status: 0, headers: [:], body: text)
    }
    let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      if let colon = line.firstIndex(of: ":") {
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
    }
    return Answer(status: status, headers: headers, body: String(text[split.upperBound...]))
  }
}

/// An open `/frames` stream, read event by event.
final class EventStream {
  let connection: RawConnection
  /// Bytes received, not yet de-chunked.
  private var raw: [UInt8] = []
  private var headDone = false
  /// The stream's body so far, not yet cut into events.
  private var body = ""
  private(set) var id = ""
  private(set) var head = ""

  /// Opens `path` (`/frames`, with a query if need be) with `headers` besides
  /// `Host` and `Accept`.
  init(
    port: UInt16, receiveBuffer: Int32? = nil, path: String = "/frames",
    headers: [String: String] = [:], source: String? = nil
  ) throws {
    connection = try RawConnection(port: port, receiveBuffer: receiveBuffer, source: source)
    var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
    for (k, v) in headers { text += "\(k): \(v)\r\n" }
    connection.send(text + "\r\n")
    let first = nextEvent()
    if let first, let range = first.range(of: #""id": ""#) {
      id = String(first[range.upperBound...].prefix { $0 != "\"" })
    }
  }

  /// The next event's text (nil at EOF or after 5 s of silence).
  func nextEvent() -> String? {
    while true {
      if let end = body.range(of: "\n\n") {
        let event = String(body[..<end.lowerBound])
        body = String(body[end.upperBound...])
        return event
      }
      var buffer = [UInt8](repeating: 0, count: 65536)
      let n = recv(connection.fd, &buffer, buffer.count, 0)
      if n <= 0 { return nil }
      raw += buffer[0..<n]
      decode()
    }
  }

  private func decode() {
    let crlf: [UInt8] = [13, 10]
    func find(_ pattern: [UInt8], from: Int) -> Int? {
      guard raw.count >= pattern.count + from else { return nil }
      for i in from...(raw.count - pattern.count) where Array(raw[i..<i + pattern.count]) == pattern
      {
        return i
      }
      return nil
    }
    if !headDone {
      guard let end = find(crlf + crlf, from: 0) else { return }
      head = String(decoding: raw[..<end], as: UTF8.self)
      raw.removeFirst(end + 4)
      headDone = true
    }
    while let lineEnd = find(crlf, from: 0) {
      let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self)
      guard let size = Int(sizeText, radix: 16) else { return }
      guard raw.count >= lineEnd + 2 + size + 2 else { return }
      body += String(decoding: raw[(lineEnd + 2)..<(lineEnd + 2 + size)], as: UTF8.self)
      raw.removeFirst(lineEnd + 2 + size + 2)
    }
  }
}
