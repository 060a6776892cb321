import Attitude
import Foundation
import Motion
import SystemCalls

/// The DSU ("cemuhook") server of contract §7: one UDP socket and the motion
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
  /// Where the devices come from; serviced by the server when it is its own.
  public let hub: DeviceHub
  let ownsHub: Bool
  var table = DSUSlotTable()
  var slots: [DSUSlot?] = Array(repeating: nil, count: DSUProtocol.slotCount)
  var batteries = BatteryCache()
  private var started = false

  /// Binds `host:port` (an IP literal), with a hub of its own for `selection`;
  /// the devices are found by ``start()`` and none is opened until a client
  /// subscribes. `allowList` says who may be answered
  /// (``AllowList/forListening(host:ranges:)``).
  public convenience init(
    host: String, port: UInt16, allowList: AllowList, selection: DeviceHub.Selection,
    deviceConfiguration: DeviceMotionConfiguration = .init(),
    serverID: UInt32 = .random(in: 1...UInt32.max)
  ) throws {
    try self.init(
      host: host, port: port, allowList: allowList,
      hub: DeviceHub(selection, configuration: deviceConfiguration.unsmoothed),
      ownsHub: true, serverID: serverID)
  }

  /// Binds `host:port` and serves the devices of `hub`, which other
  /// consumers may share: the hub is a participant of the loop itself
  /// (before the server), made with a configuration
  /// ``Motion/DeviceMotionConfiguration/unsmoothed`` and started after
  /// the server's ``start()``.
  public convenience init(
    host: String, port: UInt16, allowList: AllowList, hub: DeviceHub,
    serverID: UInt32 = .random(in: 1...UInt32.max)
  ) throws {
    try self.init(
      host: host, port: port, allowList: allowList, hub: hub, ownsHub: false, serverID: serverID)
  }

  init(
    host: String, port: UInt16, allowList: AllowList, hub: DeviceHub, ownsHub: Bool,
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
    self.hub = hub
    self.ownsHub = ownsHub
  }

  /// The port bound (the one the kernel chose for port 0).
  public var port: UInt16 { socket.boundAddress.port }

  /// Fills the slots with the hub's devices (events for each) and follows
  /// it; call once before the loop runs, after ``onEvent`` is set. A hub of
  /// the server's own is started here; a shared one is started by its owner
  /// after every consumer observes it.
  public func start() {
    guard !started else { return }
    started = true
    hub.observe { [unowned self] in hear($0) }
    for device in hub.devices { hear(.added(device)) }
    if ownsHub { hub.start() }
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
    [socket.fileDescriptor] + (ownsHub ? hub.pollDescriptors : [])
  }

  public var deadline: MonotonicInstant? {
    let lapse = service.nextLapse.map { MonotonicInstant(secondsValue: $0) }
    return [lapse, ownsHub ? hub.deadline : nil].compactMap { $0 }.min()
  }

  public func service(ready: Set<Int32>) throws {
    if ready.contains(socket.fileDescriptor) { try readDatagrams() }
    if ownsHub { try hub.service(ready: ready) }
    let now = MonotonicInstant.now
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
      if request.kind != .version { hub.rescanIfClosedDeviceWentAway() }
      if case .portInfo = request.kind { refreshBatteries(now: now) }
      let (answers, change) = service.handle(request, from: sender, now: now)
      for answer in answers { send(answer, to: sender) }
      if let change { report(change) }
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
