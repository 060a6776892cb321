import SystemCalls

/// A device's battery as the DSU protocol says it, from the kernel's
/// power_supply class: `status` (`Charging`, `Full`, `Discharging`, …) and
/// `capacity` (percent).
public enum BatteryLevel {
  /// The protocol's level for a power_supply's `status` and `capacity`.
  public static func level(status: String?, capacity: Int?) -> DSUPortInfo.Battery {
    switch status?.trimmingWhitespace {
    case "Charging": return .charging
    case "Full": return .charged
    default: break
    }
    guard let capacity else { return .notApplicable }
    switch capacity {
    case ..<10: return .dying
    case ..<30: return .low
    case ..<60: return .medium
    case ..<90: return .high
    default: return .full
    }
  }

  /// The level of the evdev node at `path`: the first power_supply of the
  /// device behind its input device (`SYSFS/dev/char/M:m/device/device/power_supply`),
  /// or not applicable when it has none (an IIO sensor, a wired accelerometer).
  public static func level(forDevicePath path: String, sysfs: String = "/sys")
    -> DSUPortInfo.Battery
  {
    guard let number = try? Syscall.characterDeviceNumber(path) else { return .notApplicable }
    let directory = "\(sysfs)/dev/char/\(number.major):\(number.minor)/device/device/power_supply"
    return level(powerSupplies: directory)
  }

  /// The level of the first supply under `directory` (a `power_supply` directory).
  public static func level(powerSupplies directory: String) -> DSUPortInfo.Battery {
    guard let supply = (try? Syscall.directoryEntries(directory))?.sorted().first else {
      return .notApplicable
    }
    let status = Syscall.readSmallTextFile("\(directory)/\(supply)/status")
    let capacity = Syscall.readSmallTextFile("\(directory)/\(supply)/capacity").flatMap {
      Int($0.trimmingWhitespace)
    }
    return level(status: status, capacity: capacity)
  }
}

extension String {
  fileprivate var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
