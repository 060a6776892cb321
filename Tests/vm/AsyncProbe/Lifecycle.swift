import Foundation
import Motion
import SystemCalls

// `tilt-async-probe lifecycle DEVICE`: one DeviceMotionManager on DEVICE (an
// evdev node or /dev/iio:deviceN), not waiting for a device that goes away.
// Commands come on stdin, one a line (`start`, `stop`), read by a participant
// of the manager's own loop. Prints `lifecycle EVENT t=SECONDS` for each
// LifecycleEvent (CLOCK_MONOTONIC) and `update N` for each update; when the
// device goes away, `gone` and exit 0; at the end of stdin, `ended`.

/// Reads `start` and `stop` lines from stdin within the manager's loop.
final class CommandReader: LoopParticipant {
  let manager: DeviceMotionManager
  let onUpdate: () -> Void
  private var pending: [UInt8] = []
  private var atEnd = false

  init(_ manager: DeviceMotionManager, onUpdate: @escaping () -> Void) {
    self.manager = manager
    self.onUpdate = onUpdate
  }

  var pollDescriptors: [Int32] { atEnd ? [] : [0] }
  var deadline: MonotonicInstant? { nil }

  func service(ready: Set<Int32>) throws {
    guard ready.contains(0) else { return }
    let bytes = Syscall.readAvailable(0, limit: 256)
    if bytes.isEmpty {
      atEnd = true
      manager.requestEnd()
      return
    }
    pending += bytes
    while let newline = pending.firstIndex(of: 10) {
      let line = String(decoding: pending[..<newline], as: UTF8.self)
      pending.removeFirst(newline + 1)
      try perform(line.trimmingCharacters(in: .whitespaces))
    }
  }

  private func perform(_ command: String) throws {
    switch command {
    case "start": try manager.startDeviceMotionUpdates { [onUpdate] _ in onUpdate() }
    case "stop": try manager.stopDeviceMotionUpdates()
    case "": break
    default: complain("tilt-async-probe: unknown command \(command) (want start or stop)\n")
    }
  }
}

/// Runs the manager on `device` until it goes away or stdin ends.
func lifecycle(device: String) throws {
  let manager = DeviceMotionManager(.device(path: device))
  manager.waitsForReconnect = false
  manager.deviceMotionUpdateInterval = 0.05
  manager.onLifecycle = { say("lifecycle \($0) t=\(String(format: "%.6f", monotonicSeconds()))") }
  var updates = 0
  manager.participants.append(
    CommandReader(manager) {
      updates += 1
      say("update \(updates)")
    })
  say("ready")
  do {
    try manager.run()
    say("ended")
  } catch MotionError.deviceGone(let path) {
    say("gone \(path)")
  }
}
