import SensorData
import Foundation

/// What an IIO channel type measures, by its sysfs prefix.
public enum IIOSensorKind: String, Hashable, Sendable, CaseIterable {
  /// `in_accel_*`: m/s² after scale and offset.
  case accelerometer = "accel"
  /// `in_anglvel_*`: rad/s after scale and offset.
  case gyroscope = "anglvel"
}

/// One IIO device under `/sys/bus/iio/devices`, as its attributes describe it.
public struct IIODevice: Hashable, Sendable {
  /// Its directory: `/sys/bus/iio/devices/iio:device0`.
  public var sysfsPath: String
  /// `iio:device0`.
  public var deviceName: String
  /// The `name` attribute: `accel_3d`, `gyro_3d`, `bmc150_accel`.
  public var name: String
  /// The character device: `/dev/iio:device0`.
  public var nodePath: String
  /// The kinds of motion channel it has (x, y and z of each).
  public var kinds: Set<IIOSensorKind>
  /// The device it sits on: a HID sensor hub for `HID-SENSOR-*` devices,
  /// else its parent (an i2c or spi client); resolved path.
  public var hub: String
  /// A `buffer/enable` and scan elements for every motion axis.
  public var hasBuffer: Bool
  /// `trigger/current_trigger`; empty when none is set; `nil` without a trigger attribute.
  public var currentTrigger: String?
  /// `buffer/length` (scans), when there is a buffer.
  public var bufferLength: Int?
  /// `sampling_frequency` (or the kind's own), Hz.
  public var samplingFrequency: Double?
  /// The driver's `mount_matrix` attribute (`in_accel_mount_matrix`, `mount_matrix`), unparsed.
  public var mountMatrixAttribute: String?

  /// The scale of `kind`'s axes (x, y, z): `in_<kind>_scale` or `in_<kind>_<axis>_scale`; 1 when absent.
  public func scale(_ kind: IIOSensorKind) -> SIMD3<Double> { perAxis(kind, "scale", default: 1) }
  /// The offset of `kind`'s axes, in raw units; 0 when absent.
  public func offset(_ kind: IIOSensorKind) -> SIMD3<Double> { perAxis(kind, "offset", default: 0) }

  /// What a person reads about its kind, scale and rate: "accelerometer, scale 0.0098 m/s² a unit".
  public var summary: String {
    var parts: [String] = []
    for kind in IIOSensorKind.allCases where kinds.contains(kind) {
      let s = scale(kind).x
      let unit = kind == .accelerometer ? "m/s²" : "rad/s"
      parts.append("\(kind == .accelerometer ? "accel" : "gyro") scale \(compact(s)) \(unit)/unit")
    }
    if let f = samplingFrequency { parts.append("\(compact(f)) Hz") }
    parts.append(hasBuffer ? "buffer" : "polled (no buffer)")
    return parts.joined(separator: ", ")
  }

  /// `iio:deviceN`'s number.
  public var number: Int? { Int(deviceName.dropFirst("iio:device".count)) }

  func attribute(_ name: String) -> String {
    (sysfsPath as NSString).appendingPathComponent(name)
  }

  private func perAxis(_ kind: IIOSensorKind, _ what: String, default value: Double) -> SIMD3<
    Double
  > {
    let shared = Sysfs.readIfPresent(attribute("in_\(kind.rawValue)_\(what)")).flatMap(Double.init)
    var result = SIMD3<Double>(repeating: shared ?? value)
    for (i, axis) in ["x", "y", "z"].enumerated() {
      if let own = Sysfs.readIfPresent(attribute("in_\(kind.rawValue)_\(axis)_\(what)"))
        .flatMap(Double.init)
      {
        result[i] = own
      }
    }
    return result
  }
}

func compact(_ x: Double) -> String {
  if x == x.rounded(), abs(x) < 1e9 { return String(Int(x)) }
  return String(format: "%.6g", x)
}

/// The IIO devices of a sysfs directory.
public enum IIOScanner {
  /// `TILT_IIO_DIR`, else `/sys/bus/iio/devices`: where IIO devices are listed.
  public static var sysfsDirectory: String {
    ProcessInfo.processInfo.environment["TILT_IIO_DIR"] ?? "/sys/bus/iio/devices"
  }
  /// `TILT_IIO_DEV_DIR`, else `/dev`: where their nodes are.
  public static var nodeDirectory: String {
    ProcessInfo.processInfo.environment["TILT_IIO_DEV_DIR"] ?? "/dev"
  }

  /// Every `iio:deviceN` of `directory` with an accelerometer or gyroscope,
  /// in number order; triggers and other sensors are left out.
  public static func scan(
    directory: String = sysfsDirectory, nodeDirectory: String = nodeDirectory
  ) -> [IIODevice] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return
      names
      .filter { $0.hasPrefix("iio:device") }
      .compactMap { device(named: $0, directory: directory, nodeDirectory: nodeDirectory) }
      .sorted { ($0.number ?? .max) < ($1.number ?? .max) }
  }

  /// The device `iio:deviceN` of `directory`, or `nil` when it has no motion channel.
  public static func device(
    named deviceName: String, directory: String = sysfsDirectory,
    nodeDirectory: String = nodeDirectory
  ) -> IIODevice? {
    let path = (directory as NSString).appendingPathComponent(deviceName)
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
    var kinds: Set<IIOSensorKind> = []
    var buffered = true
    for kind in IIOSensorKind.allCases {
      let axes = ["x", "y", "z"]
      let raw = axes.allSatisfy { Sysfs.exists(file("in_\(kind.rawValue)_\($0)_raw")) }
      let scan = axes.allSatisfy {
        Sysfs.exists(file("scan_elements/in_\(kind.rawValue)_\($0)_en"))
      }
      if raw || scan { kinds.insert(kind) }
      if (raw || scan) && !scan { buffered = false }
    }
    guard !kinds.isEmpty else { return nil }
    let name = Sysfs.readIfPresent(file("name")) ?? deviceName
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let parent = (resolved as NSString).deletingLastPathComponent
    let hub =
      (parent as NSString).lastPathComponent.hasPrefix("HID-SENSOR-")
      ? (parent as NSString).deletingLastPathComponent : parent
    let frequency = [
      "sampling_frequency", "in_accel_sampling_frequency",
      "in_anglvel_sampling_frequency",
    ]
    .firstNonNil { Sysfs.readIfPresent(file($0)).flatMap(Double.init) }
    let matrix = [
      "in_accel_mount_matrix", "in_anglvel_mount_matrix", "mount_matrix",
      "in_mount_matrix",
    ]
    .firstNonNil { Sysfs.readIfPresent(file($0)) }
    return IIODevice(
      sysfsPath: path, deviceName: deviceName, name: name,
      nodePath: (nodeDirectory as NSString).appendingPathComponent(deviceName), kinds: kinds,
      hub: hub, hasBuffer: buffered && Sysfs.exists(file("buffer/enable")),
      currentTrigger: Sysfs.readIfPresent(file("trigger/current_trigger")),
      bufferLength: Sysfs.readIfPresent(file("buffer/length")).flatMap { Int($0) },
      samplingFrequency: frequency, mountMatrixAttribute: matrix)
  }

  /// The names of the triggers in `directory` (`triggerN/name`).
  public static func triggerNames(directory: String = sysfsDirectory) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasPrefix("trigger") }.sorted().compactMap {
      Sysfs.readIfPresent((directory as NSString).appendingPathComponent("\($0)/name"))
    }
  }
}

/// An accelerometer and, when its hub or device has one, a gyroscope: one
/// IMU that drives the card.
public struct IIOIMU: Hashable, Sendable {
  public var accelerometer: IIODevice
  /// The gyroscope of the same hub, or the accelerometer itself when one
  /// device has both.
  public var gyroscope: IIODevice?

  public init(accelerometer: IIODevice, gyroscope: IIODevice?) {
    self.accelerometer = accelerometer
    self.gyroscope = gyroscope
  }

  /// The IMUs of `devices`: each accelerometer, with the first gyroscope of its hub.
  public static func group(_ devices: [IIODevice]) -> [IIOIMU] {
    devices.filter { $0.kinds.contains(.accelerometer) }.map { accel in
      if accel.kinds.contains(.gyroscope) { return IIOIMU(accelerometer: accel, gyroscope: accel) }
      let gyro = devices.first {
        $0.kinds.contains(.gyroscope) && !$0.kinds.contains(.accelerometer) && $0.hub == accel.hub
      }
      return IIOIMU(accelerometer: accel, gyroscope: gyro)
    }
  }

  /// The IMU whose accelerometer or gyroscope is `reference`: `/dev/iio:deviceN`,
  /// `iio:deviceN`, or its sysfs directory.
  public static func find(_ reference: String, in devices: [IIODevice]) -> IIOIMU? {
    let name = (reference as NSString).lastPathComponent
    let imus = group(devices)
    return imus.first { $0.accelerometer.deviceName == name }
      ?? imus.first { $0.gyroscope?.deviceName == name }
  }

  /// Whether `reference` names an IIO device rather than an evdev node.
  public static func isIIOReference(_ reference: String) -> Bool {
    (reference as NSString).lastPathComponent.hasPrefix("iio:device")
  }

  /// A name for a person: the accelerometer's, with the gyroscope's.
  public var name: String {
    guard let gyroscope, gyroscope != accelerometer else { return accelerometer.name }
    return "\(accelerometer.name) + \(gyroscope.name)"
  }
}
