import Foundation
import Motion
import TestTools
import Testing

/// `replay --loop`'s passes after the first come from memory: the file is
/// not read again (it is gone after the first pass here), and each pass is
/// the first one's steps as a fresh reading of the file gives them, its
/// times going on from the time reached plus the gap.
@Suite struct RecordingLoopTests {
  /// Plays `device` at full speed to the end of its pass.
  static func pass(_ device: RecordingDevice) throws -> [MotionStep] {
    var items: [MotionStep] = []
    while let batch = try device.readSteps(ready: []) { items += batch }
    return items
  }

  @Test(arguments: ["demo.evemu", "roll-pitch.csv"])
  func laterPassesComeFromMemoryAsTheFileGivesThem(_ name: String) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-loop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent(name)
    try FileManager.default.copyItem(
      at: TestTools.packageRoot.appendingPathComponent("recordings/" + name), to: copy)
    var fresh = try Recording.open(path: copy.path, configuration: .init())
    var expected: [MotionStep] = []
    while let item = try fresh.next() { expected.append(item) }

    let device = try RecordingDevice(
      Recording.open(path: copy.path, configuration: .init()), speed: nil)
    device.loop = .afterTimeReached
    device.gapBetweenPasses = 0.25
    try device.follow(DeviceUse(motion: true, buttons: true, holds: false))
    let first = try Self.pass(device)
    try FileManager.default.removeItem(at: copy)
    var end = first.last!.time
    for _ in 0..<2 {
      #expect(try device.nextPass())
      let pass = try Self.pass(device)
      #expect(pass.count == expected.count)
      let offset = end + 0.25
      for (item, original) in zip(pass, expected) {
        #expect(item.time == original.time + offset)
        #expect(item.motion?.acceleration == original.motion?.acceleration)
        #expect(item.motion?.rotationRate == original.motion?.rotationRate)
        #expect(item.pressedButtons == original.pressedButtons)
      }
      end = pass.last!.time
    }
    #expect(first.count == expected.count)
    #expect(device.playedItems == 3 * expected.count)
  }
}
