import Foundation
import TestTools
import Testing

/// `tilt-cli tune`: SPEC §3's JSON, a readable plot, and recommendations that
/// `replay` really follows.
@Suite struct TuneTests {
  static let window = "../shared/data/broad/broad02_window36-56s_groundtruth.csv"

  struct Setting {
    var arguments: [String]
    var jitter: Double
  }

  func tune(_ extra: [String]) throws -> (recommended: Setting, settings: [Setting]) {
    let r = try TiltCLI.run(["tune", Self.window, "--json"] + extra)
    #expect(r.status == 0, "\(r.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    func setting(_ any: Any) -> Setting {
      let o = any as! [String: Any]
      #expect(o["lag"] is NSNumber)
      return Setting(
        arguments: o["arguments"] as! [String], jitter: (o["jitter"] as! NSNumber).doubleValue)
    }
    let settings = (object["settings"] as! [Any]).map(setting)
    return (setting(object["recommended"]!), settings)
  }

  /// The RMS wobble of replayed pitch and roll over the file's rest marks,
  /// measured as `tune` measures it (after 0.3 s of settling).
  func replayedJitter(_ arguments: [String]) throws -> Double {
    let r = try TiltCLI.run(
      [
        "replay", Self.window, "--speed", "max", "--every-sample", "--format", "jsonl",
        "--reference", "none", "--fusion", "accel",
      ] + arguments)
    #expect(r.status == 0, "\(r.stderr)")
    let frames = try Frames(r.stdout).items
    let csv = try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent(Self.window), encoding: .utf8)
    let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    let header = csv.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
    let movement = header.firstIndex(of: "movement")!
    let rest = rows.map { Double($0[movement]) == 0 }
    // Frame i is sample i with --every-sample (the first frame at t = 0 is sample 0).
    #expect(frames.count == rows.count)
    var sum = 0.0
    var count = 0
    var i = 0
    while i < rest.count {
      guard rest[i] else {
        i += 1
        continue
      }
      var j = i
      while j < rest.count, rest[j] { j += 1 }
      let settled = (i..<j).filter { frames[$0].t >= frames[i].t + 0.3 }
      if settled.count > 1, frames[j - 1].t - frames[i].t >= 0.5 {
        let p = settled.map { frames[$0].pitch }.reduce(0, +) / Double(settled.count)
        let q = settled.map { frames[$0].roll }.reduce(0, +) / Double(settled.count)
        for k in settled {
          sum +=
            (frames[k].pitch - p) * (frames[k].pitch - p) + (frames[k].roll - q)
            * (frames[k].roll - q)
          count += 2
        }
      }
      i = j
    }
    return (sum / Double(max(count, 1))).squareRoot()
  }

  @Test(.needsSharedData()) func replayGivesTheJitterTheTablePromises() throws {
    let (recommended, settings) = try tune(["--fusion", "accel"])
    #expect(settings.count >= 10)
    #expect(settings.first?.arguments == recommended.arguments)
    let steadiest = settings.min { $0.jitter < $1.jitter }!
    for promised in [recommended, steadiest] {
      let measured = try replayedJitter(promised.arguments)
      #expect(
        abs(measured - promised.jitter) <= 0.1 * promised.jitter + 0.002,
        "\(promised.arguments): tune promised \(promised.jitter)°, replay gave \(measured)°")
    }
  }

  @Test func plotIsAnSVGWithLabelledAxes() throws {
    let plot = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-tune-\(getpid()).svg")
    defer { try? FileManager.default.removeItem(at: plot) }
    let r = try TiltCLI.run(["tune", "recordings/demo.evemu", "--plot", plot.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("recommended: tilt-cli replay recordings/demo.evemu --filter"))
    let svg = try String(contentsOf: plot, encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    for label in ["time (s)", "pitch (°)", "roll (°)", "lag (ms)", "jitter at rest (°)"] {
      #expect(svg.contains(label), "the plot labels \(label)")
    }
  }
}
