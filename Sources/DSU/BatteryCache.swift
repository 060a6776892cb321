/// Battery levels read from sysfs at most every 10 s a device.
struct BatteryCache {
  private var levels: [String: (level: DSUPortInfo.Battery, time: Double)] = [:]

  mutating func level(of device: DSUDevice, now: Double) -> DSUPortInfo.Battery {
    if let cached = levels[device.path], now - cached.time < 10 { return cached.level }
    let level = BatteryLevel.level(forDevicePath: device.path)
    levels[device.path] = (level, now)
    return level
  }
}
