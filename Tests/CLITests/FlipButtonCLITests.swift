import Evdev
import Foundation
import TestTools
import Testing

@testable import tilt_cli

/// The device's primary button flips the card: `info` names it (`flip:`,
/// `flipButtons`), and `replay` flips on it and on no other button.
@Suite struct FlipButtonCLITests {
  /// A left Joy-Con's gamepad node as hid-nintendo makes it (its stick on
  /// ABS_X/ABS_Y, minus, capture, stick click, L, ZL, the D-pad as buttons;
  /// no BTN_SOUTH, no BTN_TRIGGER), held tilted while L and then D-pad Left
  /// are pressed.
  static func leftJoyConRecording() throws -> URL {
    let stick = AbsInfo(minimum: -32767, maximum: 32767, fuzz: 250, flat: 500)
    let info = DeviceInfo(
      name: "Nintendo Switch Left Joy-Con",
      id: DeviceID(bustype: 5, vendor: 0x057e, product: 0x2006, version: 0x8001),
      codes: [
        EventType.abs: [0, 1],
        EventType.key: [0x13a, 0x135, 0x13d, 0x136, 0x138, 0x220, 0x221, 0x222, 0x223],
      ],
      absInfo: [0: stick, 1: stick])
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-left-joycon-\(getpid()).evemu")
    let writer = try EvemuWriter(path: url.path, info: info)
    func frame(_ t: Double, _ events: [(UInt16, UInt16, Int32)]) -> Frame {
      let time = EventTime(seconds: Int64(t), microseconds: Int64((t - t.rounded(.down)) * 1e6))
      return Frame(
        events: events.map { InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
          + [InputEvent(time: time, type: EventType.syn, code: 0, value: 0)])
    }
    try writer.write(frame(1.0, [(EventType.abs, 0, 8000)]))
    try writer.write(frame(2.0, [(EventType.key, 0x136, 1)]))  // L
    try writer.write(frame(2.1, [(EventType.key, 0x136, 0)]))
    try writer.write(frame(4.0, [(EventType.key, 0x222, 1)]))  // D-pad Left
    try writer.write(frame(4.1, [(EventType.key, 0x222, 0)]))
    try writer.write(frame(6.0, [(EventType.abs, 0, 8001)]))
    try writer.finish()
    return url
  }

  @Test func aLeftJoyConFlipsOnItsDPadLeftAndInfoSaysSo() throws {
    let url = try Self.leftJoyConRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let info = try TiltCLI.run(["info", url.path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("\nflip: BTN_DPAD_LEFT\n"), "\(info.stdout)")
    let json = try TiltCLI.run(["info", "--json", url.path])
    #expect(json.stdout.contains(#""flipButtons": ["#), "\(json.stdout)")
    #expect(json.stdout.contains(#""BTN_DPAD_LEFT""#), "\(json.stdout)")

    let replay = try TiltCLI.run(["replay", url.path, "--speed", "max", "--format", "jsonl"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let frames = replay.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
    func flipped(_ frame: [String: Any]) -> Bool {
      (frame["card"] as? [String: Any])?["flipped"] as? Bool ?? false
    }
    let times = frames.compactMap { $0["t"] as? Double }
    #expect(times.count == frames.count && !frames.isEmpty)
    // L at 1 s (recording time 2.0 s) flips nothing; D-pad Left at 3 s does.
    let beforeDPad = zip(times, frames).filter { $0.0 < 2.9 }.map(\.1)
    #expect(!beforeDPad.contains(where: flipped), "L flipped the card")
    let last = try #require(frames.last)
    #expect(flipped(last), "D-pad Left did not flip the card")
    #expect((last["card"] as? [String: Any])?["flipAngle"] as? Double == 180)
  }

  static let descriptions = "evemu-devices/"

  /// Real descriptions (whot/evemu-devices): what `info --json` names as the flip button.
  @Test(
    .enabled(
      if: TestTools.sharedData("evemu-devices") != nil,
      "../shared/data/evemu-devices is absent (the shared reference data is not installed)"),
    arguments: [
      ("joysticks/Microsoft X-Box 360 pad.desc", ["BTN_SOUTH"]),
      ("joysticks/Sony PLAYSTATION(R)3 Controller.desc", ["BTN_TRIGGER"]),
      ("keyboards/CHICONY USB Keyboard.desc", []),
      ("misc/Nintendo Wiimote.desc", []),
    ])
  func infoNamesTheFlipButtonOf(_ file: String, flips: [String]) throws {
    let path = try #require(TestTools.sharedData(Self.descriptions + file)).path
    let result = try TiltCLI.run(["info", "--json", path])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["flipButtons"] as? [String] == flips, "\(file)")
    let text = try TiltCLI.run(["info", path]).stdout
    let line = flips.isEmpty ? "flip: none" : "flip: " + flips.joined(separator: ", ")
    #expect(text.contains("\n" + line), "\(text)")
  }
}
