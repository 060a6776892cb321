import Attitude
import SensorData
import Foundation

/// A gyroscope's bias as stored for one device between runs.
///
/// Degrees per second in card coordinates, as a calibration's JSON
/// prints it (contract §3.8); the fusion works in rad/s (``estimate``).
public struct StoredGyroBias: Hashable, Sendable {
  /// How the value was found.
  public enum Origin: String, Sendable {
    /// A ``GyroCalibrator`` measurement: held still on purpose.
    case calibration
    /// Learned by the fusion at a rest during a live run.
    case rest
  }

  public var biasDegreesPerSecond: Vector3
  /// Standard deviation of the bias, deg/s (the largest of the three axes).
  public var uncertaintyDegreesPerSecond: Double
  public var samples: Int
  public var origin: Origin

  public init(
    biasDegreesPerSecond: Vector3, uncertaintyDegreesPerSecond: Double, samples: Int,
    origin: Origin
  ) {
    self.biasDegreesPerSecond = biasDegreesPerSecond
    self.uncertaintyDegreesPerSecond = uncertaintyDegreesPerSecond
    self.samples = samples
    self.origin = origin
  }

  /// From the fusion's estimate (rad/s).
  public init(_ estimate: GyroBiasEstimate, samples: Int, origin: Origin) {
    let u = estimate.uncertainty
    self.init(
      biasDegreesPerSecond: estimate.bias * (180 / .pi),
      uncertaintyDegreesPerSecond: max(u.x, u.y, u.z) * 180 / .pi, samples: samples,
      origin: origin)
  }

  /// As the fusion takes it: rad/s; not yet confirmed by a rest of this run.
  public var estimate: GyroBiasEstimate {
    GyroBiasEstimate(
      bias: biasDegreesPerSecond * (.pi / 180),
      uncertainty: uncertaintyDegreesPerSecond * .pi / 180, isConfirmedByRest: false)
  }
}

/// Where each device's gyroscope bias is kept between runs:
/// `$XDG_STATE_HOME/tilt`, else `~/.local/state/tilt`, one small JSON file a
/// device, named by its `uniq` or, without one, by bus, vendor, product and
/// name (a pad's uniq is its MAC address; the name alone is shared by every
/// pad of a model).
public struct GyroBiasStore: Sendable {
  /// The folder that holds the files.
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// The user's store, from the environment's `XDG_STATE_HOME` or `HOME`;
  /// `nil` when neither is set.
  public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      self.init(directory: state + "/tilt")
    } else if let home = environment["HOME"], !home.isEmpty {
      self.init(directory: home + "/.local/state/tilt")
    } else {
      return nil
    }
  }

  /// The file name part that identifies `device`.
  public static func key(for device: DeviceInfo) -> String {
    let uniq = device.uniq.trimmingCharacters(in: .whitespaces)
    if !uniq.isEmpty { return "uniq-" + sanitized(uniq) }
    let id = device.id
    let numbers = [id.bustype, id.vendor, id.product].map { hex4($0) }.joined(separator: "-")
    return "id-\(numbers)-" + sanitized(device.name)
  }

  /// The file that holds `device`'s bias.
  public func path(for device: DeviceInfo) -> String {
    directory + "/gyro-bias-" + Self.key(for: device) + ".json"
  }

  /// The stored bias of `device`, or `nil` when none is stored. A file that
  /// cannot be read as one is an error that names it.
  public func load(for device: DeviceInfo) throws(StoreError) -> StoredGyroBias? {
    let path = path(for: device)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StoreError(path: path, problem: "cannot be read")
    }
    let object = try? JSONSerialization.jsonObject(with: data)
    guard let fields = object as? [String: Any],
      let bias = fields["bias"] as? [Double], bias.count == 3, bias.allSatisfy(\.isFinite),
      let uncertainty = fields["uncertainty"] as? Double, uncertainty.isFinite,
      uncertainty >= 0,
      let samples = fields["samples"] as? Int
    else {
      throw StoreError(
        path: path,
        problem: "is not a stored gyroscope bias (expected bias, uncertainty, samples)")
    }
    let origin = (fields["origin"] as? String).flatMap(StoredGyroBias.Origin.init) ?? .rest
    return StoredGyroBias(
      biasDegreesPerSecond: Vector3(bias[0], bias[1], bias[2]),
      uncertaintyDegreesPerSecond: uncertainty, samples: samples, origin: origin)
  }

  /// Stores `bias` for `device`, replacing what was there; the file is
  /// written whole or not at all.
  public func save(_ bias: StoredGyroBias, for device: DeviceInfo) throws(StoreError) {
    let path = path(for: device)
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      let b = bias.biasDegreesPerSecond
      let fields: [String: Any] = [
        "device": device.name, "bias": [b.x, b.y, b.z],
        "uncertainty": bias.uncertaintyDegreesPerSecond, "samples": bias.samples,
        "origin": bias.origin.rawValue,
      ]
      let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw StoreError(path: path, problem: "cannot be written (\(error.localizedDescription))")
    }
  }

  /// Removes `device`'s stored bias, if any.
  public func remove(for device: DeviceInfo) {
    try? FileManager.default.removeItem(atPath: path(for: device))
  }

  private static func sanitized(_ text: String) -> String {
    String(
      text.unicodeScalars.map { c -> Character in
        let safe = c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil)
        return safe || c == "-" || c == "." ? Character(c) : "_"
      })
  }

  private static func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}

/// A stored bias file that could not be read or written.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
  public let path: String
  /// What is wrong with the file, after its path: "cannot be read".
  public let problem: String

  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  public var description: String {
    "\(path) \(problem); remove it, or calibrate the device again to store a new one"
  }
}
