import Attitude
import Foundation
import Motion
import SystemCalls

/// The DSU ("cemuhook") server of SPEC §7: one UDP socket and the motion
/// devices of up to four slots, all on one ``Motion/EventLoop`` as one
/// participant.
///
/// A slot's device is opened only while some client's subscription covers
/// it and closed when the last one lapses; with none, the server asks the
/// loop for its socket (and the input directory's watch) alone, with no
/// deadline: the process sleeps. Version and port-info requests are answered
/// from what discovery found, opening nothing.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class DSUServer: LoopParticipant {
  /// Something to tell the person running the server.
  public enum Event: Sendable {
    case slotConnected(slot: Int, DSUDevice)
    case slotDisconnected(slot: Int, DSUDevice)
    /// A client's first pad-data request; `client` is `HOST:PORT`.
    case subscribed(client: String)
    /// A client's subscriptions all lapsed.
    case lapsed(client: String)
    case opened(slot: Int)
    case closed(slot: Int)
    /// A device could not be opened or read (the error says why).
    case problem(slot: Int, DSUDevice, any Error)
    /// A note of a slot's motion manager.
    case note(slot: Int, MotionNote)
    /// A device was found but all four slots are taken.
    case noFreeSlot(DSUDevice)
  }

  /// What one slot shows in the status.
  public struct SlotStatus: Sendable {
    public var slot: Int
    public var device: DSUDevice
    public var isOpen: Bool
    public var samplesPerSecond: Double
    public var clients: Int
    public var datagramsSent: Int
    /// The gyroscope bias the fusion started from (deg/s, card frame), when one was stored.
    public var storedBiasDegreesPerSecond: Vector3?
  }

  /// `HOST:PORT` as bound (`[::1]:26760` for IPv6).
  public let address: String
  /// Where events go; nowhere by default.
  public var onEvent: (Event) -> Void = { _ in }

  private let socket: UDPSocket
  private let service: DSUService
  private let source: DSUServerSource
  private let deviceConfiguration: DeviceMotionConfiguration
  private var watch: DeviceWatch?
  private var table = DSUSlotTable()
  private var slots: [DSUSlot?] = Array(repeating: nil, count: DSUProtocol.slotCount)
  private var batteries = BatteryCache()
  private var started = false

  /// Binds `host:port` (an IP literal) and finds the devices; nothing is
  /// opened until a client subscribes. `allowList` must already say who may
  /// be answered (``DSUServerSource`` for what is served).
  public init(
    host: String, port: UInt16, allowList: AllowList, source: DSUServerSource,
    deviceConfiguration: DeviceMotionConfiguration = .init(),
    serverID: UInt32 = .random(in: 1...UInt32.max)
  ) throws {
    guard let bindAddress = SocketAddress(numericHost: host, port: port) else {
      throw DSUServerError.notAnAddress(host)
    }
    do {
      socket = try UDPSocket(binding: bindAddress)
    } catch let errno where errno == .addressInUse {
      throw DSUServerError.addressInUse(host: host, port: port)
    } catch {
      throw DSUServerError.cannotListen(host: host, port: port, error)
    }
    let bound = socket.boundAddress
    let shownHost = bound.family == .ipv6 ? "[\(host)]" : host
    address = "\(shownHost):\(bound.port)"
    service = DSUService(serverID: serverID, allowList: allowList)
    self.source = source
    var configuration = deviceConfiguration
    // The accelerometer reading comes back as user acceleration minus gravity
    // exactly only when the attitude is not smoothed.
    configuration.motion.filter = .none
    self.deviceConfiguration = configuration
  }

  /// The port bound (the one the kernel chose for port 0).
  public var port: UInt16 { socket.boundAddress.port }

  /// Finds the devices and fills the slots (events for each); call once
  /// before the loop runs, after ``onEvent`` is set.
  public func start() {
    guard !started else { return }
    started = true
    if case .live = source, watch == nil {
      watch = try? DeviceWatch(directory: DeviceChoice.inputDirectory)
    }
    rescan()
  }

  /// What the status shows, one entry per slot that holds a device.
  public var status: [SlotStatus] {
    let now = MonotonicInstant.now.secondsValue
    return slots.compactMap { slot in
      slot.map {
        SlotStatus(
          slot: $0.index, device: $0.device, isOpen: $0.isOpen,
          samplesPerSecond: $0.samplesPerSecond(now: now),
          clients: service.subscriberCount(slot: $0.index, now: now),
          datagramsSent: $0.datagramsSent, storedBiasDegreesPerSecond: $0.storedBias)
      }
    }
  }

  /// What was dropped and sent.
  public var counters: DSUCounters { service.counters }

  /// Whether any slot's device is open now.
  public var hasOpenDevice: Bool { slots.contains { $0?.isOpen == true } }

  // MARK: The loop

  public var pollDescriptors: [Int32] {
    [socket.fileDescriptor] + (watch.map { [$0.fileDescriptor] } ?? [])
      + slots.flatMap { $0?.manager?.pollDescriptors ?? [] }
  }

  public var deadline: MonotonicInstant? {
    let lapse = service.nextLapse.map { MonotonicInstant(secondsValue: $0) }
    let managers = slots.compactMap { $0?.manager?.deadline }
    return ([lapse].compactMap { $0 } + managers).min()
  }

  public func service(ready: Set<Int32>) throws {
    if ready.contains(socket.fileDescriptor) { try readDatagrams() }
    if let watch, ready.contains(watch.fileDescriptor), watch.changed() { rescan() }
    let now = MonotonicInstant.now
    for case let slot? in slots {
      guard let manager = slot.manager, slot.isOpen else { continue }
      let mine = ready.intersection(manager.pollDescriptors)
      // The deadline first, then the clock: a manager due "now" is served.
      let due = manager.deadline.map { $0 <= MonotonicInstant.now } ?? false
      guard !mine.isEmpty || due else { continue }
      do {
        try manager.service(ready: mine)
      } catch {
        if case TiltError.deviceGone = error {
        } else {
          onEvent(.problem(slot: slot.index, slot.device, error))
        }
        disconnect(slot.index)
      }
    }
    for change in service.expire(now: now.secondsValue) { report(change) }
    followSubscriptions()
  }

  /// Reads every datagram waiting (at most 256 a turn, so that a flood
  /// cannot starve the devices) and answers what must be answered.
  private func readDatagrams() throws {
    for _ in 0..<256 {
      guard let (bytes, sender) = try socket.receive() else { return }
      guard let sender, service.admits(sender) else { continue }
      let now = MonotonicInstant.now.secondsValue
      if isPortInfo(bytes) {
        refreshBatteries(now: now)
        if case .live = source, closedDeviceWentAway { rescan() }
      }
      let (answers, change) = service.receive(bytes, from: sender, now: now)
      for answer in answers { send(answer, to: sender) }
      if let change { report(change) }
    }
  }

  /// Whether the node of a closed slot's device is gone: the input
  /// directory's watch tells of new nodes, not of removed ones, and a closed
  /// device has no descriptor to fail; port-info requests (an emulator asks
  /// about once a second) are when it matters.
  private var closedDeviceWentAway: Bool {
    slots.contains { slot in
      guard let slot, !slot.isOpen else { return false }
      return !FileManager.default.fileExists(atPath: slot.device.path)
    }
  }

  private func isPortInfo(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 20 && bytes[16] == 0x01 && bytes[17] == 0 && bytes[18] == 0x10
  }

  private func send(_ bytes: [UInt8], to address: SocketAddress) {
    let sent = (try? socket.send(bytes, to: address)) ?? false
    service.countSent(sent)
  }

  private func report(_ change: DSUService.Change) {
    switch change {
    case .subscribed(let address): onEvent(.subscribed(client: Self.text(address)))
    case .lapsed(let address): onEvent(.lapsed(client: Self.text(address)))
    }
  }

  static func text(_ address: SocketAddress) -> String {
    var bytes = address.bytes
    var family = address.family
    if address.isIPv4Mapped {
      bytes = Array(bytes[12...])
      family = .ipv4
    }
    if family == .ipv4 { return bytes.map(String.init).joined(separator: ".") + ":\(address.port)" }
    let groups = stride(from: 0, to: 16, by: 2).map {
      String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
    }
    return "[\(groups.joined(separator: ":"))]:\(address.port)"
  }

  // MARK: Slots

  /// Opens the devices some subscription covers, closes the others.
  private func followSubscriptions() {
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
  private func rescan() {
    let devices: [DSUDevice]
    switch source {
    case .live(let named): devices = DSUDiscovery.scan(named: named).devices
    case .recording(let path):
      devices = [DSUDevice.recording(path: path, configuration: deviceConfiguration)]
    }
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
    let configuration = deviceConfiguration
    let slot = DSUSlot(index: index, device: device) { [source] in
      switch source {
      case .live:
        return DeviceMotionManager(.device(path: device.path), configuration: configuration)
      case .recording(let path):
        return DeviceMotionManager(
          .source(speed: 1) {
            try LoopingRecording {
              try RecordingSource.open(path: path, configuration: configuration)
            }
          }, configuration: configuration)
      }
    }
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

  private func disconnect(_ index: Int) {
    guard let slot = slots[index] else { return }
    let wasOpen = slot.isOpen
    slot.drop()
    if wasOpen { onEvent(.closed(slot: index)) }
    slots[index] = nil
    table.release(index)
    service.slots[index] = .disconnected(slot: UInt8(index))
    onEvent(.slotDisconnected(slot: index, slot.device))
  }

  private func refreshBatteries(now: Double) {
    for case let slot? in slots {
      guard var info = service.slots[slot.index] else { continue }
      info.battery = batteries.level(of: slot.device, now: now)
      service.slots[slot.index] = info
    }
  }

  /// Closes every device (as a stop does).
  public func stop() {
    for case let slot? in slots where slot.isOpen {
      slot.close()
      onEvent(.closed(slot: slot.index))
    }
  }
}

/// What a DSU server serves.
public enum DSUServerSource: Sendable {
  /// The live devices found (hot-plug followed), or only those at these paths.
  case live(devices: [String])
  /// A recording as slot 0, paced and looping.
  case recording(path: String)
}

/// Battery levels read from sysfs at most every 10 s a device.
struct BatteryCache {
  private var levels: [String: (level: DSUPortInfo.Battery, time: Double)] = [:]

  mutating func level(of device: DSUDevice, now: Double) -> DSUPortInfo.Battery {
    if let cached = levels[device.path], now - cached.time < 10 { return cached.level }
    let level = BatteryLevel.level(forDevicePath: device.path)
    levels[device.path] = (level, now)
    return level
  }
}

extension DSUDevice {
  /// A recording served as a device, named by its path.
  static func recording(path: String, configuration: DeviceMotionConfiguration) -> DSUDevice {
    let source = try? RecordingSource.open(path: path, configuration: configuration)
    return DSUDevice(
      path: path, name: path, identity: "recording " + path,
      hasGyroscope: source?.hasGyroscope ?? true)
  }
}
