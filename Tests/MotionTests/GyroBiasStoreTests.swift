import Attitude
import SensorData
import Foundation
import Motion
import Testing

/// The per-device store of gyroscope biases that `calibrate` writes and
/// `live` starts from.
@Suite struct GyroBiasStoreTests {
  static func scratch() throws -> String {
    let path = NSTemporaryDirectory() + "tilt-bias-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static let pad = DeviceInfo(
    name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
    id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 0x8111),
    uniq: "a0:ab:51:12:34:56")

  @Test func savedBiasLoadsBackForTheSameDevice() throws {
    let store = GyroBiasStore(directory: try Self.scratch() + "/tilt")
    defer { try? FileManager.default.removeItem(atPath: store.directory) }
    #expect(try store.load(for: Self.pad) == nil)
    let bias = StoredGyroBias(
      biasDegreesPerSecond: Vector3(0.25, -0.5, 0.125), uncertaintyDegreesPerSecond: 0.01,
      samples: 750, origin: .calibration)
    try store.save(bias, for: Self.pad)
    #expect(try store.load(for: Self.pad) == bias)
    var other = Self.pad
    other.uniq = "a0:ab:51:65:43:21"
    #expect(try store.load(for: other) == nil, "another pad of the same model has its own bias")
  }

  @Test func keyIsUniqElseIdAndName() {
    #expect(GyroBiasStore.key(for: Self.pad) == "uniq-a0_ab_51_12_34_56")
    var noUniq = Self.pad
    noUniq.uniq = ""
    #expect(
      GyroBiasStore.key(for: noUniq)
        == "id-0003-054c-0ce6-Sony_Interactive_Entertainment_DualSense_Wireless_Controller_Motion_Sensors"
    )
    var slash = noUniq
    slash.name = "../../etc/x"
    #expect(!GyroBiasStore.key(for: slash).contains("/"))
  }

  @Test func aDamagedFileIsAnErrorThatNamesIt() throws {
    let store = GyroBiasStore(directory: try Self.scratch())
    defer { try? FileManager.default.removeItem(atPath: store.directory) }
    let path = store.path(for: Self.pad)
    try Data("{\"bias\": [1, 2]}".utf8).write(to: URL(fileURLWithPath: path))
    #expect {
      try store.load(for: Self.pad)
    } throws: { error in
      "\(error)".contains(path) && "\(error)".contains("calibrate the device again")
        && !"\(error)".contains("tilt-cli")
    }
  }

  @Test func directoryFollowsXDGStateHomeThenHome() {
    #expect(
      GyroBiasStore(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.directory == "/s/tilt")
    #expect(GyroBiasStore(environment: ["HOME": "/h"])?.directory == "/h/.local/state/tilt")
    #expect(
      GyroBiasStore(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])?.directory
        == "/h/.local/state/tilt", "the XDG spec ignores a relative path")
    #expect(GyroBiasStore(environment: [:]) == nil)
  }

  @Test func storedBiasIsWhatTheFusionTakesInRadians() {
    let stored = StoredGyroBias(
      biasDegreesPerSecond: Vector3(180, 0, -90), uncertaintyDegreesPerSecond: 18, samples: 1,
      origin: .rest)
    let estimate = stored.estimate
    #expect(abs(estimate.bias.x - .pi) < 1e-12 && abs(estimate.bias.z + .pi / 2) < 1e-12)
    #expect(abs(estimate.uncertainty.y - .pi / 10) < 1e-12)
    #expect(!estimate.isConfirmedByRest)
    let back = StoredGyroBias(estimate, samples: 1, origin: .rest)
    #expect(abs(back.biasDegreesPerSecond.x - 180) < 1e-9)
  }
}
