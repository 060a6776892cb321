import Glibc
import Testing

@testable import TiltCard

@Suite struct OutputSinkTests {
  @Test func buffersThenWritesInOrder() throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    defer { close(fds[0]) }
    let sink = OutputSink(fileDescriptor: fds[1], destination: "a pipe", capacity: 8)
    try sink.write("abc")
    #expect(sink.buffer.count == 3, "below capacity: kept")
    try sink.write("defghij")
    #expect(sink.buffer.isEmpty, "full: written out")
    try sink.append { $0.append(contentsOf: "xyz\n".utf8) }
    try sink.flush()
    close(fds[1])
    var bytes = [UInt8](repeating: 0, count: 64)
    let n = read(fds[0], &bytes, 64)
    #expect(String(decoding: bytes[0..<max(n, 0)], as: UTF8.self) == "abcdefghijxyz\n")
  }

  @Test func aClosedReaderIsAClearError() throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    close(fds[0])
    defer { close(fds[1]) }
    signal(SIGPIPE, SIG_IGN)
    let sink = OutputSink(fileDescriptor: fds[1], destination: "standard output")
    try sink.write("frame\n")
    #expect(throws: OutputSink.WriteError.self) { try sink.flush() }
    do {
      try sink.write("again\n")
      try sink.flush()
    } catch {
      #expect(error.description.hasPrefix("cannot write to standard output: "))
      #expect(error.errno == EPIPE)
    }
  }
}
