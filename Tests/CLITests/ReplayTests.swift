import Foundation
import TestTools
import Testing

/// `tilt-cli replay` end to end: the contract checker on every recording,
/// determinism, and the recording's clock rather than the wall's.
@Suite struct ReplayTests {
  static let sharedRecordings = [
    "../shared/data/recordings/mad-catz-xbox360-sticks.evemu",
    "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu",
    "../shared/data/broad/broad07_window22-42s_as_dualsense_motion.evemu",
    "../shared/data/broad/broad02_window36-56s_groundtruth.csv",
  ]

  static let options = [["--every-sample"], [], ["--flip-style", "two-phase"]]

  @Test(.needsShared("tools/check-frames"), arguments: ["recordings/demo.evemu"], options)
  func framesKeepTheContract(file: String, extra: [String]) throws {
    try checkContract(file, extra)
  }

  @Test(
    .needsShared("tools/check-frames"), .needsSharedData(), arguments: sharedRecordings, options)
  func framesOfSharedRecordingsKeepTheContract(file: String, extra: [String]) throws {
    try checkContract(file, extra)
  }

  func checkContract(_ file: String, _ extra: [String]) throws {
    let r = try TiltCLI.run(["replay", file, "--speed", "max", "--format", "jsonl"] + extra)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.isEmpty)
    let checkFrames = try TestTools.requireShared("tools/check-frames").path
    let check = try TiltCLI.runTool(checkFrames, ["-"], stdin: r.stdout)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test func sameInputSameBytesAtAnySpeed() throws {
    let args = ["replay", "recordings/demo.evemu", "--format", "jsonl"]
    let a = try TiltCLI.run(args + ["--speed", "max"])
    let b = try TiltCLI.run(args + ["--speed", "max"])
    let c = try TiltCLI.run(args + ["--speed", "40"])
    #expect(a.status == 0 && b.status == 0 && c.status == 0)
    #expect(a.stdout == b.stdout)
    #expect(a.stdout == c.stdout, "frames at --speed 40 differ from --speed max")
  }

  /// A recording with nothing but its header (an evemu description whose
  /// events were cut off, a CSV without rows) plays its start frame, and
  /// says why there is nothing more; a recording with samples says nothing.
  @Test func aRecordingWithoutSamplesSaysSo() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-empty-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let demo = try String(contentsOfFile: "recordings/demo.evemu", encoding: .utf8)
    let description = demo.split(separator: "\n").filter { !$0.hasPrefix("E:") }
      .joined(separator: "\n")
    let evemu = dir.appendingPathComponent("description.evemu")
    try (description + "\n").write(to: evemu, atomically: true, encoding: .utf8)
    let csv = dir.appendingPathComponent("header.csv")
    try "t_s,acc_x_g,acc_y_g,acc_z_g\n".write(to: csv, atomically: true, encoding: .utf8)
    for file in [evemu, csv] {
      let r = try TiltCLI.run(["replay", file.path, "--format", "jsonl"])
      #expect(r.status == 0)
      #expect(r.stdout.split(separator: "\n").count == 1, "the start frame: \(r.stdout)")
      #expect(r.stderr.contains("\(file.path) has no samples to play"), "stderr: \(r.stderr)")
    }
    let played = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--format", "jsonl", "--speed", "max",
    ])
    #expect(!played.stderr.contains("no samples"))
  }

  @Test func animationFramesComeAt60HzOfRecordingTime() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "jsonl",
    ])
    let frames = try Frames(r.stdout)
    let flipping = frames.items.filter { $0.flipAngle > 0.5 && $0.flipAngle < 179.5 }
    #expect(flipping.count > 20, "the demo flips the card")
    for (a, b) in zip(flipping, flipping.dropFirst()) where b.t - a.t < 0.1 {
      #expect(abs((b.t - a.t) - 1.0 / 60) < 1e-6, "frames \(a.t) and \(b.t) are not 1/60 s apart")
    }
  }

  @Test func buttonsInTheDemoFlipTheCardAndBack() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "jsonl",
    ])
    let faces = try Frames(r.stdout).items.map(\.face)
    #expect(faces.first == "front")
    #expect(faces.contains("back"))
  }

  @Test func reduceMotionNeitherTiltsNorAnimates() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "jsonl", "--reduce-motion",
    ])
    let frames = try Frames(r.stdout).items
    #expect(frames.allSatisfy { $0.rotationX == 0 && $0.rotationY == 0 })
    #expect(frames.allSatisfy { $0.flipAngle == 0 || $0.flipAngle == 180 })
  }

  @Test func aMissingFileNamesItAndExitsOne() throws {
    let r = try TiltCLI.run(["replay", "no-such.evemu", "--speed", "max"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("no-such.evemu"))
    #expect(r.stdout.isEmpty)
  }
}

/// The few fields of jsonl frames the tests look at.
struct Frames {
  struct Item {
    var t: Double
    var flipAngle: Double
    var rotationX: Double
    var rotationY: Double
    var face: String
    var pitch: Double
    var roll: Double
  }

  var items: [Item] = []

  init(_ jsonl: String) throws {
    for line in jsonl.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      let card = object["card"] as! [String: Any]
      let attitude = object["attitude"] as! [String: Any]
      items.append(
        Item(
          t: object["t"] as! Double, flipAngle: (card["flipAngle"] as! NSNumber).doubleValue,
          rotationX: (card["rotationX"] as! NSNumber).doubleValue,
          rotationY: (card["rotationY"] as! NSNumber).doubleValue, face: card["face"] as! String,
          pitch: (attitude["pitch"] as! NSNumber).doubleValue,
          roll: (attitude["roll"] as! NSNumber).doubleValue))
    }
  }
}
