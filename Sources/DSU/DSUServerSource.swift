import Motion

/// What a DSU server serves.
public enum DSUServerSource: Sendable {
  /// The live devices found (hot-plug followed), or only those at these paths.
  case live(devices: [String])
  /// A recording as slot 0, paced and looping.
  case recording(path: String)
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
