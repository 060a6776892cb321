import Foundation
import Motion
import SystemCalls

/// The slots: which device is where, and opening each only while covered.
extension DSUServer {
  /// Opens the devices some subscription covers, closes the others.
  func followSubscriptions() {
    let now = MonotonicInstant.now.secondsValue
    for case let slot? in slots {
      let covered = service.isCovered(slot: slot.index, mac: slot.device.mac, now: now)
      if covered && !slot.isOpen && !slot.openFailed {
        do {
          try slot.open(now: now) { [unowned self] motion in deliver(motion, from: slot) }
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

  /// Finds the devices again: new ones take a slot (their old one when they
  /// come back), gone ones leave theirs disconnected.
  func rescan() {
    let devices = supply.discover()
    for case let slot? in slots
    where !devices.contains(where: { $0.identity == slot.device.identity }) {
      disconnect(slot.index)
    }
    for device in devices where !slots.contains(where: { $0?.device.identity == device.identity }) {
      guard let index = table.assign(device.identity) else {
        onEvent(.noFreeSlot(device))
        continue
      }
      connect(device, in: index)
    }
    followSubscriptions()
  }

  private func connect(_ device: DSUDevice, in index: Int) {
    let slot = DSUSlot(index: index, device: device) { [supply] in supply.makeManager(device) }
    slots[index] = slot
    let battery = batteries.level(of: device, now: MonotonicInstant.now.secondsValue)
    service.slots[index] = device.portInfo(slot: UInt8(index), battery: battery)
    onEvent(.slotConnected(slot: index, device))
    watchNotes(of: slot)
  }

  private func watchNotes(of slot: DSUSlot) {
    // The manager is made when the slot first opens; its notes are hooked then.
    let index = slot.index
    slot.onManager = { [unowned self, unowned slot] manager in
      manager.onNote = { [unowned self] note in
        switch note {
        case .startsFromStoredGyroscopeBias(let stored):
          slot.storedBias = stored.biasDegreesPerSecond
        case .deviceWentAway:
          return  // the slot says it: disconnected
        default: break
        }
        onEvent(.note(slot: index, note))
      }
    }
  }

  func disconnect(_ index: Int) {
    guard let slot = slots[index] else { return }
    let wasOpen = slot.isOpen
    slot.finish()  // keeps the bias a rest confirmed before it went away
    slot.drop()
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

  /// Closes every device and keeps the gyroscope bias a rest confirmed
  /// (``Motion/DeviceMotionConfiguration/gyroBiasStore``), as the end of a
  /// manager's run does.
  public func stop() {
    for case let slot? in slots {
      if slot.isOpen { onEvent(.closed(slot: slot.index)) }
      slot.finish()
    }
  }
}
