import Evdev
import SensorData

/// How a device's events become card-frame samples: its profile, with the
/// configuration's mount matrix or udev's `ACCEL_MOUNT_MATRIX` applied.
public enum DeviceSetup {
  /// The profile of `info`; fails with ``MotionError/notAMotionDevice(path:name:reason:isRecording:)``
  /// when the device (`isRecording`: the device of a recording) can't drive the card.
  /// `udevMatrix` is used when the configuration sets no mount matrix.
  public static func profile(
    for info: DeviceInfo, configuration: DeviceMotionConfiguration, device: String,
    udevMatrix: MountMatrix? = nil, isRecording: Bool = false
  ) throws(MotionError) -> DeviceProfile {
    let profile = DeviceProfile.classify(
      info, mountMatrix: configuration.mountMatrix ?? udevMatrix)
    guard profile.kind != .unsupported else {
      throw MotionError.notAMotionDevice(
        path: device, name: info.name, reason: profile.reason, isRecording: isRecording)
    }
    return profile
  }

  /// The profile of the live evdev node at `path` described by `info`: the
  /// configuration's mount matrix, else udev's `ACCEL_MOUNT_MATRIX` (a
  /// malformed one is a note to `onNote`, and left out). The one profile of
  /// a live node, for every reader of it (live, calibrate), so that the bias
  /// calibrate stores is in the frame live removes it in.
  public static func liveProfile(
    of path: String, info: DeviceInfo, configuration: DeviceMotionConfiguration,
    onNote: (MotionNote) -> Void
  ) throws(MotionError) -> DeviceProfile {
    let udevMatrix =
      configuration.mountMatrix != nil
      ? nil
      : udevMountMatrix(
        UdevProperties.accelMountMatrix(forDevicePath: path), device: path,
        warn: { onNote(.ignoredUdevMountMatrix($0)) })
    return try profile(
      for: info, configuration: configuration, device: path, udevMatrix: udevMatrix)
  }

  /// The key codes of a device whose motion node has `profile` and whose
  /// buttons may sit on a paired node (`pairedButtons`): what
  /// ``Buttons/primary(among:)`` chooses the flip button from.
  public static func buttons(profile: DeviceProfile, pairedButtons: DeviceInfo?) -> Set<UInt16> {
    profile.buttons.union(pairedButtons.map(Buttons.codes(of:)) ?? [])
  }

  /// udev's `ACCEL_MOUNT_MATRIX` for `device`, parsed; a malformed one is
  /// reported to `warn` and left out (a system bug, not the user's).
  public static func udevMountMatrix(
    _ text: String?, device: String, warn: (IgnoredMountMatrix) -> Void
  ) -> MountMatrix? {
    guard let text else { return nil }
    do {
      return try MountMatrix(parsing: text)
    } catch {
      warn(IgnoredMountMatrix(device: device, origin: .udev, problem: "\(error)"))
      return nil
    }
  }

  /// The node holding the buttons of the device at `path` (a gamepad's motion
  /// and button nodes, paired by a scan of ``DeviceChoice/inputDirectory``),
  /// and that node's description when it could be read.
  public static func pairedButtons(of path: String, info: DeviceInfo) -> (
    path: String?, info: DeviceInfo?
  ) {
    let nodes = DeviceScanner.scan(directory: DeviceChoice.inputDirectory, known: [path: info])
    let paired = nodes.first { $0.path == path }?.pairedButtonPath
    return (paired, nodes.first { $0.path == paired }?.info)
  }
}
