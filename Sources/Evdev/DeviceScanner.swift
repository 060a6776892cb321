import SensorData
import SystemCalls

/// One `eventN` node found by `DeviceScanner.scan`.
public struct DiscoveredDevice: Hashable, Sendable {
  /// The node, e.g. `/dev/input/event3`.
  public var path: String
  /// What the device is; `nil` when it could not be opened.
  public var info: DeviceInfo?
  /// Why the node could not be opened (permissions, not an evdev node, gone).
  public var openError: DeviceError?
  /// For a motion node (`INPUT_PROP_ACCELEROMETER`): the node of the same
  /// physical device that has its buttons, when one was found.
  public var pairedButtonPath: String?

  public init(
    path: String, info: DeviceInfo?, openError: DeviceError?, pairedButtonPath: String? = nil
  ) {
    self.path = path
    self.info = info
    self.openError = openError
    self.pairedButtonPath = pairedButtonPath
  }
}

/// Finds the input devices of the machine.
public enum DeviceScanner {
  /// The `eventN` nodes in `directory`, sorted by their number (event2 before
  /// event10), each opened, described and closed again, with motion nodes paired
  /// to their button nodes (`pairButtonNodes`). A missing or unreadable directory
  /// gives an empty list.
  ///
  /// `known` gives the info of nodes the caller holds open already: they are
  /// not opened again (a second open would let their events pile up unread).
  public static func scan(directory: String = "/dev/input", known: [String: DeviceInfo] = [:])
    -> [DiscoveredDevice]
  {
    let names = (try? Syscall.directoryEntries(directory)) ?? []
    let nodes = names.compactMap { name in eventNumber(name).map { (name: name, number: $0) } }
      .sorted { $0.number < $1.number }
    var devices = nodes.map { node -> DiscoveredDevice in
      let path = directory.hasSuffix("/") ? directory + node.name : directory + "/" + node.name
      if let info = known[path] { return DiscoveredDevice(path: path, info: info, openError: nil) }
      do throws(DeviceError) {
        let device = try LiveDevice(path: path)
        defer { device.close() }
        return DiscoveredDevice(path: path, info: device.info, openError: nil)
      } catch {
        return DiscoveredDevice(path: path, info: nil, openError: error)
      }
    }
    let pairs = pairButtonNodes(
      devices.compactMap { device in device.info.map { (device.path, $0) } })
    for index in devices.indices {
      devices[index].pairedButtonPath = pairs[devices[index].path]
    }
    return devices
  }

  /// The number N of a node named `eventN`, else `nil`.
  static func eventNumber(_ name: String) -> Int? {
    guard name.hasPrefix("event") else { return nil }
    let digits = name.dropFirst("event".count)
    guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
    return Int(digits)
  }

  /// Pairs each motion node (`INPUT_PROP_ACCELEROMETER`) with the node that
  /// carries the same device's buttons, as SDL pairs a gamepad with its sensors.
  ///
  /// A button node is one that ``Buttons/isButtonNode(_:)`` says carries a
  /// device's buttons. Candidates, best first:
  /// 1. the same non-empty `uniq` (hid-playstation, hid-nintendo, hid-steam and
  ///    uinput devices copy the HID device's serial or MAC into both nodes);
  /// 2. when neither `uniq` rules it out (they are equal or one is empty): the same
  ///    non-empty `phys` (hid-playstation copies the HID `phys` into both nodes);
  /// 3. likewise, the same `phys` up to its last `/`: "usb-0000:00:14.0-1/input0"
  ///    and "usb-0000:00:14.0-1/input3" are two interfaces of one USB device.
  ///    A `phys` without `/` (a Bluetooth adapter's address, shared by every
  ///    device on it) is only compared whole, in rule 2;
  /// 4. when neither `uniq` nor `phys` rules it out (equal, or one is empty):
  ///    the same vendor and product, and the motion node's name starts with the
  ///    button node's ("DualSense Wireless Controller Motion Sensors", "Nintendo
  ///    Switch Pro Controller (IMU)"). uinput devices need this: uinput cannot set
  ///    `uniq`, and libevdev's uinput helper leaves `phys` empty.
  /// Ties go to the node listed first, in rule 4 to the node listed nearest the
  /// motion node (drivers create the two back to back). Returns motion path →
  /// button path.
  public static func pairButtonNodes(_ devices: [(path: String, info: DeviceInfo)]) -> [String:
    String]
  {
    let buttonNodes = devices.filter { Buttons.isButtonNode($0.info) }
    var pairs: [String: String] = [:]
    for motion in devices where motion.info.has(property: InputProperty.accelerometer) {
      let info = motion.info
      let compatible = buttonNodes.filter { candidate in
        candidate.path != motion.path
          && (info.uniq.isEmpty || candidate.info.uniq.isEmpty || info.uniq == candidate.info.uniq)
      }
      let byUniq = compatible.first { !info.uniq.isEmpty && $0.info.uniq == info.uniq }
      let byPhys = compatible.first { !info.phys.isEmpty && $0.info.phys == info.phys }
      let byPhysPrefix = physPrefix(info.phys).flatMap { prefix in
        compatible.first { physPrefix($0.info.phys) == prefix }
      }
      let byName = compatible.filter { candidate in
        !physRulesOut(info.phys, candidate.info.phys) && candidate.info.id.vendor == info.id.vendor
          && candidate.info.id.product == info.id.product && !candidate.info.name.isEmpty
          && info.name.hasPrefix(candidate.info.name)
      }.min {
        distance($0.path, motion.path, in: devices) < distance($1.path, motion.path, in: devices)
      }
      if let button = byUniq ?? byPhys ?? byPhysPrefix ?? byName {
        pairs[motion.path] = button.path
      }
    }
    return pairs
  }

  /// Whether two non-empty `phys` say the nodes belong to different devices.
  private static func physRulesOut(_ a: String, _ b: String) -> Bool {
    !a.isEmpty && !b.isEmpty && a != b && (physPrefix(a) == nil || physPrefix(a) != physPrefix(b))
  }

  /// How far apart two paths are listed.
  private static func distance(
    _ a: String, _ b: String, in devices: [(path: String, info: DeviceInfo)]
  ) -> Int {
    let indexA = devices.firstIndex { $0.path == a } ?? 0
    let indexB = devices.firstIndex { $0.path == b } ?? 0
    return abs(indexA - indexB)
  }

  /// `phys` up to (not including) its last `/`, or `nil` without a `/` or
  /// with nothing before it.
  static func physPrefix(_ phys: String) -> String? {
    guard let slash = phys.lastIndex(of: "/"), slash != phys.startIndex else { return nil }
    return String(phys[..<slash])
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
