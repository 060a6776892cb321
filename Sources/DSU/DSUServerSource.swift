import Motion

/// What a DSU server serves.
public enum DSUServerSource: Sendable {
  /// The live devices found (hot-plug followed), or only those at these paths.
  case live(devices: [String])
  /// A recording as slot 0, paced and looping.
  case recording(path: String)
}

/// Where a server's devices come from: how they are found, and the motion
/// manager of each (a test gives its own).
struct DSUDeviceSupply {
  /// The devices there now, in the order found.
  var discover: () -> [DSUDevice]
  /// A manager for a device, nothing opened yet.
  var makeManager: (DSUDevice) -> DeviceMotionManager
  /// Whether devices come and go (the input directory is watched).
  var followsHotPlug: Bool

  init(
    discover: @escaping () -> [DSUDevice],
    makeManager: @escaping (DSUDevice) -> DeviceMotionManager, followsHotPlug: Bool
  ) {
    self.discover = discover
    self.makeManager = makeManager
    self.followsHotPlug = followsHotPlug
  }

  /// The supply of `source`, each manager with `configuration`.
  init(_ source: DSUServerSource, configuration: DeviceMotionConfiguration) {
    switch source {
    case .live(let named):
      self.init(
        discover: { DSUDiscovery.scan(named: named).devices },
        makeManager: { DeviceMotionManager(.device(path: $0.path), configuration: configuration) },
        followsHotPlug: true)
    case .recording(let path):
      // Read through once before serving, as any replay is (contract §3.4):
      // a malformed line is told at the first subscription, before any
      // motion. Served, the file is read as a stream and looped from memory.
      let check = Result {
        try RecordingSource.open(path: path, configuration: configuration).hasGyroscope
      }
      let device = DSUDevice.recording(path: path, hasGyroscope: (try? check.get()) ?? true)
      self.init(
        discover: { [device] },
        makeManager: { _ in
          DeviceMotionManager(
            .source(speed: 1) {
              _ = try check.get()
              return LoopedSource(
                try RecordingSource.open(
                  path: path, configuration: configuration, checksFirst: false),
                passStart: .oneStepAfterLastSample)
            }, configuration: configuration)
        }, followsHotPlug: false)
    }
  }
}

extension DSUDevice {
  /// A recording served as a device, named by its path.
  static func recording(path: String, hasGyroscope: Bool) -> DSUDevice {
    DSUDevice(path: path, name: path, identity: "recording " + path, hasGyroscope: hasGyroscope)
  }
}
