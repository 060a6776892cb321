import CSystemd

/// One sd-bus message (`sd_bus_message`): a method call received, or a
/// reply or signal being written. It holds a reference for its lifetime.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class BusMessage {
  let pointer: OpaquePointer

  /// Takes over the reference `pointer` carries (a message just made).
  init(taking pointer: OpaquePointer) { self.pointer = pointer }

  /// Adds a reference to `pointer` (a message sd-bus lends to a callback).
  init(borrowing pointer: OpaquePointer) {
    self.pointer = sd_bus_message_ref(pointer)
  }

  deinit { sd_bus_message_unref(pointer) }

  // MARK: A call received

  var path: String { string(sd_bus_message_get_path(pointer)) }
  var interface: String { string(sd_bus_message_get_interface(pointer)) }
  var member: String { string(sd_bus_message_get_member(pointer)) }
  /// The caller's unique name (`:1.42`).
  var sender: String { string(sd_bus_message_get_sender(pointer)) }
  /// The signature of the whole body (`""` for none).
  var signature: String { string(sd_bus_message_get_signature(pointer, 1)) }

  /// Reads the next argument, a `d`.
  func readDouble() throws(BusError) -> Double {
    var value = 0.0
    try checked(
      "sd_bus_message_read_basic",
      sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "d")), &value))
    return value
  }

  /// Reads the next argument, an `s`.
  func readString() throws(BusError) -> String {
    var value: UnsafePointer<CChar>?
    try checked(
      "sd_bus_message_read_basic",
      sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "s")), &value))
    return string(value)
  }

  // MARK: Writing

  /// Appends `value` and what it holds.
  func append(_ value: BusValue) throws(BusError) {
    switch value {
    case .string(let text): try appendString(text, type: "s")
    case .objectPath(let path): try appendString(path, type: "o")
    case .boolean(let flag):
      var int: Int32 = flag ? 1 : 0
      try appendBasic("b", &int)
    case .double(let number):
      var number = number
      try appendBasic("d", &number)
    case .uint64(let number):
      var number = number
      try appendBasic("t", &number)
    case .structure(let fields):
      try open("r", fields.map(\.signature).joined())
      for field in fields { try append(field) }
      try close()
    case .array(let element, let items):
      try open("a", element)
      for item in items { try append(item) }
      try close()
    case .entry(let key, let entryValue):
      try open("e", key.signature + entryValue.signature)
      try append(key)
      try append(entryValue)
      try close()
    case .variant(let inner):
      try open("v", inner.signature)
      try append(inner)
      try close()
    }
  }

  /// Appends a `t` (the Motion signal's hot path: no ``BusValue``).
  func append(_ number: UInt64) throws(BusError) {
    var number = number
    try appendBasic("t", &number)
  }

  /// Appends `(ddd)`, or `(dddd)` with `w` (the Motion signal's hot path).
  func appendStructure(_ x: Double, _ y: Double, _ z: Double, w: Double? = nil) throws(BusError) {
    try open("r", w == nil ? "ddd" : "dddd")
    if var w { try appendBasic("d", &w) }
    var (x, y, z) = (x, y, z)
    try appendBasic("d", &x)
    try appendBasic("d", &y)
    try appendBasic("d", &z)
    try close()
  }

  private func appendBasic<T>(_ type: Unicode.Scalar, _ value: inout T) throws(BusError) {
    try checked(
      "sd_bus_message_append_basic",
      withUnsafePointer(to: &value) {
        sd_bus_message_append_basic(pointer, CChar(type.value), $0)
      })
  }

  private func appendString(_ text: String, type: Unicode.Scalar) throws(BusError) {
    try checked(
      "sd_bus_message_append_basic",
      text.withCString { sd_bus_message_append_basic(pointer, CChar(type.value), $0) })
  }

  private func open(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
    try checked(
      "sd_bus_message_open_container",
      sd_bus_message_open_container(pointer, CChar(type.value), contents))
  }

  private func close() throws(BusError) {
    try checked("sd_bus_message_close_container", sd_bus_message_close_container(pointer))
  }

  private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
  }
}
