import Evdev
import SensorData
import Foundation
import JSON
import Motion

/// The card's flip button for a device (`Buttons.primary(among:)`
/// of its keys): what `info` says as `flip:`.
public struct FlipReport {
  /// The flip buttons, lowest code first.
  public var codes: [UInt16]
  /// The paired button node they are on, when not the node itself.
  public var pairedNode: String?

  /// The flip buttons among `keys`, on `pairedNode` when not the node itself.
  public init(keys: Set<UInt16>, pairedNode: String?) {
    codes = Buttons.primary(among: keys).sorted()
    self.pairedNode = pairedNode
  }

  /// A live node with the buttons of the node it pairs with, as `live` opens them.
  public init(live path: String, info: DeviceInfo, profile: DeviceProfile) {
    let paired = DeviceSetup.pairedButtons(of: path, info: info)
    self.init(
      keys: DeviceSetup.buttons(profile: profile, pairedButtons: paired.info),
      pairedNode: paired.info == nil ? nil : paired.path)
  }

  /// The buttons' names (`BTN_SOUTH`).
  public var names: [String] {
    codes.map {
      EventNames.codeName(type: EventType.key, code: $0) ?? "BTN_0x\(String($0, radix: 16))"
    }
  }

  /// What `info` says after `flip:`.
  public var text: String {
    guard !codes.isEmpty else { return "none (no button to flip with; the space key flips)" }
    return names.joined(separator: ", ") + (pairedNode.map { " (on \($0))" } ?? "")
  }

  /// The `flipButtons` and `flipButtonNode` keys of `info --json`.
  public var jsonMembers: [(String, JSONValue)] {
    [
      ("flipButtons", .array(names.map { .string($0) })),
      ("flipButtonNode", JSONValue(pairedNode)),
    ]
  }
}
