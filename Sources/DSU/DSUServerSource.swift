import Motion

/// What a DSU server serves.
public enum DSUServerSource: Sendable {
  /// The live devices found (hot-plug followed), or only those at these paths.
  case live(devices: [String])
  /// A recording as slot 0, paced and looping.
  case recording(path: String)

  /// The hub's selection for it.
  var selection: DeviceHub.Selection {
    switch self {
    case .live(let devices): .live(devices: devices)
    case .recording(let path): .recording(path: path)
    }
  }
}
