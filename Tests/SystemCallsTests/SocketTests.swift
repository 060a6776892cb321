import Glibc
import Testing

@testable import SystemCalls

/// Socket addresses and the peek at a socket another library owns.
@Suite struct SocketTests {
  @Test(arguments: [
    ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("::ffff:127.0.0.2", true),
    ("10.1.2.3", false), ("::2", false), ("::ffff:10.0.0.1", false), ("fe80::1", false),
  ])
  func loopback(text: String, expected: Bool) throws {
    let address = try #require(SocketAddress(numericHost: text))
    #expect(address.isLoopback == expected)
  }

  @Test func namesAreNotLiterals() {
    #expect(SocketAddress(numericHost: "localhost") == nil)
    #expect(SocketAddress(numericHost: "[::1]") == nil)
    #expect(SocketAddress(numericHost: "") == nil)
  }

  @Test func familiesAndBytes() throws {
    let v4 = try #require(SocketAddress(numericHost: "192.168.1.2"))
    #expect(v4.family == .ipv4 && v4.bytes == [192, 168, 1, 2])
    let mapped = try #require(SocketAddress(numericHost: "::ffff:1.2.3.4"))
    #expect(
      mapped.family == .ipv6 && mapped.isIPv4Mapped && mapped.bytes.suffix(4) == [1, 2, 3, 4])
    #expect(SocketAddress(numericHost: "::1")?.isIPv4Mapped == false)
  }

  @Test func resolvesANumericHostAndReportsTheBoundAddress() throws {
    let resolved = try SocketAddress.resolveForListening(host: "127.0.0.1", port: 0).get()
    #expect(resolved.family == .ipv4 && resolved.isLoopback)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { Syscall.close(fd) }
    let bound = resolved.withSockaddr { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    try #require(bound == 0)
    let address = try SocketAddress.bound(to: fd)
    #expect(address.family == .ipv4 && address.bytes == [127, 0, 0, 1])
  }

  @Test func peekSeesNothingThenDataThenTheHangUp() throws {
    var pair: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer { Syscall.close(pair[0]) }
    #expect(Socket.peek(pair[0]) == .nothing)
    try Syscall.writeAll(pair[1], [7])
    #expect(Socket.peek(pair[0]) == .data)
    #expect(Socket.peek(pair[0]) == .data)  // a peek consumes nothing
    Syscall.close(pair[1])
    #expect(Syscall.readAvailable(pair[0]) == [7])
    #expect(Socket.peek(pair[0]) == .closed(nil))
  }
}
