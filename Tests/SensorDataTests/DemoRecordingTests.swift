import Foundation
import TestTools
import Testing

@testable import SensorData

@Suite struct DemoRecordingTests {
  static let path = "recordings/demo.evemu"

  /// The bundled file is exactly what the generator makes. To regenerate it
  /// after changing the generator: `TILT_WRITE_DEMO=1 swift test --filter DemoRecordingTests`.
  @Test func bundledFileMatchesTheGenerator() throws {
    let text = DemoRecording.text
    if ProcessInfo.processInfo.environment["TILT_WRITE_DEMO"] == "1" {
      try text.write(toFile: Self.path, atomically: true, encoding: .utf8)
    }
    let bundled = try String(contentsOfFile: Self.path, encoding: .utf8)
    #expect(
      bundled == text,
      "\(Self.path) differs from DemoRecording.text; regenerate it with TILT_WRITE_DEMO=1 swift test --filter DemoRecordingTests"
    )
    #expect(text.utf8.count < 1_100_000)
  }

  @Test func demoIsAnIMUWithAButton() throws {
    let reader = try EvemuReader(path: Self.path)
    #expect(reader.info == DemoRecording.info)
    let profile = DeviceProfile.classify(reader.info)
    #expect(profile.kind == .imu)
    #expect(profile.timestamps == .msc)
    #expect(profile.deviceToCard == .identity)
    #expect(profile.buttons == [ButtonCode.south])
  }

  /// Decoded, the demo shows the described motion: ±25° of roll and pitch,
  /// the two button presses, a wrap of MSC_TIMESTAMP, 12 s of samples.
  @Test func demoDecodesToTheDescribedMotion() throws {
    let reader = try EvemuReader(path: Self.path)
    var decoder = SampleDecoder(profile: .classify(reader.info))
    var maxRoll = -Double.infinity
    var minRoll = Double.infinity
    var maxPitch = -Double.infinity
    var minPitch = Double.infinity
    var presses: [Double] = []
    var samples = 0
    var lastTime = 0.0
    var integratedRoll = 0.0
    var maxRollError = 0.0
    var previousTime: Double?
    while let frame = try reader.nextFrame() {
      guard let s = decoder.decode(frame), let f = s.acceleration else { continue }
      samples += 1
      lastTime = s.time
      let pitch = atan2(f.y, (f.x * f.x + f.z * f.z).squareRoot()) * 180 / .pi
      let roll = atan2(-f.x, f.z) * 180 / .pi
      maxRoll = max(maxRoll, roll)
      minRoll = min(minRoll, roll)
      maxPitch = max(maxPitch, pitch)
      minPitch = min(minPitch, pitch)
      presses += s.buttons.filter(\.pressed).map { _ in s.time }
      // The gyroscope, integrated, agrees with the roll the accelerometer shows
      // (the roll moves turn about card y only).
      if let t0 = previousTime, s.time < 5.5, let w = s.rotationRate {
        integratedRoll += w.y * 180 / .pi * (s.time - t0)
        maxRollError = max(maxRollError, abs(integratedRoll - roll))
      }
      previousTime = s.time
    }
    #expect(samples == 3000)
    #expect(abs(lastTime - 11.996) < 1e-9)
    #expect(abs(maxRoll - 25) < 0.2 && abs(minRoll + 25) < 0.2)
    #expect(abs(maxPitch - 25) < 0.2 && abs(minPitch + 25) < 0.2)
    #expect(presses == [11.0, 11.6])
    #expect(decoder.timestampWraps == 1)
    #expect(maxRollError < 0.3, "integrated gyro vs accelerometer roll: \(maxRollError)°")
  }

  /// libevemu (what evemu-play and evemu-device use) reads the bundled demo
  /// as this project does.
  @Test(.needs(.cc), .needs(.evemu)) func libevemuReadsTheDemo() throws {
    let checker = try LibevemuChecker.build()
    #expect(try checker.run(Self.path) == LibevemuChecker.expectedOutput(Self.path))
  }

  /// And the shared recordings, old format included.
  @Test(
    .needs(.cc), .needs(.evemu), .needsSharedData(),
    arguments: [
      "recordings/mad-catz-xbox360-sticks.evemu", "recordings/sony-ps3-controller.desc",
      "broad/broad07_window22-42s_as_dualsense_motion.evemu",
    ])
  func libevemuAgreesOnSharedRecordings(file: String) throws {
    let path = try TestData.path(file)
    let checker = try LibevemuChecker.build()
    #expect(try checker.run(path) == LibevemuChecker.expectedOutput(path))
  }

  @Test func defuzzMatchesTheKernel() {
    #expect(DemoRecording.defuzz(105, old: 100, fuzz: 16) == 100)
    #expect(DemoRecording.defuzz(112, old: 100, fuzz: 16) == 103)
    #expect(DemoRecording.defuzz(120, old: 100, fuzz: 16) == 110)
    #expect(DemoRecording.defuzz(140, old: 100, fuzz: 16) == 140)
    #expect(DemoRecording.defuzz(-140, old: 100, fuzz: 16) == -140)
  }
}
