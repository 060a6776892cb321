import CMicroHTTPD
import SystemCalls

/// Who may use the live page (contract §6.4), decided from the bound socket and each
/// request's headers; no sockets here, so every rule is testable alone.
///
/// - Bound to a loopback address (127.0.0.0/8, `::1`, `::ffff:127.x.y.z`, as
///   `getsockname` reports it, whatever HOST's spelling): a `Host` must name
///   loopback (`localhost`, a loopback literal, or the HOST given) with the
///   bound port, or no port when that port is 80, the scheme's default: a page
///   on another name that resolves here (DNS rebinding) gets 403.
/// - Bound anywhere else: every request needs the run's token, from
///   `?token=` or from the cookie the page gets with it; without it 403.
///   A token given on loopback is required there too.
/// - Every request: an `Origin`, where sent, must be the page's own; with the
///   Fetch Metadata headers, only the page itself (`Sec-Fetch-Site:
///   same-origin`) or the user (`none`: typed, bookmarked) may read `/frames`
///   and `/state` or POST, never in `no-cors` mode; another site may only
///   link to `/` (a top-level navigation), never embed or fetch it.
public struct Access: Hashable, Sendable {
  /// Whether the bound address is a loopback one.
  public let loopback: Bool
  /// The token every request must carry, or nil for none.
  public let token: String?
  /// The port bound.
  public let port: UInt16
  /// HOST as given, lowercased: a name of this machine the user chose.
  let givenHost: String

  /// The cookie that carries the token after `?token=`: one name a port, so
  /// two servers on one machine (cookies ignore the port) keep theirs apart.
  public var cookieName: String { "tilt-token-\(port)" }

  public init(loopback: Bool, token: String?, port: UInt16, givenHost: String) {
    self.loopback = loopback
    self.token = token
    self.port = port
    self.givenHost = Self.bare(givenHost.lowercased())
  }

  /// The characters a `--serve-token` may use: URL- and cookie-safe as they are.
  public static func isValidToken(_ token: String) -> Bool {
    tokenLengths.contains(token.utf8.count)
      && token.utf8.allSatisfy { c in
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
          || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
          || c == UInt8(ascii: "~")
      }
  }

  /// The shortest `--serve-token`: 16 characters, 96 bits if drawn from the
  /// 64 URL-safe ones, beyond guessing over a network.
  public static let minimumTokenLength = 16
  /// The longest `--serve-token`: 256 characters, a URL and a cookie that any
  /// browser keeps whole.
  public static let maximumTokenLength = 256
  /// The lengths a `--serve-token` may have, both ends included (contract §6.4).
  public static let tokenLengths = minimumTokenLength...maximumTokenLength

  /// A fresh token: 128 bits from the kernel's generator, as 32 hex digits.
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let s = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - s.count) + s
    }.joined()
  }

  /// Whether `address` (from `getsockname`) is loopback: 127.0.0.0/8, `::1`,
  /// or an IPv4-mapped 127.0.0.0/8.
  public static func isLoopback(_ address: UnsafePointer<sockaddr>) -> Bool {
    SocketAddress(address)?.isLoopback ?? false
  }

  /// Whether the text is a loopback IP literal (IPv6 without brackets).
  static func isLoopbackLiteral(_ text: String) -> Bool {
    SocketAddress(numericHost: text)?.isLoopback ?? false
  }

  /// `host` without brackets or one trailing dot.
  static func bare(_ host: String) -> String {
    var h = Substring(host)
    if h.hasPrefix("[") && h.hasSuffix("]") { h = h.dropFirst().dropLast() }
    if h.hasSuffix(".") && !h.contains(":") { h = h.dropLast() }
    return String(h)
  }

  /// An authority (`host`, `host:port`, `[v6]:port`) split, host lowercased
  /// and bare; the port nil when absent, and the whole nil when malformed.
  static func authority(_ text: String) -> (host: String, port: UInt16?)? {
    let t = text.lowercased()
    var host = Substring(t)
    var portText: Substring?
    if t.hasPrefix("[") {
      guard let close = t.firstIndex(of: "]") else { return nil }
      host = t[...close]
      let rest = t[t.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        portText = rest.dropFirst()
      }
    } else if let colon = t.lastIndex(of: ":") {
      guard t.firstIndex(of: ":") == colon else { return nil }
      host = t[..<colon]
      portText = t[t.index(after: colon)...]
    }
    guard !host.isEmpty else { return nil }
    var port: UInt16?
    if let portText {
      guard !portText.isEmpty, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let p = UInt16(portText)
      else { return nil }
      port = p
    }
    return (bare(String(host)), port)
  }

  /// Why a request with these headers is refused (the 403's text), or nil.
  /// `query` is the `token` argument, `cookie` the token cookie.
  public func refusal(
    path: String, method: String, host: String?, origin: String?, fetchSite: String?,
    fetchMode: String?, fetchDest: String?, query: String?, cookie: String?
  ) -> String? {
    if let token {
      let given = query ?? cookie
      guard let given, Self.same(given, token) else {
        return "this server needs its token: open the URL that tilt-cli printed "
          + "(http://HOST:\(port)/?token=…)"
      }
    }
    let authority = host.flatMap(Self.authority)
    if loopback {
      guard let authority, allows(authority) else {
        return "the Host \(host ?? "(none)") is not this server's: open http://127.0.0.1:\(port)/"
      }
    }
    if let origin {
      let page = authority.map { ($0.host, $0.port ?? 80) }
      let from = Self.origin(origin)
      guard let page, let from, from.host == page.0, from.port == page.1 else {
        return "the Origin \(origin) is not this page's"
      }
    }
    let site = fetchSite?.lowercased()
    let mode = fetchMode?.lowercased()
    let page = path == "/"
    if let site, site != "same-origin", site != "none" {
      // Another site may link to the page, never embed it nor read the rest.
      let navigation =
        page && (method == "GET" || method == "HEAD") && mode == "navigate"
        && (fetchDest == nil || fetchDest?.lowercased() == "document")
      if !navigation { return "\(path) is not for other sites (Sec-Fetch-Site: \(site))" }
    }
    if !page, mode == "no-cors" {
      return "\(path) is not for no-cors requests (Sec-Fetch-Mode: no-cors)"
    }
    return nil
  }

  /// Whether a `Host` names this loopback server.
  func allows(_ authority: (host: String, port: UInt16?)) -> Bool {
    guard (authority.port ?? 80) == port else { return false }
    let h = authority.host
    return h == "localhost" || h == givenHost || Self.isLoopbackLiteral(h)
  }

  /// An `Origin` (`http://host[:port]`) as host and port, or nil (`null`,
  /// another scheme, malformed).
  static func origin(_ text: String) -> (host: String, port: UInt16)? {
    let t = text.lowercased()
    guard t.hasPrefix("http://") else { return nil }
    guard let a = authority(String(t.dropFirst(7))) else { return nil }
    return (a.host, a.port ?? 80)
  }

  /// Compares in time that does not depend on where they differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var diff = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<y.count { diff |= (i < x.count ? x[i] : 0) ^ y[i] }
    return diff == 0
  }

  /// The page's Content-Security-Policy: nothing but its own inline script
  /// and style (by hash, not `unsafe-inline`), its own server for the event
  /// stream and the controls, and no framing.
  public static func contentSecurityPolicy(page: String) -> String {
    func hashes(_ tag: String) -> String {
      inlineElements(tag, in: page).map { "'sha256-\(SHA256.base64(SHA256.digest($0.utf8)))'" }
        .joined(separator: " ")
    }
    let scripts = hashes("script")
    let styles = hashes("style")
    return "default-src 'none'; script-src \(scripts.isEmpty ? "'none'" : scripts); "
      + "style-src \(styles.isEmpty ? "'none'" : styles); connect-src 'self'; img-src data:; "
      + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  }

  /// The text inside each `<tag …>…</tag>` of `page`, as the browser hashes it.
  static func inlineElements(_ tag: String, in page: String) -> [String] {
    var out: [String] = []
    var rest = page[...]
    while let open = rest.range(of: "<\(tag)") {
      guard let end = rest[open.upperBound...].firstIndex(of: ">") else { break }
      let next = rest[open.upperBound]
      guard next == ">" || next == " " || next == "\n" || next == "\t" else {
        rest = rest[open.upperBound...]
        continue
      }
      let body = rest.index(after: end)
      guard let close = rest[body...].range(of: "</\(tag)") else { break }
      out.append(String(rest[body..<close.lowerBound]))
      rest = rest[close.upperBound...]
    }
    return out
  }
}
