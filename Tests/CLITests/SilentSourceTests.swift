import Foundation
import Testing

/// The loop's timers, seen from the live page: a flip animates on the loop's
/// clock when the source sends nothing, and a signal ends a served replay at
/// any speed.
@Suite struct SilentSourceTests {
  /// A served replay whose recording has ended is a source that sends
  /// nothing while the process serves on (a still device's evdev node sends
  /// nothing either). A flip from the page turns the card to its back at the
  /// display rate; with `--every-sample` on main one frame said `flipped`
  /// at 0° and no other came.
  @Test(arguments: [[], ["--every-sample"]])
  func aFlipAnimatesToTheBackWhileNothingSends(extra: [String]) throws {
    let replay = try ServedReplay(
      ["replay", "recordings/roll-pitch.csv", "--serve", "127.0.0.1:0", "--speed", "4"] + extra,
      onTerminal: false, name: "silent-flip-\(extra.count)")
    defer { replay.close() }
    let port = try #require(replay.port(), "no serving line: \(replay.stderr)")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    #expect(stream.wait(60) { $0.contains { $0.name == "end" } }, "no end: \(replay.stderr)")
    let before = stream.events.count
    #expect(ServedReplayEndTests.post("flip", port: port) == 204)
    func card(_ event: ServedEvent) -> (angle: Double, face: String)? {
      guard let card = event.frame?["card"] as? [String: Any],
        let angle = card["flipAngle"] as? Double,
        let face = card["face"] as? String
      else { return nil }
      return (angle, face)
    }
    let turned = stream.wait(30) { events in
      events.dropFirst(before).contains {
        card($0).map { $0.angle > 179 && $0.face == "back" } ?? false
      }
    }
    let after = stream.events.dropFirst(before).filter { card($0) != nil }
    #expect(
      turned,
      "the flip never turned the card over: \(after.count) frames, angles \(after.compactMap { card($0)?.angle })"
    )
    // At the display rate (60 Hz): frames 1/60 s apart on the source's clock
    // through the turn, not one frame and a jump.
    let turning = after.filter { (card($0)?.angle ?? 0) > 1 && (card($0)?.angle ?? 180) < 179 }
    #expect(turning.count >= 10, "\(turning.count) frames mid-turn")
    let times = after.compactMap(\.t)
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }
    #expect(steps.allSatisfy { $0 <= 1.0 / 60 + 1e-6 }, "steps \(steps)")
    replay.signal(SIGINT)
    #expect(replay.exitStatus(within: 30) == 0, "\(replay.stderr)")
  }

  /// `replay FILE --serve 0 --speed max` with a viewer connected ends on
  /// SIGINT and SIGTERM, exit 0, before the end of its recording; on main
  /// both were ignored once a viewer came (the waiting loop's signal pipe was
  /// gone, its handlers wrote to descriptor −1), and it played to the end.
  @Test(arguments: [SIGINT, SIGTERM])
  func aFullSpeedServedReplayEndsOnASignal(signal: Int32) throws {
    // 200 s at 1 kHz: seconds of work even at full speed.
    let csv = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-long-\(getpid())-\(signal).csv")
    defer { try? FileManager.default.removeItem(at: csv) }
    var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
    text.reserveCapacity(200_000 * 32)
    for i in 0..<200_000 {
      let t = Double(i) / 1000
      let a = 0.3 * sin(t)
      text += String(format: "%.3f,%.5f,0,%.5f\n", t, sin(a), cos(a))
    }
    try text.write(to: csv, atomically: false, encoding: .utf8)
    let replay = try ServedReplay(
      ["replay", csv.path, "--serve", "127.0.0.1:0", "--speed", "max", "--format", "jsonl"],
      onTerminal: false, name: "max-\(signal)")
    defer { replay.close() }
    // The recording is read and checked before it is served: allow for a busy machine.
    let port = try #require(
      (0..<6).lazy.compactMap { _ in replay.port() }.first, "no serving line: \(replay.stderr)")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    #expect(stream.wait(60) { $0.contains { $0.frame != nil } }, "no frame: \(replay.stderr)")
    replay.signal(signal)
    #expect(replay.exitStatus(within: 60) == 0, "\(replay.stderr)")
    let last = stream.events.compactMap(\.t).last ?? 0
    #expect(last < 199, "the replay played to its end (\(last) s) instead of ending on the signal")
  }
}
