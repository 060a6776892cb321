import Evdev

/// How a device's events become card-frame samples: its profile, with the
/// `--mount-matrix` option or udev's `ACCEL_MOUNT_MATRIX` applied.
enum DeviceSetup {
  /// The profile of `info`; fails when the device can't drive the card.
  static func profile(
    for info: DeviceInfo, options: PipelineOptions, device: String, udevMatrix: String? = nil
  ) throws -> DeviceProfile {
    var matrix: MountMatrix?
    if let text = options.mountMatrix {
      do {
        matrix = try MountMatrix(parsing: text)
      } catch {
        throw UsageError("'--mount-matrix': \(error)")
      }
    } else if let text = udevMatrix {
      matrix = udevMountMatrix(text, device: device)
    }
    let profile = DeviceProfile.classify(info, mountMatrix: matrix)
    guard profile.kind != .unsupported else {
      throw Failure(
        "\(device): \"\(info.name)\" can't drive the card: \(profile.reason). "
          + "See 'tilt-cli devices' for the devices that can.")
    }
    return profile
  }

  /// udev's `ACCEL_MOUNT_MATRIX` for `device`, parsed; a malformed one is
  /// reported and left out (a system bug, not the user's).
  static func udevMountMatrix(_ text: String?, device: String) -> MountMatrix? {
    guard let text else { return nil }
    do {
      return try MountMatrix(parsing: text)
    } catch {
      StandardError.write(
        "tilt-cli: ignoring the udev ACCEL_MOUNT_MATRIX of \(device) (system bug: \(error)); "
          + "pass --mount-matrix to set the axes\n")
      return nil
    }
  }
}
