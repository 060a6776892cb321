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

  /// What ``CardSession`` does for this key; `nil` for quit, which the caller handles.
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

/// What the terminal's input asks of the view: one of its keys, or the
/// whole screen drawn again (Ctrl-L, as in every full-screen terminal
/// program: after something else wrote over it).
public enum TerminalInput: Hashable, Sendable {
  /// A key of the view.
  case key(TerminalKey)
  /// Ctrl-L: draw the whole screen again.
  case redraw

  /// The byte of Ctrl-L (form feed).
  public static let redrawByte: UInt8 = 0x0C
}

/// Terminal input bytes to keys, skipping escape sequences: a function key
/// (F1 is `ESC O P`), an arrow, Alt with a key, or a terminal's report
/// carries letters that are not keys of the view (F2's `Q` would quit).
/// Keeps its state across reads, since a sequence may be split between them.
public struct TerminalKeyDecoder: Sendable {
  private enum State: Sendable {
    case ground, escape, controlSequence, singleShift, string, stringEscape
  }
  private var state = State.ground

  public init() {}

  /// The keys in `bytes`, one read's worth. A lone ESC at the end of a read
  /// is the Esc key, which is no key of the view: it starts no sequence.
  public mutating func keys(in bytes: some Sequence<UInt8>) -> [TerminalKey] {
    inputs(in: bytes).compactMap {
      if case .key(let key) = $0 { return key }
      return nil
    }
  }

  /// The keys and the redraws (Ctrl-L) in `bytes`, one read's worth, in order.
  public mutating func inputs(in bytes: some Sequence<UInt8>) -> [TerminalInput] {
    var keys: [TerminalInput] = []
    for byte in bytes {
      switch state {
      case .ground:
        if byte == 0x1B {
          state = .escape
        } else if byte == TerminalInput.redrawByte {
          keys.append(.redraw)
        } else if let key = TerminalKey(byte: byte) {
          keys.append(.key(key))
        }
      case .escape:
        switch byte {
        case UInt8(ascii: "["): state = .controlSequence
        case UInt8(ascii: "O"): state = .singleShift
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"):
          state = .string
        case 0x1B: state = .escape
        default: state = .ground  // Alt with a key
        }
      case .controlSequence:
        // Parameters and intermediates (0x20–0x3F) until a final byte.
        if byte == 0x1B {
          state = .escape
        } else if (0x40...0x7E).contains(byte) {
          state = .ground
        }
      case .singleShift:
        state = .ground
      case .string:
        if byte == 0x07 { state = .ground } else if byte == 0x1B { state = .stringEscape }
      case .stringEscape:
        state = byte == UInt8(ascii: "\\") ? .ground : .string
      }
    }
    if state == .escape { state = .ground }
    return keys
  }
}
