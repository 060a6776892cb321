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
  /// `HOST:PORT` as bound (`[::1]:26760` for IPv6).
  public let address: String
  /// Where events go; nowhere by default.
  public var onEvent: (Event) -> Void = { _ in }

  let socket: UDPSocket
  let service: DSUService
  let supply: DSUDeviceSupply
  var watch: DeviceWatch?
  var table = DSUSlotTable()
  var slots: [DSUSlot?] = Array(repeating: nil, count: DSUProtocol.slotCount)
  var batteries = BatteryCache()
  private var started = false

  /// Binds `host:port` (an IP literal); the devices are found by
  /// ``start()`` and none is opened until a client subscribes. `allowList`
  /// says who may be answered (``AllowList/forListening(host:ranges:)``).
  public convenience init(
    host: String, port: UInt16, allowList: AllowList, source: DSUServerSource,
    deviceConfiguration: DeviceMotionConfiguration = .init(),
    serverID: UInt32 = .random(in: 1...UInt32.max)
  ) throws {
    var configuration = deviceConfiguration
    // The accelerometer reading comes back as user acceleration minus gravity
    // exactly only when the attitude is not smoothed.
    configuration.motion.filter = .none
    try self.init(
      host: host, port: port, allowList: allowList,
      supply: DSUDeviceSupply(source, configuration: configuration), serverID: serverID)
  }

  /// A server whose devices come from `supply`.
  init(
    host: String, port: UInt16, allowList: AllowList, supply: DSUDeviceSupply,
    serverID: UInt32 = .random(in: 1...UInt32.max), limits: DSUService.Limits = .init()
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
    service = DSUService(serverID: serverID, allowList: allowList, limits: limits)
    self.supply = supply
  }

  /// The port bound (the one the kernel chose for port 0).
  public var port: UInt16 { socket.boundAddress.port }

  /// Finds the devices and fills the slots (events for each); call once
  /// before the loop runs, after ``onEvent`` is set.
  public func start() {
    guard !started else { return }
    started = true
    if supply.followsHotPlug, watch == nil {
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
      } catch TiltError.deviceGone {
        disconnect(slot.index)
      } catch {
        // Still there but unreadable: closed until a new client asks.
        slot.openFailed = true
        slot.close()
        onEvent(.closed(slot: slot.index))
        onEvent(.problem(slot: slot.index, slot.device, error))
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
      guard let request = service.parse(bytes) else { continue }
      let now = MonotonicInstant.now.secondsValue
      if request.kind != .version, supply.followsHotPlug, closedDeviceWentAway { rescan() }
      if case .portInfo = request.kind { refreshBatteries(now: now) }
      let (answers, change) = service.handle(request, from: sender, now: now)
      for answer in answers { send(answer, to: sender) }
      if let change { report(change) }
    }
  }

  /// Whether the node of a closed slot's device is gone: the input
  /// directory's watch tells of new nodes, not of removed ones, and a closed
  /// device has no descriptor to fail; port-info and pad-data requests (an
  /// emulator sends them about once a second) are when it matters.
  private var closedDeviceWentAway: Bool {
    slots.contains { slot in
      guard let slot, !slot.isOpen else { return false }
      return !FileManager.default.fileExists(atPath: slot.device.path)
    }
  }

  func send(_ bytes: [UInt8], to address: SocketAddress) {
    let sent = (try? socket.send(bytes, to: address)) ?? false
    service.countSent(sent)
  }

  func report(_ change: DSUService.Change) {
    switch change {
    case .subscribed(let address):
      // A new client tries again the devices that could not be opened.
      for case let slot? in slots { slot.openFailed = false }
      onEvent(.subscribed(client: Self.text(address)))
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
}
