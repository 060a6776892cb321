import Foundation
import Glibc
import Testing
import TiltCard

@testable import CardServer

/// ``Access``'s rules alone, the server's own deadlines and limits, and the
/// hash the page's CSP is made of.
@Suite(.serialized) struct AccessTests {
  func refusal(
    _ access: Access, _ path: String = "/state", method: String = "GET", host: String?,
    origin: String? = nil, site: String? = nil, mode: String? = nil, dest: String? = nil,
    query: String? = nil, cookie: String? = nil
  ) -> String? {
    access.refusal(
      path: path, method: method, host: host, origin: origin, fetchSite: site, fetchMode: mode,
      fetchDest: dest, query: query, cookie: cookie)
  }

  @Test func loopbackHostsAndPorts() {
    let a = Access(loopback: true, token: nil, port: 8080, givenHost: "MyBox")
    for host in [
      "127.0.0.1:8080", "LOCALHOST:8080", "localhost.:8080", "[::1]:8080", "127.0.1.1:8080",
      "mybox:8080", "[::ffff:127.0.0.1]:8080", "[0:0:0:0:0:0:0:1]:8080",
    ] {
      #expect(refusal(a, host: host) == nil, "\(host)")
    }
    for host in [
      "evil.example:8080", "127.0.0.1", "127.0.0.1:80", "localhost:8081", "127.0.0.1:08080x",
      "[::1]", "::1:8080", "10.0.0.1:8080", "localhost.evil.example:8080", "", "[::1:8080",
    ] {
      #expect(refusal(a, host: host) != nil, "\(host)")
    }
    #expect(refusal(a, host: nil) != nil, "no Host at all")
    let on80 = Access(loopback: true, token: nil, port: 80, givenHost: "127.0.0.1")
    #expect(refusal(on80, host: "127.0.0.1") == nil)
    #expect(refusal(on80, host: "localhost:80") == nil)
    #expect(refusal(on80, method: "POST", host: "127.0.0.1", origin: "http://127.0.0.1") == nil)
    #expect(refusal(on80, method: "POST", host: "127.0.0.1", origin: "http://127.0.0.1:80") == nil)
    #expect(refusal(on80, method: "POST", host: "127.0.0.1", origin: "https://127.0.0.1") != nil)
  }

  @Test func boundAddressesAreLoopbackOrNot() {
    func check(_ text: String) -> Bool { Access.isLoopbackLiteral(text) }
    for yes in [
      "127.0.0.1", "127.0.1.1", "127.255.255.254", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1",
    ] {
      #expect(check(yes), "\(yes)")
    }
    for no in [
      "0.0.0.0", "::", "128.0.0.1", "10.1.2.3", "::2", "::ffff:10.0.0.1", "fe80::1", "localhost",
    ] {
      #expect(!check(no), "\(no)")
    }
  }

  @Test func theTokenFromTheQueryOrTheCookie() {
    let token = Access.randomToken()
    #expect(token.count == 32 && token != Access.randomToken())
    let a = Access(loopback: false, token: token, port: 8080, givenHost: "0.0.0.0")
    #expect(refusal(a, host: "192.0.2.1:8080") != nil)
    #expect(refusal(a, host: "192.0.2.1:8080", query: token) == nil)
    #expect(refusal(a, host: "192.0.2.1:8080", cookie: token) == nil)
    #expect(refusal(a, host: "192.0.2.1:8080", query: String(token.dropLast())) != nil)
    #expect(refusal(a, host: "192.0.2.1:8080", query: token + "0") != nil)
    #expect(refusal(a, host: "192.0.2.1:8080", query: "") != nil)
    #expect(a.cookieName == "tilt-token-8080")
    // A token given on loopback is wanted there too.
    let given = Access(
      loopback: true, token: "0123456789abcdefXYZ", port: 9, givenHost: "127.0.0.1")
    #expect(refusal(given, host: "127.0.0.1:9") != nil)
    #expect(refusal(given, host: "127.0.0.1:9", query: "0123456789abcdefXYZ") == nil)
    #expect(Access.isValidToken("0123456789abcdef"))
    #expect(Access.isValidToken("A-b_c.d~e-0123456789"))
    for bad in [
      "", "short", "0123456789abcde", "0123456789abcdef;x", "0123456789abcdef x",
      "0123456789abcdef\u{e9}", String(repeating: "a", count: 257),
    ] {
      #expect(!Access.isValidToken(bad), "\(bad)")
    }
  }

  @Test func aGivenTokenIsUsedOnLoopbackToo() throws {
    let server = try CardServer(
      address: ServeAddress(port: 0), page: "<p>x</p>", token: "tilt-test-token-0001")
    let loop = try TestLoop(server: server)
    defer { loop.stop() }
    #expect(loop.perform { $0.url } == "http://127.0.0.1:\(loop.port)/?token=tilt-test-token-0001")
    #expect(loop.perform { $0.servesNetwork } == false)
    #expect(try HTTP.request(loop.port, "GET", "/state").status == 403)
    #expect(try HTTP.request(loop.port, "GET", "/state?token=tilt-test-token-0001").status == 200)
  }

  /// The server's deadline per request: a half request, a trickle of bytes
  /// and a connection idle after its request are closed in time; a silent stream
  /// is not, and the loop sleeps again once only streams are left.
  @Test func unfinishedRequestsAreCutAtTheirDeadline() throws {
    var limits = CardServer.Limits()
    limits.requestTime = .seconds(1)
    let loop = try TestLoop(limits: limits)
    defer { loop.stop() }
    let port = loop.port
    let viewer = try EventStream(port: port)
    let half = try RawConnection(port: port)
    half.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
    let trickle = try RawConnection(port: port)
    let kept = try RawConnection(port: port)
    kept.send("GET /state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    #expect(kept.read { $0.contains("\"viewers\"") }.hasPrefix("HTTP/1.1 200"))
    let start = Date()
    // One byte every 0.2 s: never idle, never finished.
    for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: aaaaaaaa".map(String.init) {
      trickle.send(byte)
      usleep(200_000)
      if Date().timeIntervalSince(start) > 2 { break }
    }
    func closed(_ c: RawConnection) -> Bool {
      var byte: UInt8 = 0
      let n = recv(c.fd, &byte, 1, Int32(MSG_DONTWAIT))
      return n == 0 || (n < 0 && errno == ECONNRESET)
    }
    #expect(closed(half))
    #expect(closed(trickle))
    #expect(
      closed(kept),
      "after its answer (libmicrohttpd here answers Connection: close) or at its deadline")
    #expect(loop.perform { $0.timedOutConnections } >= 2)
    loop.perform { $0.broadcast(frameJSON: Array(CardServerTests.line(3).utf8)) }
    #expect(viewer.nextEvent() == "data: " + CardServerTests.line(3).dropLast(), "the stream stays")
    #expect(loop.eventually { $0.openConnections == 1 && $0.deadline == nil })
  }

  /// One address (an IPv6 /64) holds at most ``CardServer/Limits/connectionsPerAddress``;
  /// its oldest unfinished connection makes room, another address is not touched.
  @Test func oneAddressHoldsAtMostItsShare() throws {
    var limits = CardServer.Limits()
    limits.connectionsPerAddress = 4
    let loop = try TestLoop(limits: limits)
    defer { loop.stop() }
    let port = loop.port
    let other = try (0..<3).map { _ in try RawConnection(port: port, source: "127.0.0.3") }
    other.forEach { $0.send("GET / HTTP/1.1\r\n") }
    var flood: [RawConnection] = []
    for _ in 0..<20 {
      let c = try RawConnection(port: port, source: "127.0.0.2")
      c.send("GET / HTTP/1.1\r\n")
      flood.append(c)
    }
    func open(_ address: String) -> Int {
      loop.perform {
        $0.connections.values.filter { !$0.cut && $0.peer.description == address }.count
      }
    }
    #expect(loop.eventually { $0.openConnections == 7 })
    #expect(open("127.0.0.2") == 4)
    #expect(open("127.0.0.3") == 3)
    #expect(loop.perform { $0.evictedConnections } == 16)
    // The ones kept are the newest.
    let alive = flood.map { c -> Bool in
      var byte: UInt8 = 0
      return recv(c.fd, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && errno == EAGAIN
    }
    #expect(alive == Array(repeating: false, count: 16) + Array(repeating: true, count: 4))
    // Four streams of one address: a fifth is refused, not a stream cut.
    flood = []
    let streams = try (0..<4).map { _ in try EventStream(port: port) }
    #expect(streams.allSatisfy { $0.id.count == 32 })
    let fifth = try EventStream(port: port)
    #expect(fifth.id.isEmpty)
    #expect(loop.perform { $0.viewerCount } == 4)
    #expect(loop.perform { $0.refusedConnections } >= 1)
  }

  @Test func peerKeys() {
    func key(_ text: String) -> String? {
      if text.contains(":") {
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, text, &a.sin6_addr)
        return withUnsafePointer(to: &a) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerKey($0)?.description }
        }
      }
      var a = sockaddr_in()
      a.sin_family = sa_family_t(AF_INET)
      inet_pton(AF_INET, text, &a.sin_addr)
      return withUnsafePointer(to: &a) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerKey($0)?.description }
      }
    }
    #expect(key("192.0.2.9") == "192.0.2.9")
    #expect(key("::ffff:192.0.2.9") == "192.0.2.9")
    #expect(key("2001:db8:1:2:aaaa::1") == key("2001:db8:1:2:bbbb::2"), "one /64")
    #expect(key("2001:db8:1:2::1") != key("2001:db8:1:3::1"))
    #expect(key("::1") != key("::2"))
  }

  /// FIPS 180-4's examples and the boundary lengths around a block.
  @Test func sha256KnownAnswers() {
    func hex(_ s: String) -> String {
      SHA256.digest(Array(s.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(String(repeating: "a", count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    #expect(SHA256.base64([]) == "")
    #expect(SHA256.base64(Array("f".utf8)) == "Zg==")
    #expect(SHA256.base64(Array("fo".utf8)) == "Zm8=")
    #expect(SHA256.base64(Array("foobar".utf8)) == "Zm9vYmFy")
  }

  /// The live page has one script and one style, both in its CSP by hash
  /// (the browser test shows that Chromium runs them under it).
  @Test func theLivePagesScriptAndStyleAreInItsPolicy() {
    let page = HTMLRenderer(configuration: CardConfiguration()).renderLive()
    let scripts = Access.inlineElements("script", in: page)
    let styles = Access.inlineElements("style", in: page)
    #expect(scripts.count == 1 && styles.count == 1)
    let csp = Access.contentSecurityPolicy(page: page)
    for (directive, text) in [("script-src", scripts[0]), ("style-src", styles[0])] {
      let hash = SHA256.base64(SHA256.digest(Array(text.utf8)))
      #expect(csp.contains("\(directive) 'sha256-\(hash)';"), "\(csp)")
    }
  }

  @Test func theInlineElementsAreFound() {
    let page = "<style>a</style><script>b</script><scripts>no</scripts><script nonce=x>c</script>"
    #expect(Access.inlineElements("script", in: page) == ["b", "c"])
    #expect(Access.inlineElements("style", in: page) == ["a"])
    #expect(Access.contentSecurityPolicy(page: "<p>").contains("script-src 'none'"))
  }
}
