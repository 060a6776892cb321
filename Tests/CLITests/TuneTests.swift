import Foundation
import TestTools
import Testing

/// `tilt-cli tune`: figures that a replay confirms, what a recording cannot
/// show said plainly, contract §3.9's JSON, and usage errors before any work.
@Suite struct TuneTests {
  static let uprightPad = "../shared/data/broad/broad07_window22-42s_as_dualsense_motion.evemu"
  static let groundTruthWindow = "../shared/data/broad/broad02_window36-56s_groundtruth.csv"
  static let sticks = "../shared/data/recordings/mad-catz-xbox360-sticks.evemu"

  struct Setting {
    var arguments: [String]
    var jitter: Double?
    var lag: Double?
  }

  struct Tuned {
    var object: [String: Any]
    var settings: [Setting]
    var recommended: Setting
    /// The still stretches, seconds, and the settling time at their start.
    var rest: [(Double, Double)]
    var settle: Double

    func setting(_ arguments: [String]) -> Setting? {
      settings.first { $0.arguments == arguments }
    }
  }

  static let defaultArguments = ["--filter", "oneeuro", "--min-cutoff", "1", "--beta", "5"]

  static func tune(_ file: String, _ extra: [String] = []) throws -> Tuned {
    let r = try TiltCLI.run(["tune", file, "--json"] + extra)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "no progress when stderr is not a terminal: \(r.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    func setting(_ any: Any) -> Setting {
      let o = any as! [String: Any]
      #expect(o.keys.contains("lag") && o.keys.contains("jitter"))
      return Setting(
        arguments: o["arguments"] as! [String], jitter: (o["jitter"] as? NSNumber)?.doubleValue,
        lag: (o["lag"] as? NSNumber)?.doubleValue)
    }
    let rest = (object["rest"] as! [[String: Any]]).map {
      (($0["from"] as! NSNumber).doubleValue, ($0["to"] as! NSNumber).doubleValue)
    }
    return Tuned(
      object: object, settings: (object["settings"] as! [Any]).map(setting),
      recommended: setting(object["recommended"]!), rest: rest,
      settle: (object["settle"] as! NSNumber).doubleValue)
  }

  /// The table's lines with the shell's continuations (" \\" at a line's end) joined.
  static func joiningContinuations(_ text: String) -> String {
    text.replacingOccurrences(of: #" \\\n +"#, with: " ", options: .regularExpression)
  }

  /// Every frame of a replay with `arguments`: time and quaternion.
  static func replay(_ file: String, _ arguments: [String]) throws -> [(Double, [Double])] {
    let r = try TiltCLI.run(
      ["replay", file, "--speed", "max", "--every-sample", "--format", "jsonl"] + arguments)
    #expect(r.status == 0, "\(r.stderr)")
    return try r.stdout.split(separator: "\n").map { line in
      let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      let q = ((o["attitude"] as! [String: Any])["quaternion"] as! [NSNumber]).map(\.doubleValue)
      let n = q.map { $0 * $0 }.reduce(0, +).squareRoot()
      return ((o["t"] as! NSNumber).doubleValue, q.map { $0 / n })
    }
  }

  /// The wobble of replayed frames at rest, measured from scratch as `--help`
  /// defines it: the RMS rotation angle from each settled stretch's mean
  /// rotation, drifting at its steady rate.
  static func jitter(_ frames: [(Double, [Double])], rest: [(Double, Double)], settle: Double)
    -> Double
  {
    var sum = 0.0
    var count = 0
    for (from, to) in rest {
      let still = frames.filter { $0.0 >= from + settle && $0.0 <= to }
      guard still.count > 2 else { continue }
      // The mean rotation: quaternions on one side, summed, normalised.
      var mean = [0.0, 0, 0, 0]
      for (_, q) in still {
        let sign = zip(q, still[0].1).map(*).reduce(0, +) < 0 ? -1.0 : 1.0
        for k in 0..<4 { mean[k] += sign * q[k] }
      }
      let n = mean.map { $0 * $0 }.reduce(0, +).squareRoot()
      mean = mean.map { $0 / n }
      // Each frame's rotation from the mean, as a rotation vector (mean⁻¹·q).
      let vectors = still.map { (_, q) -> [Double] in
        let (w0, x0, y0, z0) = (mean[0], -mean[1], -mean[2], -mean[3])
        var d = [
          w0 * q[0] - x0 * q[1] - y0 * q[2] - z0 * q[3],
          w0 * q[1] + x0 * q[0] + y0 * q[3] - z0 * q[2],
          w0 * q[2] - x0 * q[3] + y0 * q[0] + z0 * q[1],
          w0 * q[3] + x0 * q[2] - y0 * q[1] + z0 * q[0],
        ]
        if d[0] < 0 { d = d.map { -$0 } }
        let s = (d[1] * d[1] + d[2] * d[2] + d[3] * d[3]).squareRoot()
        let angle = 2 * atan2(s, d[0])
        return s > 0 ? [d[1], d[2], d[3]].map { $0 * angle / s } : [0, 0, 0]
      }
      let times = still.map(\.0)
      let mt = times.reduce(0, +) / Double(times.count)
      for axis in 0..<3 {
        let v = vectors.map { $0[axis] }
        let mv = v.reduce(0, +) / Double(v.count)
        let sxx = times.map { ($0 - mt) * ($0 - mt) }.reduce(0, +)
        let slope = zip(times, v).map { ($0 - mt) * ($1 - mv) }.reduce(0, +) / sxx
        for (t, x) in zip(times, v) { sum += pow(x - (mv + slope * (t - mt)), 2) }
      }
      count += still.count
    }
    return (sum / Double(max(count, 1))).squareRoot() * 180 / .pi
  }

  /// The delay of `frames` behind `reference` (same times) in motion, ms: the
  /// whole-frame shift with the least mean squared rotation angle.
  static func lag(
    _ frames: [(Double, [Double])], behind reference: [(Double, [Double])],
    rest: [(Double, Double)]
  ) -> Double {
    let moving = frames.map { f in !rest.contains { f.0 >= $0.0 && f.0 <= $0.1 } }
    let dt = (frames.last!.0 - frames[0].0) / Double(frames.count - 1)
    var best = (Double.infinity, 0)
    for shift in 0...Int(0.3 / dt) {
      var sum = 0.0
      var n = 0
      for k in shift..<frames.count where moving[k] {
        let d = abs(zip(frames[k].1, reference[k - shift].1).map(*).reduce(0, +))
        let angle = 2 * acos(min(1, d))
        sum += angle * angle
        n += 1
      }
      if sum / Double(n) < best.0 { best = (sum / Double(n), shift) }
    }
    return Double(best.1) * dt * 1000
  }

  /// Issue 13's first finding: on the pad standing upright, Euler angles
  /// measured the singularity at −90° pitch (1 to 18°). Measured on rotations,
  /// the unfiltered setting's jitter is what a replay shows, and the
  /// recommendation replayed is at least as steady and no laggier than the default.
  @Test(.needsSharedData())
  func uprightPadIsMeasuredOnRotations() throws {
    let tuned = try Self.tune(Self.uprightPad)
    let unfiltered = try #require(tuned.setting(["--filter", "none"]))
    let standard = try #require(tuned.setting(Self.defaultArguments))
    // 0.03° with a 3 s correction at rest; issue 12's fusion corrected at
    // rest with 1 s throughout (0.085°); now the fast correction follows the
    // accelerometer's disagreement beyond its noise (0.037°), and a wrong
    // inclination still recovers within 4 s (BiasEstimationTests).
    #expect(unfiltered.jitter! < 0.05, "unfiltered jitter \(unfiltered.jitter!)°")
    #expect(tuned.recommended.jitter! <= standard.jitter!)
    #expect(tuned.recommended.lag! <= standard.lag!)

    let raw = try Self.replay(Self.uprightPad, ["--filter", "none"])
    let measuredRaw = Self.jitter(raw, rest: tuned.rest, settle: tuned.settle)
    #expect(measuredRaw < 0.1)
    #expect(abs(measuredRaw - unfiltered.jitter!) <= 0.1 * unfiltered.jitter! + 0.002)
    let recommended = try Self.replay(Self.uprightPad, tuned.recommended.arguments)
    let byDefault = try Self.replay(Self.uprightPad, [])
    let steadiness = (
      Self.jitter(recommended, rest: tuned.rest, settle: tuned.settle),
      Self.jitter(byDefault, rest: tuned.rest, settle: tuned.settle)
    )
    #expect(
      abs(steadiness.0 - tuned.recommended.jitter!) <= 0.1 * tuned.recommended.jitter! + 0.002,
      "tune promised \(tuned.recommended.jitter!)°, replay gave \(steadiness.0)°")
    #expect(
      steadiness.0 <= steadiness.1 + 0.0005,
      "recommended \(steadiness.0)°, default \(steadiness.1)°")
    let lags = (
      Self.lag(recommended, behind: raw, rest: tuned.rest),
      Self.lag(byDefault, behind: raw, rest: tuned.rest)
    )
    #expect(lags.0 <= lags.1, "recommended lags \(lags.0) ms, the default \(lags.1) ms")
  }

  /// Issue 13's second finding: the sticks never leave the dead zone's
  /// neighbourhood, so lag cannot be measured; no slowest-filter recommendation.
  @Test(.needsSharedData())
  func stickRecordingSaysLagCannotBeMeasured() throws {
    var r = try TiltCLI.run(["tune", Self.sticks])
    #expect(r.status == 0, "\(r.stderr)")
    r.stdout = Self.joiningContinuations(r.stdout)
    // The stick turns the tilt by 1.1° at most in half a second, for 0.2–0.4 s:
    // too little to measure a lag on (or none at all, as a window that looked
    // back only found it, counting those turns as wobble at rest).
    // The notes are wrapped to the width: read them with their line breaks as spaces.
    let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      (text.contains("too little motion (")
        && text.contains("turning at most 1.1° in half a second)"))
        || text.contains("no motion in this recording"))
    #expect(text.contains("lag cannot be measured; record a few tilts"))
    #expect(text.contains("not ranked"))
    #expect(
      r.stdout.contains(
        "recommended: tilt-cli replay \(Self.sticks) "
          + Self.defaultArguments.joined(separator: " ")
          + "\n"))
    let tuned = try Self.tune(Self.sticks)
    #expect(tuned.object["ranked"] as? Bool == false)
    #expect(tuned.recommended.arguments == Self.defaultArguments)
    #expect(tuned.recommended.lag == nil)
    #expect(tuned.settings.allSatisfy { $0.lag == nil && $0.jitter != nil })
    #expect((tuned.object["notMeasured"] as! [String]).count == 1)
  }

  @Test(.needsSharedData())
  func groundTruthWindowRanksByTheStatedScore() throws {
    let tuned = try Self.tune(Self.groundTruthWindow, ["--fusion", "accel"])
    #expect(tuned.settings.count >= 10)
    #expect(tuned.object["ranked"] as? Bool == true)
    let scores = (tuned.object["settings"] as! [[String: Any]]).map {
      ($0["score"] as! NSNumber).doubleValue
    }
    #expect(scores == scores.sorted())
    for (s, score) in zip(tuned.settings, scores) {
      // JSON numbers carry six decimals.
      #expect(abs(score - (s.jitter! / 0.1 + s.lag! / 30)) < 1e-4)
    }
    #expect((tuned.object["settings"] as! [[String: Any]]).allSatisfy { $0["error"] is NSNumber })
    let standard = try #require(tuned.setting(Self.defaultArguments))
    #expect(
      tuned.recommended.jitter! <= standard.jitter! && tuned.recommended.lag! <= standard.lag!)
    let promised = tuned.recommended
    let measured = Self.jitter(
      try Self.replay(Self.groundTruthWindow, ["--fusion", "accel"] + promised.arguments),
      rest: tuned.rest, settle: tuned.settle)
    #expect(
      abs(measured - promised.jitter!) <= 0.1 * promised.jitter! + 0.002,
      "\(promised.arguments): tune promised \(promised.jitter!)°, replay gave \(measured)°")
  }

  @Test func tableExplainsTheScoreAndThePlotIsAnSVG() throws {
    let plot = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-tune-\(getpid()).svg")
    defer { try? FileManager.default.removeItem(at: plot) }
    let r = try TiltCLI.run(["tune", "recordings/demo.evemu", "--plot", plot.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("recommended: tilt-cli replay recordings/demo.evemu --filter"))
    #expect(r.stdout.contains("score = jitter/0.1° + lag/30 ms"))
    #expect(r.stdout.contains("why: "))
    let svg = try String(contentsOf: plot, encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    for label in ["time (s)", "pitch (°)", "roll (°)", "lag (ms)", "jitter at rest (°)"] {
      #expect(svg.contains(label), "the plot labels \(label)")
    }
  }

  @Test func helpSaysHowTheScoreIsMadeAndWhenTheExitStatusIsOne() throws {
    let r = try TiltCLI.run(["tune", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("score = jitter/0.1° + lag/30 ms"))
    // The help's own line breaks aside, it says when the exit status is 1.
    let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("With neither, nothing can be scored: exit status 1."))
    #expect(text.contains("with no motion (or too little) lag is not."))
    #expect(
      text.contains(
        "the lowest score among the settings at least as steady at rest and no laggier than the default"
      ))
  }

  /// A plot that cannot be written, or is not SVG, stops the run before any work:
  /// the usage error comes even for a recording that does not exist.
  @Test(arguments: [
    ("tune.png", "ends in .svg"), ("/nonexistent-tilt-dir/tune.svg", "does not exist"),
    ("/", "ends in .svg"), ("/tmp", "ends in .svg"),
  ])
  func plotPathIsAUsageErrorBeforeAnyWork(path: String, says: String) throws {
    let r = try TiltCLI.run(["tune", "no-such-recording.evemu", "--plot", path])
    #expect(r.status == 64, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("Error: --plot \(path)"), "\(r.stderr)")
    #expect(r.stderr.contains(says), "\(r.stderr)")
    #expect(r.stderr.contains("See 'tilt-cli tune --help'"))
  }

  /// On a terminal, stderr shows settings done of the total and the time
  /// elapsed; on a pipe it stays quiet (checked in every `tune(_:)` above).
  @Test(
    .needs(.script))
  func progressOnATerminal() throws {
    let command = "'\(TiltCLI.binary.path)' tune recordings/demo.evemu > /dev/null"
    let r = try TiltCLI.runTool(try Tool.script.require(), ["-qec", command, "/dev/null"])
    #expect(r.status == 0, "\(r.stdout)")
    let progress = try Regex(#"\] (\d+)/\1 settings, \d+\.\d s"#)
    #expect(r.stdout.contains(progress), "\(r.stdout)")
    #expect(r.stdout.contains("\u{1B}[K"), "the line is cleared at the end")
  }
}
