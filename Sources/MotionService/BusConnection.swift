import CSystemd
import PollLoop
import SystemCalls

/// A connection to a message bus through sd-bus, served by the one loop as
/// a participant: its descriptor is watched for input, its timeout is the
/// participant's deadline, and `sd_bus_process` runs in
/// ``service(ready:)`` until nothing is left. No thread, no timer of its own.
///
/// sd-bus's vtables are C macros, so the objects are served by one callback
/// for a whole subtree (`sd_bus_add_fallback`): ``onMethodCall`` sees every
/// call on it and answers each.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class BusConnection: LoopParticipant {
  private let bus: OpaquePointer
  private var subtree: OpaquePointer?
  /// The match on `NameOwnerChanged` of each client whose departure is watched.
  private var departureMatches: [String: OpaquePointer] = [:]
  /// Clients seen leaving during `sd_bus_process`, told after it.
  private var departed: [String] = []
  private var closed = false

  /// Each method call on the subtree; it must answer it (a reply or an error).
  var onMethodCall: (BusMessage) -> Void = { _ in }
  /// A client whose departure is watched left the bus.
  var onDeparture: (String) -> Void = { _ in }

  /// Connects to the session bus (`sd_bus_open_user`: the bus that
  /// `DBUS_SESSION_BUS_ADDRESS` names, else `$XDG_RUNTIME_DIR/bus`).
  init() throws(BusError) {
    var bus: OpaquePointer?
    try checked("sd_bus_open_user", sd_bus_open_user(&bus))
    self.bus = bus!
  }

  deinit { close() }

  /// This connection's unique name (`:1.7`); waits for the bus's answer to
  /// the connection's Hello.
  func uniqueName() throws(BusError) -> String {
    var name: UnsafePointer<CChar>?
    try checked("sd_bus_get_unique_name", sd_bus_get_unique_name(bus, &name))
    return String(cString: name!)
  }

  /// Owns `name`, not queueing for it: `EEXIST` when another connection owns
  /// it. Waits for the bus's answer.
  func requestName(_ name: String) throws(BusError) {
    try checked("sd_bus_request_name", sd_bus_request_name(bus, name, 0))
  }

  /// Calls ``onMethodCall`` for every method call on `path` and below.
  func serve(subtree path: String) throws(BusError) {
    var slot: OpaquePointer?
    try checked(
      "sd_bus_add_fallback",
      sd_bus_add_fallback(
        bus, &slot, path,
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
          connection.onMethodCall(BusMessage(borrowing: message))
          return 1
        }, Unmanaged.passUnretained(self).toOpaque()))
    subtree = slot
  }

  // MARK: Sending

  /// Replies to `call` with `values`.
  func reply(to call: BusMessage, _ values: [BusValue] = []) throws(BusError) {
    var reply: OpaquePointer?
    try checked(
      "sd_bus_message_new_method_return", sd_bus_message_new_method_return(call.pointer, &reply))
    let message = BusMessage(taking: reply!)
    for value in values { try message.append(value) }
    try send(message)
  }

  /// Replies to `call` with the error `name` (`org.freedesktop.DBus.Error.…`) and `text`.
  func reply(to call: BusMessage, error name: String, _ text: String) throws(BusError) {
    var error = tilt_sd_bus_error_null()
    defer { sd_bus_error_free(&error) }
    sd_bus_error_set(&error, name, text)
    try checked("sd_bus_reply_method_error", sd_bus_reply_method_error(call.pointer, &error))
  }

  /// A signal from `path`, to every client that matches it or to
  /// `destination` alone (a unicast signal), with `body` appended by `write`.
  func emit(
    path: String, interface: String, member: String, destination: String? = nil,
    _ write: (BusMessage) throws -> Void
  ) throws {
    var signal: OpaquePointer?
    try checked(
      "sd_bus_message_new_signal",
      sd_bus_message_new_signal(bus, &signal, path, interface, member))
    let message = BusMessage(taking: signal!)
    if let destination {
      try checked(
        "sd_bus_message_set_destination",
        sd_bus_message_set_destination(message.pointer, destination))
    }
    try write(message)
    try send(message)
  }

  private func send(_ message: BusMessage) throws(BusError) {
    try checked("sd_bus_send", sd_bus_send(bus, message.pointer, nil))
  }

  // MARK: Clients leaving

  /// Tells ``onDeparture`` when `client` (a unique name) leaves the bus; at
  /// once (after this turn's processing) when it already has. Waits for the
  /// bus twice: the match is in place before the bus is asked whether the
  /// client is still there, so that no departure falls between.
  func watchDeparture(of client: String) throws(BusError) {
    guard departureMatches[client] == nil else { return }
    let rule =
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(client)'"
    var slot: OpaquePointer?
    try checked(
      "sd_bus_add_match",
      sd_bus_add_match(
        bus, &slot, rule,
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
          connection.nameOwnerChanged(BusMessage(borrowing: message))
          return 0
        }, Unmanaged.passUnretained(self).toOpaque()))
    departureMatches[client] = slot
    if try !hasOwner(client) { departed.append(client) }
  }

  /// Stops watching `client`.
  func forgetDeparture(of client: String) {
    if let slot = departureMatches.removeValue(forKey: client) { sd_bus_slot_unref(slot) }
  }

  private func nameOwnerChanged(_ message: BusMessage) {
    guard let name = try? message.readString(), (try? message.readString()) != nil,
      let newOwner = try? message.readString(), newOwner.isEmpty,
      departureMatches[name] != nil
    else { return }
    departed.append(name)
  }

  /// `org.freedesktop.DBus.NameHasOwner(name)`, waiting for the answer.
  private func hasOwner(_ name: String) throws(BusError) -> Bool {
    var call: OpaquePointer?
    try checked(
      "sd_bus_message_new_method_call",
      sd_bus_message_new_method_call(
        bus, &call, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
        "NameHasOwner"))
    let message = BusMessage(taking: call!)
    try message.append(.string(name))
    var error = tilt_sd_bus_error_null()
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    try checked("sd_bus_call", sd_bus_call(bus, message.pointer, 0, &error, &reply))
    let answer = BusMessage(taking: reply!)
    var owned: Int32 = 0
    try checked(
      "sd_bus_message_read_basic",
      sd_bus_message_read_basic(answer.pointer, CChar(UInt8(ascii: "b")), &owned))
    return owned != 0
  }

  // MARK: The loop

  var pollDescriptors: [Int32] {
    let fd = sd_bus_get_fd(bus)
    return fd >= 0 && !closed ? [fd] : []
  }

  /// sd-bus's own timeout (a call's, or now when messages wait in its
  /// queue); 1 ms while output waits for the socket to take it, since the
  /// loop watches for input only.
  var deadline: MonotonicInstant? {
    guard !closed else { return nil }
    var usec: UInt64 = 0
    var due: MonotonicInstant?
    if sd_bus_get_timeout(bus, &usec) > 0, usec != UInt64.max {
      due = MonotonicInstant(nanoseconds: Int64(clamping: usec) &* 1000)
    }
    if tilt_sd_bus_events_want_output(sd_bus_get_events(bus)) != 0 {
      let soon = MonotonicInstant.now + .milliseconds(1)
      due = min(due ?? soon, soon)
    }
    return due
  }

  /// Processes what the bus has, then tells the departures it saw.
  /// Throws when the connection is lost.
  func service(ready: Set<Int32>) throws {
    guard !closed else { return }
    while try checked("sd_bus_process", sd_bus_process(bus, nil)) > 0 {}
    while !departed.isEmpty {
      let client = departed.removeFirst()
      forgetDeparture(of: client)
      onDeparture(client)
    }
  }

  /// Gives up `name` (when owned), sends what is queued and closes.
  func close(releasing name: String? = nil) {
    guard !closed else { return }
    if let name { sd_bus_release_name(bus, name) }
    for slot in departureMatches.values { sd_bus_slot_unref(slot) }
    departureMatches = [:]
    if let subtree { sd_bus_slot_unref(subtree) }
    subtree = nil
    closed = true
    sd_bus_flush_close_unref(bus)
  }
}
