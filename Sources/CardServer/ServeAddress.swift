/// Where the live page is served: the `[HOST:]PORT` of `--serve` (contract §6.1).
///
/// HOST defaults to the loopback address 127.0.0.1; an IPv6 address is written
/// in brackets (`[::1]:8080`). PORT 0 asks the kernel for a free port.
public struct ServeAddress: Hashable, Sendable, CustomStringConvertible {
  public var host: String
  public var port: UInt16

  public static let defaultHost = "127.0.0.1"

  public init(host: String = ServeAddress.defaultHost, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// A `[HOST:]PORT` that does not parse, worded for the person who typed it.
  public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// As `--serve` words it.
    public var description: String
    /// What was typed.
    public var text: String
    /// Why it does not parse.
    public var reason: String

    init(text: String, reason: String) {
      self.text = text
      self.reason = reason
      description = ""
      description = described(option: "--serve", example: "8080 or 127.0.0.1:0")
    }

    /// The problem worded for `option` (another command's `[HOST:]PORT`), with `example`.
    public func described(option: String, example: String) -> String {
      "\(option) \(text): \(reason); expected [HOST:]PORT, e.g. \(example)"
    }
  }

  /// Parses `PORT`, `HOST:PORT` or `[IPV6]:PORT`.
  public init(parsing text: String) throws(Problem) {
    func bad(_ why: String) -> Problem { Problem(text: text, reason: why) }
    var host = Self.defaultHost
    var portText = Substring(text)
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { throw bad("no closing ]") }
      host = String(text[text.index(after: text.startIndex)..<close])
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { throw bad("a port must follow ]:") }
      portText = rest.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
      guard text.firstIndex(of: ":") == colon else {
        throw bad("an IPv6 address goes in brackets")
      }
      host = String(text[..<colon])
      portText = text[text.index(after: colon)...]
    }
    guard !host.isEmpty else { throw bad("the host is empty") }
    guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
      let port = UInt16(portText)
    else { throw bad("the port must be a number 0…65535") }
    self.init(host: host, port: port)
  }

  /// `HOST:PORT`, IPv6 hosts in brackets, as in a URL.
  public var description: String {
    (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
  }
}
