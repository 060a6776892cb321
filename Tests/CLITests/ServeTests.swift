import Foundation
import Glibc
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

  /// A `/frames` stream read to its end: the `data:` lines, chunked framing removed.
  static func readFrames(port: UInt16) -> [String] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return [] }
    let request = Array("GET /frames HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var raw: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      raw += buffer[0..<n]
    }
    // Undo the chunked encoding after the head.
    let crlf: [UInt8] = [13, 10]
    func find(_ pattern: [UInt8], from start: Int) -> Int? {
      var i = start
      while i + pattern.count <= raw.count {
        if Array(raw[i..<i + pattern.count]) == pattern { return i }
        i += 1
      }
      return nil
    }
    guard var at = find(crlf + crlf, from: 0).map({ $0 + 4 }) else { return [] }
    var body: [UInt8] = []
    while let end = find(crlf, from: at),
      let size = Int(String(decoding: raw[at..<end], as: UTF8.self), radix: 16), size > 0,
      end + 2 + size <= raw.count
    {
      body += raw[(end + 2)..<(end + 2 + size)]
      at = end + 2 + size + 2
    }
    return String(decoding: body, as: UTF8.self).components(separatedBy: "\n\n")
      .filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
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
    let served = Self.readFrames(port: port)
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
