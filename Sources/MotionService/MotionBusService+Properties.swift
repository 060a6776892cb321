import Attitude
import Motion
import SystemCalls

/// The properties: their values, `org.freedesktop.DBus.Properties`, and
/// `PropertiesChanged` for each change.
extension MotionBusService {
  /// The device properties whose changes are announced.
  static let changingProperties = [
    "Claimed", "Rate", "Orientation", "GyroscopeBias", "Calibration",
  ]

  /// Every property of a device, in the introspection's order.
  func deviceProperties(_ served: ServedDevice) -> [String: BusValue] {
    let device = served.device
    let bias = device.gyroscopeBiasDegreesPerSecond ?? Vector3(0, 0, 0)
    return [
      "Name": .string(TerminalEscapes.escaped(device.name)),
      "Kind": .string(device.kind.rawValue),
      "Node": .string(device.path),
      "HasGyroscope": .boolean(device.hasGyroscope),
      "Claimed": .boolean(device.claimCount > 0),
      "Rate": .double(device.isOpen ? device.samplesPerSecond(now: LoopClock.now()) : 0),
      "Orientation": .string(
        device.isOpen
          ? served.orientation.orientation.rawValue : DeviceOrientation.undefined.rawValue),
      "GyroscopeBias": .triple(bias.x, bias.y, bias.z),
      "Calibration": .string(device.calibration.rawValue),
    ]
  }

  static let devicePropertyOrder = [
    "Name", "Kind", "Node", "HasGyroscope", "Claimed", "Rate", "Orientation", "GyroscopeBias",
    "Calibration",
  ]

  private func properties(of interface: String, on object: ServedDevice?) -> [(String, BusValue)]? {
    switch (interface, object) {
    case (MotionInterface.managerInterface, nil): [("Version", .string(version))]
    case (MotionInterface.deviceInterface, let device?):
      Self.devicePropertyOrder.map { ($0, deviceProperties(device)[$0]!) }
    default: nil
    }
  }

  /// Get, GetAll and Set of `org.freedesktop.DBus.Properties`.
  /// `objectInterface` is the object's own (none for a plain node), and
  /// `device` its device.
  func answerProperties(
    _ call: BusMessage, member: String, objectInterface: String?, device: ServedDevice?
  ) throws(BusError) -> Failure? {
    switch member {
    case "Get":
      if let failure = Self.expect(call, "ss") { return failure }
      let interface = try call.readString()
      let name = try call.readString()
      guard interface.isEmpty || interface == objectInterface,
        let all = objectInterface.flatMap({ properties(of: $0, on: device) })
      else {
        return Failure(
          name: MotionInterface.StandardError.unknownInterface,
          text: "Unknown interface '\(interface)'.")
      }
      guard let value = all.first(where: { $0.0 == name })?.1 else {
        return Failure(
          name: MotionInterface.StandardError.unknownProperty,
          text: "Unknown property '\(name)'.")
      }
      try bus.reply(to: call, [.variant(value)])
      return nil
    case "GetAll":
      if let failure = Self.expect(call, "s") { return failure }
      let interface = try call.readString()
      guard interface.isEmpty || interface == objectInterface else {
        return Failure(
          name: MotionInterface.StandardError.unknownInterface,
          text: "Unknown interface '\(interface)'.")
      }
      let all = objectInterface.flatMap { properties(of: $0, on: device) } ?? []
      try bus.reply(to: call, [.dictionary(all)])
      return nil
    case "Set":
      if let failure = Self.expect(call, "ssv") { return failure }
      return Failure(
        name: MotionInterface.StandardError.propertyReadOnly,
        text: "The properties of \(call.path) are read-only.")
    default:
      return Failure(
        name: MotionInterface.StandardError.unknownMethod,
        text: "Unknown method \(member) of org.freedesktop.DBus.Properties.")
    }
  }

  /// Sends `PropertiesChanged` for what changed since the last announcement;
  /// the rate only when `rate` (on open and close, and once a second while open).
  func announce(_ served: ServedDevice, rate: Bool) {
    let now = LoopClock.now()
    let current = deviceProperties(served)
    var changed: [(String, BusValue)] = []
    for name in Self.changingProperties where current[name] != served.announced[name] {
      if name == "Rate" && !rate { continue }
      changed.append((name, current[name]!))
      served.announced[name] = current[name]
    }
    served.announcedOpen = served.device.isOpen
    if !served.device.isOpen {
      served.nextRateAnnouncement = nil
    } else if rate || served.nextRateAnnouncement == nil {
      served.nextRateAnnouncement = now + 1
    }
    guard !changed.isEmpty else { return }
    send {
      try bus.emit(
        path: served.path, interface: "org.freedesktop.DBus.Properties",
        member: "PropertiesChanged"
      ) {
        try $0.append(.string(MotionInterface.deviceInterface))
        try $0.append(.dictionary(changed))
        try $0.append(.array(element: "s", []))
      }
    }
  }
}
