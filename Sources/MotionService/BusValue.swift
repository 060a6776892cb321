/// A D-Bus value with its type: what a property holds, what a reply or a
/// signal carries. Only the types of the `org.tilt.Motion1` interfaces.
public indirect enum BusValue: Hashable, Sendable {
  /// `s`
  case string(String)
  /// `o`
  case objectPath(String)
  /// `b`
  case boolean(Bool)
  /// `d`
  case double(Double)
  /// `t`
  case uint64(UInt64)
  /// `(…)`, its fields in order.
  case structure([BusValue])
  /// `a…`, with the element's signature (an empty array has no element to ask).
  case array(element: String, [BusValue])
  /// `{…}`, an entry of a dictionary (an array of entries).
  case entry(BusValue, BusValue)
  /// `v`
  case variant(BusValue)

  /// The D-Bus signature of the value.
  public var signature: String {
    switch self {
    case .string: "s"
    case .objectPath: "o"
    case .boolean: "b"
    case .double: "d"
    case .uint64: "t"
    case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
    case .array(let element, _): "a" + element
    case .entry(let key, let value): "{" + key.signature + value.signature + "}"
    case .variant: "v"
    }
  }

  /// `a{sv}` of `properties`, in the order given.
  static func dictionary(_ properties: [(String, BusValue)]) -> BusValue {
    .array(element: "{sv}", properties.map { .entry(.string($0.0), .variant($0.1)) })
  }

  /// `(ddd)` of three numbers.
  static func triple(_ x: Double, _ y: Double, _ z: Double) -> BusValue {
    .structure([.double(x), .double(y), .double(z)])
  }
}
