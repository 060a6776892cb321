import Attitude
import Evdev
import Foundation
import SensorData
import SystemCalls

/// The motion devices every consumer claims from: every evdev IMU and
/// accelerometer and every usable IIO IMU (hot-plug followed), or the nodes
/// named, or one recording (paced, looping). It owns their discovery, their
/// order, their identity across a replug (`uniq`, else `phys`) and their
/// lifecycle: a device is open while some claim holds it, with one motion
/// manager and so one calibration for all of them.
///
/// A participant of the one loop: its descriptors are the input directory's
/// watch and the open devices' nodes; with no claim it asks for no deadline,
/// and the process sleeps.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class DeviceHub: LoopParticipant {
  /// Which devices the hub holds.
  public enum Selection: Sendable, Hashable {
    /// `[]`: every motion device found, hot-plug followed; else only the nodes named.
    case live(devices: [String])
    /// One recording as the one device, paced at real time and looping.
    case recording(path: String)
  }

  /// What a consumer hears of the hub, on the loop's thread.
  public enum Event {
    /// A device was found (at start, plugged in, or back).
    case added(HubDevice)
    /// A device went away; its claims ended.
    case removed(HubDevice)
    /// A note of a device's motion manager (stored bias used, events dropped…).
    case note(HubDevice, MotionNote)
    /// A device could not be opened or read: closed until a new claim.
    case problem(HubDevice, any Error)
    /// A device opened or closed, its claims or its calibration changed.
    case stateChanged(HubDevice)
  }

  public let configuration: DeviceMotionConfiguration
  /// Event nodes that could not be opened at the last scan (permissions), with why.
  public private(set) var unreadable: [DeviceError] = []

  private let supply: HubSupply
  private var observers: [(Event) -> Void] = []
  private var present: [HubDevice] = []
  private var numbers: [String: Int] = [:]
  private var watch: DeviceWatch?
  private var started = false

  /// The hub of `selection`; nothing is scanned until ``start()``.
  public convenience init(
    _ selection: Selection, configuration: DeviceMotionConfiguration = .init()
  ) {
    self.init(
      supply: HubSupply(selection, configuration: configuration), configuration: configuration)
  }

  /// A hub whose devices come from `supply` (a test's).
  package init(supply: HubSupply, configuration: DeviceMotionConfiguration = .init()) {
    self.supply = supply
    self.configuration = configuration
  }

  /// Calls `observer` with every event from now on.
  public func observe(_ observer: @escaping (Event) -> Void) { observers.append(observer) }

  /// Finds the devices (``Event/added(_:)`` for each) and starts following
  /// hot-plug; call once, after the observers are set. Later calls do nothing.
  public func start() {
    guard !started else { return }
    started = true
    if supply.followsHotPlug {
      watch = try? DeviceWatch(directory: DeviceChoice.inputDirectory)
    }
    rescan()
  }

  /// The devices plugged in, in the order found.
  public var devices: [HubDevice] { present }

  /// The present device with `number`, if any.
  public func device(number: Int) -> HubDevice? { present.first { $0.number == number } }

  /// Whether any device is open now.
  public var hasOpenDevice: Bool { present.contains(where: \.isOpen) }

  /// Finds the devices again: new ones are added (a returning one with its
  /// old number), gone ones removed.
  public func rescan() {
    let found = supply.discover()
    unreadable = found.unreadable
    for device in present
    where !found.devices.contains(where: { $0.identity == device.identity }) {
      remove(device)
    }
    for description in found.devices
    where !present.contains(where: { $0.identity == description.identity }) {
      let number = numbers[description.identity] ?? numbers.count
      numbers[description.identity] = number
      let device = HubDevice(
        number: number, description: description,
        makeManager: { [supply] in supply.makeManager(description) },
        onEvent: { [unowned self] in tell($0) })
      present.append(device)
      tell(.added(device))
    }
  }

  /// Rescans when the node of a closed device is gone: the input
  /// directory's watch tells of new nodes, not of removed ones, and a
  /// closed device has no descriptor to fail. Call it when it matters (a
  /// client asks what there is).
  public func rescanIfClosedDeviceWentAway() {
    guard supply.followsHotPlug else { return }
    let gone = present.contains { !$0.isOpen && !FileManager.default.fileExists(atPath: $0.path) }
    if gone { rescan() }
  }

  /// Closes every device and keeps the gyroscope bias a rest confirmed
  /// (``DeviceMotionConfiguration/gyroBiasStore``); the claims end.
  public func finish() {
    for device in present {
      let wasOpen = device.isOpen
      device.finish()
      if wasOpen { tell(.stateChanged(device)) }
    }
  }

  private func remove(_ device: HubDevice) {
    device.finish()  // keeps the bias a rest confirmed before it went away
    device.isPresent = false
    present.removeAll { $0 === device }
    tell(.removed(device))
  }

  private func tell(_ event: Event) {
    for observer in observers { observer(event) }
  }

  // MARK: The loop

  public var pollDescriptors: [Int32] {
    (watch.map { [$0.fileDescriptor] } ?? [])
      + present.flatMap { $0.isOpen ? $0.manager?.pollDescriptors ?? [] : [] }
  }

  public var deadline: MonotonicInstant? {
    present.compactMap { $0.isOpen ? $0.manager?.deadline : nil }.min()
  }

  public func service(ready: Set<Int32>) throws {
    if let watch, ready.contains(watch.fileDescriptor), watch.changed() { rescan() }
    for device in present {
      do {
        try device.service(ready: ready)
      } catch MotionError.deviceGone {
        remove(device)
      } catch {
        device.fail(error)
      }
    }
  }
}

/// Where a hub's devices come from: how they are found, and the motion
/// manager of each (a test gives its own).
package struct HubSupply {
  /// The devices there now, in the order found.
  package var discover: () -> HubDiscovery.Found
  /// A manager for a device, nothing opened yet.
  package var makeManager: (HubDeviceDescription) -> DeviceMotionManager
  /// Whether devices come and go (the input directory is watched).
  package var followsHotPlug: Bool

  package init(
    discover: @escaping () -> HubDiscovery.Found,
    makeManager: @escaping (HubDeviceDescription) -> DeviceMotionManager, followsHotPlug: Bool
  ) {
    self.discover = discover
    self.makeManager = makeManager
    self.followsHotPlug = followsHotPlug
  }

  /// The supply of `selection`, each manager with `configuration`.
  init(_ selection: DeviceHub.Selection, configuration: DeviceMotionConfiguration) {
    switch selection {
    case .live(let named):
      self.init(
        discover: { HubDiscovery.scan(named: named) },
        makeManager: { DeviceMotionManager(.device(path: $0.path), configuration: configuration) },
        followsHotPlug: true)
    case .recording(let path):
      // Read through once before serving, as any replay is (contract §3.4):
      // a malformed line is told at the first claim, before any motion.
      // Served, the file is read as a stream and looped from memory.
      let check = Result {
        try Recording.open(path: path, configuration: configuration).capabilities.hasGyroscope
      }
      let hasGyroscope = (try? check.get()) ?? true
      let description = HubDeviceDescription(
        path: path, name: path, identity: "recording " + path,
        kind: hasGyroscope ? .imu : .accelerometer, hasGyroscope: hasGyroscope)
      self.init(
        discover: { HubDiscovery.Found(devices: [description], unreadable: []) },
        makeManager: { _ in
          DeviceMotionManager(
            .source(speed: 1) {
              _ = try check.get()
              return LoopedSource(
                try Recording.open(
                  path: path, configuration: configuration, checksFirst: false),
                passStart: .oneStepAfterLastSample)
            }, configuration: configuration)
        }, followsHotPlug: false)
    }
  }
}
