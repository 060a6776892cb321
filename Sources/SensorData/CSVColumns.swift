/// The columns of a CSV IMU log (contract §2.3), named here once: the reader
/// finds them by these names, and whatever writes a log writes them.
public enum CSVColumns {
  /// Time, seconds.
  public static let time = "t_s"
  /// The accelerometer in g.
  public static let accelerometerG = Axes(prefix: "acc", unit: "g")
  /// The accelerometer in m/s² (divided by ``standardGravity`` when read).
  public static let accelerometerMetresPerSecondSquared = Axes(prefix: "acc", unit: "m_s2")
  /// The gyroscope in rad/s.
  public static let gyroscopeRadiansPerSecond = Axes(prefix: "gyr", unit: "rad_s")
  /// The gyroscope in deg/s.
  public static let gyroscopeDegreesPerSecond = Axes(prefix: "gyr", unit: "deg_s")
  /// The ground-truth orientation, sensor to earth, scalar first (tuning only).
  public static let groundTruth = ["opt_qw", "opt_qx", "opt_qy", "opt_qz"]
  /// 1 for the samples a benchmark scores (tuning only).
  public static let movement = "movement"

  /// What a log needs at least, for messages: `t_s and acc_x_g… or acc_x_m_s2…`.
  public static let needed =
    "\(time) and \(accelerometerG.x)… or \(accelerometerMetresPerSecondSquared.x)…"

  /// The header row of a log as tilt writes it: time, the accelerometer in g
  /// and, with a gyroscope, the gyroscope in rad/s; newline-terminated.
  public static func header(hasGyroscope: Bool) -> String {
    var names = [time] + accelerometerG.names
    if hasGyroscope { names += gyroscopeRadiansPerSecond.names }
    return names.joined(separator: ",") + "\n"
  }

  /// Three columns `prefix_x_unit`, `prefix_y_unit`, `prefix_z_unit`.
  public struct Axes: Hashable, Sendable {
    /// `acc` or `gyr`.
    public let prefix: String
    /// The unit as the names spell it: `g`, `m_s2`, `rad_s`, `deg_s`.
    public let unit: String

    /// The column of one axis (`"x"`, `"y"` or `"z"`).
    public func name(_ axis: String) -> String { "\(prefix)_\(axis)_\(unit)" }
    /// The x, y and z columns, in that order.
    public var names: [String] { ["x", "y", "z"].map(name) }
    /// The x column, as messages name the three.
    public var x: String { name("x") }
  }
}
