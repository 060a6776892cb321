import Foundation
import SystemCalls

/// The service's status for a person: on a terminal (`live`) one line per
/// device (name, rate, claims, bias) redrawn in place at most 4 times a
/// second; otherwise the changes only, one line each.
public final class ServiceStatusDisplay {
  private let service: MotionBusService
  private let describe: (any Error) -> String
  private let lines: TerminalStatusLines

  /// A display of `service`'s devices. `note` says a message (no line end);
  /// `write` writes status text (text from devices in it: escape it);
  /// `writeControl` writes the cursor moves that erase the drawn lines;
  /// `describe` words an error.
  public init(
    service: MotionBusService, live: Bool,
    describe: @escaping (any Error) -> String = { "\($0)" },
    note: @escaping (String) -> Void, write: @escaping (String) -> Void,
    writeControl: @escaping (String) -> Void
  ) {
    self.service = service
    self.describe = describe
    lines = TerminalStatusLines(live: live, note: note, write: write, writeControl: writeControl)
  }

  /// A service event: said on its own line (above the status on a terminal).
  public func event(_ event: MotionBusService.Event) {
    let text: String
    switch event {
    case .deviceAdded(let number, let path, let name):
      text = "device \(number): \(path) (\"\(name)\")"
    case .deviceRemoved(let number, let path): text = "device \(number): \(path) removed"
    case .claimed(let client, let device, let interval):
      text = "device \(device): \(client) claimed, every \(interval) s"
    case .released(let client, let device): text = "device \(device): \(client) released"
    case .clientLeft(let client): text = "\(client) left the bus; its claims ended"
    case .opened(let device): text = "device \(device): opened"
    case .closed(let device): text = "device \(device): closed"
    case .problem(let device, let error): text = "device \(device): \(describe(error))"
    case .note(let device, let note): text = "device \(device): \(note)"
    case .sendFailed(let error): text = "could not send on the bus: \(describe(error))"
    }
    lines.say(text)
  }

  /// No device at start: why, when some could not be opened (`unreadable`).
  public func noDevices(_ unreadable: [any Error]) {
    if let first = unreadable.first {
      lines.say(
        "no motion device yet; \(unreadable.count) could not be opened: \(describe(first))",
        redrawsAtOnce: false)
    } else {
      lines.say(
        "no motion device yet; ListDevices is empty until one is plugged in", redrawsAtOnce: false)
    }
  }

  /// Redraws the devices' lines on a terminal (at most 4 times a second).
  public func draw() {
    lines.draw { service.status.map(line) }
  }

  /// Leaves the last status on screen.
  public func end() { lines.end() }

  private func line(_ device: MotionBusService.DeviceStatus) -> String {
    let state = device.isOpen ? String(format: "%4.0f Hz", device.samplesPerSecond) : " closed"
    let bias =
      device.biasDegreesPerSecond.map {
        String(format: "bias %.2f %.2f %.2f deg/s (%@)", $0.x, $0.y, $0.z, device.calibration)
      } ?? "bias: \(device.calibration)"
    return "device \(device.number)  \(device.name)  \(state)  "
      + "\(device.claims) claim(s)  \(bias)"
  }
}
