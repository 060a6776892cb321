import Attitude
import Motion

/// The method calls: each gets a reply or an error, and none stops the service.
extension MotionBusService {
  /// One method call on the subtree, answered.
  func answer(_ call: BusMessage) {
    send {
      if let failure = try dispatch(call) {
        try bus.reply(to: call, error: failure.name, failure.text)
      }
    }
  }

  /// An error reply: its D-Bus name and its text.
  struct Failure {
    var name: String
    var text: String
  }

  private enum Object {
    case manager
    case devices
    case device(ServedDevice)

    var device: ServedDevice? {
      if case .device(let device) = self { device } else { nil }
    }

    var interface: String? {
      switch self {
      case .manager: MotionInterface.managerInterface
      case .devices: nil
      case .device: MotionInterface.deviceInterface
      }
    }
  }

  /// Answers `call`, or returns the error to reply.
  private func dispatch(_ call: BusMessage) throws(BusError) -> Failure? {
    let path = call.path
    let object: Object
    if path == MotionInterface.managerPath {
      object = .manager
    } else if path == MotionInterface.devicesPath {
      object = .devices
    } else if let device = servedDevice(at: path) {
      object = .device(device)
    } else {
      return Failure(
        name: MotionInterface.StandardError.unknownObject, text: "Unknown object '\(path)'.")
    }
    let member = call.member
    var interface = call.interface
    // A call may leave out the interface: the member names it then.
    if interface.isEmpty {
      interface = Self.interface(of: member, on: object.interface) ?? ""
    }
    switch (interface, member) {
    case ("org.freedesktop.DBus.Introspectable", "Introspect"):
      if let failure = Self.expect(call, "") { return failure }
      try bus.reply(to: call, [.string(introspection(of: object))])
      return nil
    case ("org.freedesktop.DBus.Properties", _):
      return try answerProperties(
        call, member: member, objectInterface: object.interface, device: object.device)
    default:
      break
    }
    guard let objectInterface = object.interface, interface == objectInterface else {
      return Failure(
        name: interface.isEmpty || interface == MotionInterface.managerInterface
          || interface == MotionInterface.deviceInterface
          ? MotionInterface.StandardError.unknownMethod
          : MotionInterface.StandardError.unknownInterface,
        text: "Unknown method \(member) or interface \(interface).")
    }
    switch (object, member) {
    case (.manager, "ListDevices"):
      if let failure = Self.expect(call, "") { return failure }
      // A closed device has no descriptor to tell that it went away.
      hub.rescanIfClosedDeviceWentAway()
      let paths = hub.devices.compactMap { served[$0.number]?.path }
      try bus.reply(to: call, [.array(element: "o", paths.map { .objectPath($0) })])
      return nil
    case (.device(let device), "Claim"):
      if let failure = Self.expect(call, "d") { return failure }
      return try claim(call, device, interval: call.readDouble())
    case (.device(let device), "Release"):
      if let failure = Self.expect(call, "") { return failure }
      release(call.sender, on: device)
      try bus.reply(to: call)
      return nil
    case (.device(let device), "Recenter"):
      if let failure = Self.expect(call, "") { return failure }
      // Without a claim there is no reference to move: nothing to do.
      device.claims[call.sender]?.reference = device.latestAttitude
      try bus.reply(to: call)
      return nil
    default:
      return Failure(
        name: MotionInterface.StandardError.unknownMethod,
        text: "Unknown method \(member) or interface \(interface).")
    }
  }

  /// `Claim(d interval)`: a new claim, or a new interval for the caller's.
  private func claim(_ call: BusMessage, _ device: ServedDevice, interval: Double) throws(BusError)
    -> Failure?
  {
    guard Self.intervals.contains(interval) else {
      return Failure(
        name: MotionInterface.ErrorName.invalidInterval,
        text: "The interval is \(interval) s; a claim takes 0.001 to 1 s.")
    }
    let client = call.sender
    if let existing = device.claims[client] {
      existing.pacer.interval = interval
    } else {
      guard claimCount < Self.maximumClaims else {
        return Failure(
          name: MotionInterface.ErrorName.tooManyClaims,
          text: "\(Self.maximumClaims) claims are held already; release one first.")
      }
      try bus.watchDeparture(of: client)
      device.claims[client] = ClientClaim(client: client, interval: interval)
    }
    if device.hubClaim == nil {
      do {
        device.hubClaim = try device.device.claim { [unowned self, unowned device] in
          deliver($0, from: device)
        }
      } catch {
        device.claims[client] = nil
        return Failure(
          name: MotionInterface.StandardError.failed,
          text: "\(device.device.path) cannot be opened: \(error)")
      }
    }
    onEvent(.claimed(client: client, device: device.device.number, interval: interval))
    try bus.reply(to: call)
    return nil
  }

  /// The device whose object is at `path`, when it is served.
  private func servedDevice(at path: String) -> ServedDevice? {
    let prefix = MotionInterface.devicesPath + "/"
    guard path.hasPrefix(prefix), let number = Int(path.dropFirst(prefix.count)),
      String(number) == path.dropFirst(prefix.count)
    else { return nil }
    return served[number]
  }

  private func introspection(of object: Object) -> String {
    switch object {
    case .manager:
      MotionInterface.introspection(interface: MotionInterface.managerXML, children: ["devices"])
    case .devices:
      MotionInterface.introspection(
        interface: nil,
        children: hub.devices.filter { served[$0.number] != nil }.map { "\($0.number)" })
    case .device:
      MotionInterface.introspection(interface: MotionInterface.deviceXML, children: [])
    }
  }

  /// The interface of `member` on an object of `interface`, for a call without one.
  private static func interface(of member: String, on interface: String?) -> String? {
    switch member {
    case "Introspect": "org.freedesktop.DBus.Introspectable"
    case "Get", "GetAll", "Set": "org.freedesktop.DBus.Properties"
    default: interface
    }
  }

  /// `InvalidArgs` unless `call`'s arguments are of `signature`.
  static func expect(_ call: BusMessage, _ signature: String) -> Failure? {
    let actual = call.signature
    guard actual != signature else { return nil }
    return Failure(
      name: MotionInterface.StandardError.invalidArgs,
      text: "Invalid arguments '\(actual)' to call \(call.interface).\(call.member)(), "
        + "expecting '\(signature)'.")
  }
}
