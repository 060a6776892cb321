import Evdev
import Foundation
import SystemCalls

/// A server's status for a person: on a terminal (`live`) one line per slot
/// (device, rate, clients, datagrams sent, bias) redrawn in place at most 4
/// times a second; otherwise the changes only, one line each.
public final class DSUStatusDisplay {
  private let server: DSUServer
  private let describe: (any Error) -> String
  private let lines: TerminalStatusLines

  /// A display of `server`'s slots. `note` says a message (no line end);
  /// `write` writes status text (text from devices in it: escape it);
  /// `writeControl` writes the cursor moves that erase the drawn lines;
  /// `describe` words a slot's error.
  public init(
    server: DSUServer, live: Bool, describe: @escaping (any Error) -> String = { "\($0)" },
    note: @escaping (String) -> Void, write: @escaping (String) -> Void,
    writeControl: @escaping (String) -> Void
  ) {
    self.server = server
    self.describe = describe
    lines = TerminalStatusLines(live: live, note: note, write: write, writeControl: writeControl)
  }

  /// A server event: said on its own line (above the status on a terminal).
  public func event(_ event: DSUServer.Event) {
    let text: String?
    switch event {
    case .slotConnected(let slot, let device):
      text = "slot \(slot): \(device.path) (\"\(device.name)\")"
    case .slotDisconnected(let slot, let device):
      text = "slot \(slot): \(device.path) disconnected"
    case .subscribed(let client): text = "client \(client) subscribed"
    case .lapsed(let client): text = "client \(client) lapsed"
    case .opened(let slot): text = "slot \(slot): opened"
    case .closed(let slot): text = "slot \(slot): closed"
    case .problem(let slot, _, let error):
      text = "slot \(slot): \(describe(error))"
    case .note(let slot, let note): text = "slot \(slot): \(note)"
    case .noFreeSlot(let device):
      text = "\(device.path) (\"\(device.name)\"): all 4 slots are taken; it is not served"
    }
    guard let text else { return }
    lines.say(text)
  }

  /// No slot at start: why, when devices could not be opened.
  public func noDevices(_ unreadable: [DeviceError]) {
    if let first = unreadable.first {
      lines.say(
        "no motion device yet; \(unreadable.count) could not be opened: \(describe(first))",
        redrawsAtOnce: false)
    } else {
      lines.say(
        "no motion device yet; serving empty slots until one is plugged in", redrawsAtOnce: false)
    }
  }

  /// Redraws the slots' lines on a terminal (at most 4 times a second).
  public func draw() {
    lines.draw { server.status.map(line) }
  }

  /// Leaves the last status on screen.
  public func end() { lines.end() }

  private func line(_ slot: DSUServer.SlotStatus) -> String {
    let state = slot.isOpen ? String(format: "%4.0f Hz", slot.samplesPerSecond) : " closed"
    let bias =
      slot.storedBiasDegreesPerSecond.map {
        String(format: "bias %.2f %.2f %.2f deg/s stored, then learned at rest", $0.x, $0.y, $0.z)
      } ?? "bias learned at rest (none stored)"
    return "slot \(slot.slot)  \(slot.device.name)  \(state)  \(slot.clients) client(s)  "
      + "\(slot.datagramsSent) sent  \(bias)"
  }
}
