import EvdevCore

/// How a device's events become card-frame samples: its profile, with the
/// configuration's mount matrix or udev's `ACCEL_MOUNT_MATRIX` applied.
public enum DeviceSetup {
  /// The profile of `info`; fails when the device can't drive the card,
  /// with `advice` (what to do) after the reason.
  /// `udevMatrix` is used when the configuration sets no mount matrix.
  public static func profile(
    for info: DeviceInfo, configuration: TiltConfiguration, device: String,
    udevMatrix: MountMatrix? = nil, advice: String = liveAdvice
  ) throws -> DeviceProfile {
    let profile = DeviceProfile.classify(
      info, mountMatrix: configuration.mountMatrix ?? udevMatrix)
    guard profile.kind != .unsupported else {
      throw TiltError(
        "\(device): \"\(info.name)\" can't drive the card: \(profile.reason). \(advice)")
    }
    return profile
  }

  /// What to do about a live device that can't drive the card.
  public static let liveAdvice = "See 'tilt-cli devices' for the devices that can."
  /// What to do about a recording of a device that can't drive the card.
  public static let recordingAdvice =
    "Replay a recording of an accelerometer, an IMU or a joystick ('tilt-cli info FILE' tells what a file is)."

  /// The key codes of a device whose motion node has `profile` and whose
  /// buttons may sit on a paired node (`pairedButtons`): what
  /// `FlipTrigger.flipButtonCodes(forKeys:)` chooses the flip button from.
  public static func buttons(profile: DeviceProfile, pairedButtons: DeviceInfo?) -> Set<UInt16> {
    profile.buttons.union(pairedButtons.map(Buttons.codes(of:)) ?? [])
  }

  /// udev's `ACCEL_MOUNT_MATRIX` for `device`, parsed; a malformed one is
  /// reported to `warn` and left out (a system bug, not the user's).
  public static func udevMountMatrix(
    _ text: String?, device: String, warn: (String) -> Void
  ) -> MountMatrix? {
    guard let text else { return nil }
    do {
      return try MountMatrix(parsing: text)
    } catch {
      warn(
        "ignoring the udev ACCEL_MOUNT_MATRIX of \(device) (system bug: \(error)); "
          + "pass --mount-matrix to set the axes")
      return nil
    }
  }
}
