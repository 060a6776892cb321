import Foundation
import SystemCalls

/// A JSON value, written in a stable form: the reports' JSON (`devices
/// --json`, `info --json`, `tune --json`, contract §3.7 and §3.9).
///
/// Objects keep their keys in the order given, so output is stable. Numbers
/// that are not finite are written as `null`, since JSON has no spelling for them.
public enum JSONValue: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number; `null` when not finite.
  case number(Double)
  /// A string, escaped as ``writeString(_:to:)`` says.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members in this order.
  case object([(String, JSONValue)])

  /// Values are equal when they serialize alike.
  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

  /// The value as compact JSON text, or indented by two spaces a level with `pretty`.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    let newline = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
    let close = pretty ? "\n" + String(repeating: "  ", count: indent) : ""
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += JSONValue.format(n)
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        out += (i == 0 ? "" : ",") + newline
        item.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      out += close + "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        out += (i == 0 ? "" : ",") + newline
        JSONValue.writeString(key, to: &out)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      out += close + "}"
    }
  }

  /// Integers without a fraction; others with up to 6 significant decimals.
  public static func format(_ n: Double) -> String {
    guard n.isFinite else { return "null" }
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    var text = String(format: "%.6f", n)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
  }

  /// `s` as a JSON string literal, appended to `out`.
  public static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += String(format: "\\u%04x", scalar.value)
      // And what else a terminal would act on (DEL, C1, bidirectional
      // overrides: SystemCalls' `TerminalEscapes`), which JSON allows raw: a
      // device's name in `--json` on a terminal stays inert.
      case _ where !TerminalEscapes.isSafe(String(scalar)):
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

extension JSONValue {
  /// The number, or `null` for `nil`.
  public init(_ value: Double?) { self = value.map(JSONValue.number) ?? .null }
  /// The string, or `null` for `nil`.
  public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
}
