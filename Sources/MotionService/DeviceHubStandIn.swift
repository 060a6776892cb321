// TEMPORARY: a stand-in for Motion's DeviceHub, with its API, until the hub
// lands on main; removed by the merge that brings it. It serves a recording
// (not looping) or the devices named, each through a DeviceMotionManager.
import Attitude
import EvdevCore
import Motion

public final class DeviceHub: LoopParticipant {
  public enum Selection: Sendable, Hashable {
    case live(devices: [String])
    case recording(path: String)
  }
  public enum Change {
    case added(HubDevice)
    case removed(HubDevice)
  }
  public var onChange: (Change) -> Void = { _ in }
  public var onNote: (HubDevice, MotionNote) -> Void = { _, _ in }
  public var onProblem: (HubDevice, any Error) -> Void = { _, _ in }
  public var onStateChange: (HubDevice) -> Void = { _ in }
  public private(set) var devices: [HubDevice] = []
  public private(set) var unreadable: [any Error] = []
  private let selection: Selection
  private let configuration: DeviceMotionConfiguration

  public init(_ selection: Selection, configuration: DeviceMotionConfiguration = .init()) {
    self.selection = selection
    var configuration = configuration
    configuration.motion.filter = .none
    self.configuration = configuration
  }

  public func start() {
    switch selection {
    case .recording(let path):
      devices = [
        HubDevice(
          hub: self, number: 0, path: path, kind: .imu, hasGyroscope: true,
          input: .recording(path: path, speed: 1))
      ]
    case .live(let paths):
      devices = paths.enumerated().map {
        HubDevice(
          hub: self, number: $0.offset, path: $0.element, kind: .imu, hasGyroscope: true,
          input: .device(path: $0.element))
      }
    }
    for device in devices { onChange(.added(device)) }
  }

  public func device(number: Int) -> HubDevice? { devices.first { $0.number == number } }

  public func finish() { for device in devices { device.close() } }

  public var pollDescriptors: [Int32] { devices.flatMap { $0.manager?.pollDescriptors ?? [] } }
  public var deadline: MonotonicInstant? { devices.compactMap { $0.manager?.deadline }.min() }
  public func service(ready: Set<Int32>) throws {
    for device in devices where device.isOpen {
      do {
        try device.manager?.service(ready: ready)
      } catch {
        device.close()
        onProblem(device, error)
        onStateChange(device)
      }
    }
  }

  fileprivate func makeManager(_ input: MotionInput) -> DeviceMotionManager {
    DeviceMotionManager(input, configuration: configuration)
  }
}

public final class HubDevice {
  public enum Calibration: String, Sendable {
    case none, stored, learned
  }
  public let number: Int
  public let identity: String
  public let path: String
  public let name: String
  public let kind: DeviceKind
  public let hasGyroscope: Bool
  public let info: DeviceInfo? = nil
  public private(set) var isPresent = true
  public private(set) var isOpen = false
  public private(set) var claimCount = 0
  fileprivate var manager: DeviceMotionManager?
  private unowned let hub: DeviceHub
  private let input: MotionInput
  private var handlers: [ObjectIdentifier: (HubMotion) -> Void] = [:]
  private var times: [Double] = []
  private var clockOffset: Double?

  fileprivate init(
    hub: DeviceHub, number: Int, path: String, kind: DeviceKind, hasGyroscope: Bool,
    input: MotionInput
  ) {
    self.hub = hub
    self.number = number
    self.identity = path
    self.path = path
    self.name = path
    self.kind = kind
    self.hasGyroscope = hasGyroscope
    self.input = input
  }

  public var gyroscopeBiasDegreesPerSecond: Vector3? { nil }
  public var calibration: Calibration { .none }

  public func samplesPerSecond(now: Double) -> Double {
    isOpen ? Double(times.filter { now - $0 <= 1 }.count) : 0
  }

  public func claim(_ handler: @escaping (HubMotion) -> Void) throws -> HubClaim {
    if !isOpen {
      let manager = self.manager ?? hub.makeManager(input)
      self.manager = manager
      try manager.startDeviceMotionUpdates { [unowned self] motion in deliver(motion) }
      isOpen = true
    }
    let claim = HubClaim(device: self)
    handlers[ObjectIdentifier(claim)] = handler
    claimCount += 1
    hub.onStateChange(self)
    return claim
  }

  fileprivate func release(_ claim: HubClaim) {
    guard handlers.removeValue(forKey: ObjectIdentifier(claim)) != nil else { return }
    claimCount -= 1
    if claimCount == 0 { close() }
    hub.onStateChange(self)
  }

  fileprivate func close() {
    guard isOpen else { return }
    isOpen = false
    try? manager?.stopDeviceMotionUpdates()
  }

  private func deliver(_ motion: DeviceMotion) {
    let now = LoopClock.now()
    times.append(now)
    times.removeAll { now - $0 > 1 }
    let micros = motion.timestamp * 1e6
    if clockOffset == nil { clockOffset = now * 1e6 - micros }
    let sample = HubMotion(
      motion: motion, timestampMicroseconds: UInt64(max(0, micros + clockOffset!)))
    for handler in handlers.values { handler(sample) }
  }
}

public struct HubMotion: Sendable {
  public var motion: DeviceMotion
  public var timestampMicroseconds: UInt64
}

public final class HubClaim {
  public let device: HubDevice
  private var released = false
  fileprivate init(device: HubDevice) { self.device = device }
  public func release() {
    guard !released else { return }
    released = true
    device.release(self)
  }
}
