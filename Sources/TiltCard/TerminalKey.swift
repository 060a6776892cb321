/// A key of the terminal view: space flips, `r` recenters, `p` stops and
/// starts updates, `q` quits.
public enum TerminalKey: Hashable, Sendable {
  case flip
  case recenter
  case toggleUpdates
  case quit

  /// The key for one byte read from a terminal in raw mode; `nil` for others.
  /// Ctrl-C (0x03) and Ctrl-D (0x04) quit too, for terminals without `ISIG`.
  public init?(byte: UInt8) {
    switch byte {
    case UInt8(ascii: " "): self = .flip
    case UInt8(ascii: "r"), UInt8(ascii: "R"): self = .recenter
    case UInt8(ascii: "p"), UInt8(ascii: "P"): self = .toggleUpdates
    case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: self = .quit
    default: return nil
    }
  }

  /// What the session does for this key; `nil` for quit, which the caller handles.
  public var sessionCommand: CardSession.Command? {
    switch self {
    case .flip: return .flip
    case .recenter: return .recenter
    case .toggleUpdates: return .toggleUpdates
    case .quit: return nil
    }
  }

  /// The help line of the terminal view.
  public static let helpLine = "space flip · r recenter · p stop/start · q quit"
}
