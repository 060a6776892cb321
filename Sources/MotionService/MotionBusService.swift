import Attitude
import Foundation
import Motion

/// The motion service of contract §8: owns `org.tilt.Motion1` on the
/// session bus and serves the hub's devices to every client that claims
/// them, as one participant of the loop (its bus connection; the hub is a
/// participant of its own).
///
/// The service holds one hub claim per device while any of its clients
/// claims it, and sends each client its Motion signals at its own interval.
/// With no claim, it asks the loop for the bus's descriptor alone, with no
/// deadline: the process sleeps.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class MotionBusService: LoopParticipant {
  /// At most this many claims, all clients and devices together.
  public static let maximumClaims = 64
  /// The intervals a claim may ask for, seconds.
  public static let intervals = 0.001...1.0

  /// What happened, for a person.
  public enum Event {
    case deviceAdded(number: Int, path: String, name: String)
    case deviceRemoved(number: Int, path: String)
    case claimed(client: String, device: Int, interval: Double)
    case released(client: String, device: Int)
    case clientLeft(client: String)
    case opened(device: Int)
    case closed(device: Int)
    case problem(device: Int, any Error)
    case note(device: Int, MotionNote)
    /// A signal or a reply that could not be sent (the bus refused it).
    case sendFailed(any Error)
  }

  /// Where events go; nowhere by default.
  public var onEvent: (Event) -> Void = { _ in }
  /// The hub whose devices are served.
  public let hub: DeviceHub
  let version: String
  let bus: BusConnection
  var served: [Int: ServedDevice] = [:]
  private var stopped = false

  /// Connects to the session bus and owns ``MotionInterface/busName``;
  /// nothing is served before ``start()``. `version` is the `Version` property.
  public init(hub: DeviceHub, version: String) throws(MotionServiceError) {
    self.hub = hub
    self.version = version
    let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
    do {
      bus = try BusConnection()
      _ = try bus.uniqueName()
    } catch {
      throw .noSessionBus(error, address: address)
    }
    do {
      try bus.serve(subtree: MotionInterface.managerPath)
      try bus.requestName(MotionInterface.busName)
    } catch  where error.errno.rawValue == EEXIST {
      throw .nameTaken(MotionInterface.busName)
    } catch {
      throw .bus(error)
    }
    bus.onMethodCall = { [unowned self] in answer($0) }
    bus.onDeparture = { [unowned self] in clientLeft($0) }
  }

  /// Serves the hub's devices and follows their changes; starts the hub (a
  /// hub shared with another consumer is started once, by the first).
  public func start() {
    hub.observe { [unowned self] event in
      switch event {
      case .added(let device): add(device)
      case .removed(let device): remove(device)
      case .stateChanged(let device): stateChanged(device)
      case .problem(let device, let error):
        // Closed until a new claim: the service's is let go, and the next
        // Claim (a client's again, or a new one) takes one anew.
        onEvent(.problem(device: device.number, error))
        served[device.number]?.hubClaim?.release()
        served[device.number]?.hubClaim = nil
      case .note(let device, let note): onEvent(.note(device: device.number, note))
      }
    }
    hub.start()
  }

  /// Ends every claim, gives up the name and closes the connection.
  public func stop() {
    guard !stopped else { return }
    stopped = true
    for device in served.values {
      device.hubClaim?.release()
      device.hubClaim = nil
      device.claims = [:]
    }
    bus.close(releasing: MotionInterface.busName)
  }

  /// What the status shows: one entry per device, in the hub's order.
  public var status: [DeviceStatus] {
    let now = MonotonicInstant.now.secondsValue
    return hub.devices.map {
      DeviceStatus(
        number: $0.number, name: $0.name, path: $0.path, isOpen: $0.isOpen,
        samplesPerSecond: $0.samplesPerSecond(now: now),
        claims: served[$0.number]?.claims.count ?? 0, hubClaims: $0.claimCount,
        biasDegreesPerSecond: $0.gyroscopeBiasDegreesPerSecond,
        calibration: $0.calibration.rawValue)
    }
  }

  /// One device's line of the status.
  public struct DeviceStatus: Sendable {
    public var number: Int
    public var name: String
    public var path: String
    public var isOpen: Bool
    public var samplesPerSecond: Double
    /// The service's clients' claims.
    public var claims: Int
    /// Every consumer's claims on the hub device (the service counts one).
    public var hubClaims: Int
    public var biasDegreesPerSecond: Vector3?
    public var calibration: String
  }

  /// All clients' claims on all devices.
  var claimCount: Int { served.values.reduce(0) { $0 + $1.claims.count } }

  // MARK: The loop

  public var pollDescriptors: [Int32] { bus.pollDescriptors }

  /// The bus's own deadline, and the next rate announcement of an open device.
  public var deadline: MonotonicInstant? {
    let rate = served.values.compactMap(\.nextRateAnnouncement).min().map {
      MonotonicInstant(secondsValue: $0)
    }
    return [bus.deadline, rate].compactMap { $0 }.min()
  }

  /// Processes the bus; announces the rates that are due. Throws
  /// ``MotionServiceError/lost(_:)`` when the connection is lost.
  public func service(ready: Set<Int32>) throws {
    do {
      try bus.service(ready: ready)
    } catch let error as BusError {
      throw MotionServiceError.lost(error)
    }
    let now = MonotonicInstant.now.secondsValue
    for device in served.values {
      guard let due = device.nextRateAnnouncement, due <= now else { continue }
      announce(device, rate: true)
    }
  }

  // MARK: Devices coming and going

  private func add(_ device: HubDevice) {
    let servedDevice = ServedDevice(device)
    served[device.number] = servedDevice
    servedDevice.announced = deviceProperties(servedDevice)
    servedDevice.announcedOpen = device.isOpen
    device.watch { [unowned self, unowned servedDevice] in observe($0, of: servedDevice) }
    send {
      try bus.emit(
        path: MotionInterface.managerPath, interface: MotionInterface.managerInterface,
        member: "DeviceAdded"
      ) { try $0.append(.objectPath(servedDevice.path)) }
    }
    onEvent(.deviceAdded(number: device.number, path: device.path, name: device.name))
  }

  private func remove(_ device: HubDevice) {
    guard let servedDevice = served.removeValue(forKey: device.number) else { return }
    servedDevice.hubClaim?.release()
    for client in servedDevice.claims.keys { forgetIfIdle(client) }
    send {
      try bus.emit(
        path: MotionInterface.managerPath, interface: MotionInterface.managerInterface,
        member: "DeviceRemoved"
      ) { try $0.append(.objectPath(servedDevice.path)) }
    }
    onEvent(.deviceRemoved(number: device.number, path: device.path))
  }

  private func stateChanged(_ device: HubDevice) {
    guard let servedDevice = served[device.number] else { return }
    if device.isOpen != servedDevice.announcedOpen {
      onEvent(device.isOpen ? .opened(device: device.number) : .closed(device: device.number))
      if !device.isOpen {
        servedDevice.orientation.reset()
        servedDevice.latestAttitude = nil
      }
    }
    announce(servedDevice, rate: device.isOpen != servedDevice.announcedOpen)
  }

  // MARK: Clients

  /// A client left the bus: its claims end.
  private func clientLeft(_ client: String) {
    let held = served.values.filter { $0.claims[client] != nil }
    guard !held.isEmpty else { return }
    onEvent(.clientLeft(client: client))
    for device in held { release(client, on: device) }
  }

  /// Ends `client`'s claim on `device`; the hub claim ends with the last.
  func release(_ client: String, on device: ServedDevice) {
    guard device.claims.removeValue(forKey: client) != nil else { return }
    onEvent(.released(client: client, device: device.device.number))
    if device.claims.isEmpty {
      device.hubClaim?.release()
      device.hubClaim = nil
    }
    forgetIfIdle(client)
  }

  /// Stops watching `client` leave once it holds no claim.
  private func forgetIfIdle(_ client: String) {
    guard !served.values.contains(where: { $0.claims[client] != nil }) else { return }
    bus.forgetDeparture(of: client)
  }

  /// Runs `body`, which sends on the bus; a failure is an event, not an end.
  func send(_ body: () throws -> Void) {
    do {
      try body()
    } catch {
      onEvent(.sendFailed(error))
    }
  }
}
