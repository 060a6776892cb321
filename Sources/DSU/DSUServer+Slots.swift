import Foundation
import Motion
import SystemCalls

/// The slots: which hub device is where, and claiming each only while covered.
extension DSUServer {
  /// Claims the devices some subscription covers, releases the others.
  func followSubscriptions() {
    let now = MonotonicInstant.now.secondsValue
    for case let slot? in slots {
      let covered = service.isCovered(slot: slot.index, mac: slot.device.mac, now: now)
      if covered && !slot.isOpen && !slot.openFailed {
        do {
          try slot.open { [unowned self, unowned slot] motion in deliver(motion, from: slot) }
          onEvent(.opened(slot: slot.index))
        } catch {
          slot.openFailed = true
          slot.close()
          onEvent(.problem(slot: slot.index, slot.device, error))
        }
      } else if !covered && slot.isOpen {
        slot.close()
        onEvent(.closed(slot: slot.index))
      }
    }
  }

  private func deliver(_ motion: DSUMotion, from slot: DSUSlot) {
    let now = MonotonicInstant.now.secondsValue
    for (address, bytes) in service.padData(slot: slot.index, motion: motion, now: now) {
      send(bytes, to: address)
      slot.datagramsSent += 1
    }
  }

  /// What the hub says: a device added takes a slot (its old one when it
  /// comes back), one removed leaves its slot disconnected.
  func hear(_ event: DeviceHub.Event) {
    switch event {
    case .added(let device):
      guard let index = table.assign(device.identity) else {
        onEvent(.noFreeSlot(DSUDevice(device.description)))
        return
      }
      connect(device, in: index)
    case .removed(let device):
      guard let slot = slot(of: device) else { return }
      disconnect(slot.index)
    case .note(let device, let note):
      guard let slot = slot(of: device) else { return }
      if case .deviceWentAway = note { return }  // the slot says it: disconnected
      onEvent(.note(slot: slot.index, note))
    case .problem(let device, let error):
      // Still there but unreadable: released until a new client asks.
      guard let slot = slot(of: device) else { return }
      let wasOpen = slot.isOpen
      slot.openFailed = true
      slot.close()
      if wasOpen { onEvent(.closed(slot: slot.index)) }
      onEvent(.problem(slot: slot.index, slot.device, error))
    case .stateChanged: break
    }
  }

  private func slot(of device: HubDevice) -> DSUSlot? {
    slots.lazy.compactMap { $0 }.first { $0.hubDevice === device }
  }

  private func connect(_ device: HubDevice, in index: Int) {
    let slot = DSUSlot(index: index, hubDevice: device)
    slots[index] = slot
    let battery = batteries.level(of: slot.device, now: MonotonicInstant.now.secondsValue)
    service.slots[index] = slot.device.portInfo(slot: UInt8(index), battery: battery)
    onEvent(.slotConnected(slot: index, slot.device))
  }

  func disconnect(_ index: Int) {
    guard let slot = slots[index] else { return }
    let wasOpen = slot.isOpen
    slot.close()
    if wasOpen { onEvent(.closed(slot: index)) }
    slots[index] = nil
    table.release(index)
    service.slots[index] = .disconnected(slot: UInt8(index))
    onEvent(.slotDisconnected(slot: index, slot.device))
  }

  func refreshBatteries(now: Double) {
    for case let slot? in slots {
      guard var info = service.slots[slot.index] else { continue }
      info.battery = batteries.level(of: slot.device, now: now)
      service.slots[slot.index] = info
    }
  }

  /// Releases every device; a hub of the server's own is finished too
  /// (every device closed, the gyroscope bias a rest confirmed kept:
  /// ``Motion/DeviceMotionConfiguration/gyroBiasStore``), as the end of a
  /// manager's run does.
  public func stop() {
    for case let slot? in slots where slot.isOpen {
      slot.close()
      onEvent(.closed(slot: slot.index))
    }
    if ownsHub { hub.finish() }
  }
}
