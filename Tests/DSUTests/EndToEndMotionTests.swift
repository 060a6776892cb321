import Foundation
import Testing

/// The values of `tilt-cli dsu --replay` for a recording of known motion
/// (`KnownMotionRecording`), against contract §7's axes:
/// accelerometer (X, Y, Z) = (−a_x, −a_z, +a_y),
/// gyroscope (pitch, yaw, roll) = (+ω_x, −ω_z, +ω_y).
@Suite struct EndToEndMotionTests {
  /// A stretch of consecutive packets turning about one DSU gyroscope axis.
  struct Turn: Equatable, CustomStringConvertible {
    /// 0 pitch, 1 yaw, 2 roll.
    var axis: Int
    var sign: Int
    var description: String { "\(sign > 0 ? "+" : "-")\(["pitch", "yaw", "roll"][axis])" }
  }

  /// The turns as the recording makes them, in order (about card x, y, z;
  /// each +30 then −30 deg/s).
  static let expectedTurns = [
    Turn(axis: 0, sign: 1), Turn(axis: 0, sign: -1), Turn(axis: 2, sign: 1),
    Turn(axis: 2, sign: -1), Turn(axis: 1, sign: -1), Turn(axis: 1, sign: 1),
  ]

  /// Splits packets into runs turning (|gyro| above 15 deg/s) about one
  /// dominant axis with one sign.
  static func turns(_ packets: [WirePadData]) -> [(turn: Turn, packets: [WirePadData])] {
    var runs: [(turn: Turn, packets: [WirePadData])] = []
    for p in packets {
      let g = p.gyroscope
      let magnitudes = [abs(g[0]), abs(g[1]), abs(g[2])]
      guard let m = magnitudes.max(), m > 15, let axis = magnitudes.firstIndex(of: m) else {
        runs.append((Turn(axis: -1, sign: 0), []))
        continue
      }
      let turn = Turn(axis: axis, sign: g[axis] > 0 ? 1 : -1)
      if let last = runs.last, last.turn == turn {
        runs[runs.count - 1].packets.append(p)
      } else {
        runs.append((turn, [p]))
      }
    }
    return runs.filter { $0.turn.axis >= 0 }
  }

  @Test func turnsAboutEachCardAxisComeOutOnSpecAxesWithinFivePercent() throws {
    let dir = try KnownMotionRecording.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try KnownMotionRecording.write(in: dir)
    let server = try DSUServerProcess(["--replay", file.path])
    let client = try server.client()
    // The recording is 7.5 s; 10.5 s hold its six turns whole wherever it starts.
    let packets = try client.padData(.all, for: 10.5)
    #expect(server.stop() == 0)
    try #require(packets.count > 900, "\(packets.count) packets in 10.5 s at 100 Hz")

    // Whole turns only: the first and last runs may be cut by the window.
    let runs = Self.turns(packets).dropFirst().dropLast()
    try #require(runs.count >= 6, "turns seen: \(runs.map(\.turn))")
    let start = try #require(Self.expectedTurns.firstIndex(of: runs.first!.turn))
    for (i, run) in runs.enumerated() {
      let expected = Self.expectedTurns[(start + i) % Self.expectedTurns.count]
      #expect(run.turn == expected, "turn \(i): \(run.turn), expected \(expected)")
      #expect(run.packets.count >= 90, "\(run.turn): \(run.packets.count) packets")
      // Inside the run (its edges may straddle a step): the axis within 5 %
      // of 30 deg/s, the other two under 5 % of it.
      for p in run.packets.dropFirst(2).dropLast(2) {
        let g = p.gyroscope
        let axis = run.turn.axis
        #expect(abs(abs(g[axis]) - 30) <= 1.5, "\(run.turn): \(g)")
        for other in 0..<3 where other != axis {
          #expect(abs(g[other]) <= 1.5, "\(run.turn): \(g)")
        }
      }
      // The accelerometer follows the tilt: turned 30° about card x the
      // up vector is (0, ½, √3/2), so DSU Z = +a_y reaches 0.5; about card
      // y it is (−½, 0, √3/2), so DSU X = −a_x reaches 0.5.
      let tiltAxis = [0: 2, 2: 0][run.turn.axis]
      if let tiltAxis {
        let peak = run.packets.map { $0.accelerometer[tiltAxis] }.max() ?? 0
        #expect(abs(peak - 0.5) <= 0.02, "\(run.turn): accelerometer peak \(peak)")
      }
    }
    // At rest, face up: (0, −1, 0) g and a still gyroscope.
    let still = packets.filter { p in
      (0..<3).allSatisfy { abs(p.gyroscope[$0]) < 1 } && abs(p.accelerometer.y + 1) < 0.05
    }
    try #require(still.count > 100, "\(still.count) packets at rest")
    for p in still {
      #expect(
        abs(p.accelerometer.x) <= 0.02 && abs(p.accelerometer.z) <= 0.02, "\(p.accelerometer)")
      #expect(abs(p.accelerometer.y + 1) <= 0.02, "\(p.accelerometer)")
      #expect((0..<3).allSatisfy { abs(p.gyroscope[$0]) < 0.1 }, "at rest: \(p.gyroscope)")
    }
  }

  @Test func timestampsStepAtTheRecordingsPace() throws {
    let server = try DSUServerProcess(["--replay", "recordings/roll-pitch.csv"])
    let client = try server.client()
    let packets = try client.padData(.all, for: 2)
    #expect(server.stop() == 0)
    try #require(packets.count > 100)
    let steps = zip(packets.dropFirst(), packets).map { Int64($0.timestamp) - Int64($1.timestamp) }
    let sorted = steps.sorted()
    let median = sorted[sorted.count / 2]
    // roll-pitch.csv is sampled every 10 ms.
    #expect(abs(median - 10_000) <= 100, "median step \(median) µs")
    // Forward everywhere but, at most, where the replay loops.
    #expect(steps.filter { $0 <= 0 }.count <= 1, "steps: \(steps.filter { $0 <= 0 })")
    // And the wall clock agrees with the pace: about 100 packets a second.
    #expect(packets.count > 170 && packets.count < 230, "\(packets.count) packets in 2 s")
  }
}
