import Foundation
import TestTools
import Testing

@testable import Tuning
@testable import tilt_cli

/// `tune` on every recording there is: it finishes, says what it measured and
/// what it could not, and its recommendation runs with `replay`. The plot of
/// BROAD 02 and of the upright pad, rendered to PNG, keeps its text inside
/// the canvas and its legend entries apart.
@Suite struct TuneRecordingsTests {
  static let data = TiltCLI.sharedData

  /// The shared recordings: the BROAD windows and the recordings/ folder
  /// whole; the full BROAD trials (186 s each) as a 30 s cut, from 30 s on,
  /// which holds the end of the first rest and the start of the motion.
  static var recordings: [String] {
    let fm = FileManager.default
    var files: [String] = []
    // Without ../shared/data only the project's own recordings run.
    for folder in TiltCLI.hasSharedData ? ["broad", "recordings"] : [] {
      let names =
        (try? fm.contentsOfDirectory(atPath: data.appendingPathComponent(folder).path))
        ?? []
      for name in names.sorted()
      where name.hasSuffix(".csv") || name.hasSuffix(".evemu") || name.hasSuffix(".desc") {
        files.append("../shared/data/\(folder)/\(name)")
      }
    }
    // The project's own recordings too: the demo, a joystick sweep, a CSV log.
    let own =
      (try? fm.contentsOfDirectory(
        atPath: TiltCLI.packageRoot.appendingPathComponent("recordings").path)) ?? []
    return files
      + own.sorted().filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".csv") }.map {
        "recordings/\($0)"
      }
  }

  /// A full BROAD trial cut to `from…from+length` seconds, in a temporary file.
  static func cut(_ file: String, from: Double = 30, length: Double = 30) throws -> URL {
    let text = try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent(file), encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    let header = lines.removeFirst()
    let kept = lines.filter {
      let t = Double($0.prefix { $0 != "," }) ?? -1
      return t >= from && t < from + length
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-tune-\(getpid())-\((file as NSString).lastPathComponent)")
    try ([header] + kept).joined(separator: "\n").appending("\n").write(
      to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test(arguments: recordings)
  func tuneFinishesSaysWhatItMeasuredAndItsRecommendationReplays(file: String) throws {
    let isFullTrial = file.contains("/broad_")
    let url = isFullTrial ? try Self.cut(file) : TiltCLI.packageRoot.appendingPathComponent(file)
    defer { if isFullTrial { try? FileManager.default.removeItem(at: url) } }
    let r = try TiltCLI.run(["tune", url.path])
    if file.hasSuffix(".desc") {
      // A description without events: nothing to measure, said with the file's name.
      #expect(r.status == 1, "\(r.stdout)")
      #expect(r.stderr.contains(url.path), "\(r.stderr)")
      return
    }
    #expect(r.status == 0, "\(r.stderr)")
    let lines = TuneTests.joiningContinuations(r.stdout).split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("measured: ") }, "\(r.stdout)")
    if !lines.contains(where: { $0.hasPrefix("not measured: ") }) {
      #expect(lines.filter { $0.hasPrefix("measured: ") }.count == 2, "\(r.stdout)")
    }
    let recommended = try #require(lines.first { $0.hasPrefix("recommended: tilt-cli replay ") })
    let arguments = recommended.dropFirst("recommended: tilt-cli replay \(url.path) ".count)
      .split(separator: " ").map(String.init)
    #expect(arguments.first == "--filter")
    let replay = try TiltCLI.run(
      ["replay", url.path, "--speed", "max", "--format", "jsonl"] + arguments)
    #expect(replay.status == 0, "\(arguments): \(replay.stderr)")
    #expect(!replay.stdout.isEmpty)
    // `live` takes them too: with no device it fails on the device, not on them.
    let live = try TiltCLI.run(["live", "--device", "/nonexistent-tilt-input/event0"] + arguments)
    #expect(live.status == 1, "\(arguments): \(live.stderr)")
    #expect(live.stderr.contains("/nonexistent-tilt-input/event0"), "\(live.stderr)")
  }

  /// Tunes `file` in process and draws its plot.
  static func plot(_ file: String) throws -> (
    plot: TunePlot, svg: String, height: Double, boxes: [TextBox],
    leaders: [Leader]
  ) {
    let options = try PipelineOptions(TuneCommand.parse([]))
    let path = TiltCLI.packageRoot.appendingPathComponent(file).path
    let data = try TuneData.load(
      path: path, configuration: options.tiltConfiguration().deviceMotion)
    let scorer = FilterScorer(
      data: data, base: options.motionConfiguration, card: options.cardConfiguration)
    let report = TuneReport(
      file: file, scorer: scorer, scores: TuneSearch.grid.run(scorer) { _, _ in })
    let plot = TunePlot(report: report, scorer: scorer, title: "tilt-cli tune \(file)")
    let (svg, height, boxes, leaders) = plot.renderWithLeaders()
    return (plot, svg, height, boxes, leaders)
  }

  @Test(
    .needsSharedData(),
    .needs(.rsvgConvert),
    arguments: [
      "../shared/data/broad/broad_02_undisturbed_slow_rotation_B.csv",
      "../shared/data/broad/broad07_window22-42s_as_dualsense_motion.evemu",
      "recordings/demo.evemu",
    ])
  func plotRendersWithItsTextInsideAndLegendsApart(file: String) throws {
    let (plot, svg, height, boxes, leaders) = try Self.plot(file)
    #expect(!boxes.isEmpty)
    for b in boxes {
      #expect(
        b.x0 >= 0 && b.y0 >= 0 && b.x1 <= TunePlot.width && b.y1 <= height,
        "\"\(b.text)\" at \(b.x0)…\(b.x1), \(b.y0)…\(b.y1) leaves the \(TunePlot.width)×\(height) canvas"
      )
    }
    // No two texts overlap: legends, titles, ticks, callouts, labels, the key.
    let apart = boxes
    for (i, a) in apart.enumerated() {
      for b in apart[(i + 1)...] {
        #expect(!a.overlaps(b), "\"\(a.text)\" overlaps \"\(b.text)\"")
      }
    }
    let labels = boxes.filter { $0.kind == .pointLabel }
    #expect(labels.count == plot.scores.count, "every point is labelled with its rank")
    var clashes: [String] = []
    for (i, a) in labels.enumerated() {
      for b in labels[(i + 1)...] where a.overlaps(b) { clashes.append("\(a.text)/\(b.text)") }
    }
    #expect(clashes.isEmpty, "rank labels on top of each other: \(clashes)")
    // No leader line runs through a text but its own label's ("default ←14").
    var crossings: [String] = []
    for line in leaders {
      for b in boxes where b.text != line.text && line.crosses(b) {
        crossings.append("the leader to \"\(line.text)\" crosses \"\(b.text)\"")
      }
    }
    // Settings on one spot (broad07's five unfiltered ones at the plot's
    // left edge, demo.evemu's 1-4) have their labels in one column.
    #expect(crossings.isEmpty, "\(crossings)")
    #expect(plot.renderWithLeaders().svg == svg, "the same plot draws the same SVG")
    #expect(
      boxes.contains { $0.kind == .callout && $0.text.hasPrefix("recommended") }
        || plot.recommended == plot.defaultSetting)
    // Long recordings get a zoom beside the whole trace.
    let samples = plot.series[0].times
    #expect(svg.contains("zoom: the busiest") == (samples.last! - samples[0] > TunePlot.zoomAbove))

    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-tune-plot-\(getpid())-\((file as NSString).lastPathComponent)")
    let svgURL = base.appendingPathExtension("svg")
    let pngURL = base.appendingPathExtension("png")
    defer {
      try? FileManager.default.removeItem(at: svgURL)
      try? FileManager.default.removeItem(at: pngURL)
    }
    try svg.write(to: svgURL, atomically: true, encoding: .utf8)
    let r = try TiltCLI.runTool(try Tool.rsvgConvert.require(), [svgURL.path, "-o", pngURL.path])
    #expect(r.status == 0, "\(r.stderr)")
    let png = try Data(contentsOf: pngURL)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // A blank 1000-pixel-wide canvas compresses to a few kilobytes.
    #expect(png.count > 30_000, "the PNG is \(png.count) bytes: blank?")
  }

  /// Issue 22: on BROAD 02 the plotted roll jumped between 0 and ±175° (Euler
  /// angles at ±90° pitch). Every step of every curve, across any break in
  /// it, is now no larger than the motion's: at most π/2 times the rotation
  /// between the two samples (the rotation vector's bound), plus rounding.
  @Test(
    .needsSharedData(),
    arguments: [
      "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu",
      "recordings/demo.evemu",
    ])
  func plottedAnglesJumpNoMoreThanTheMotion(file: String) throws {
    let plot = try Self.plot(file).plot
    for series in plot.series {
      for angle in [TunePlot.Angle.pitch, .roll] {
        let (times, values) = TunePlot.angles(series.times, series.attitudes, angle)
        // The sample each plotted value is from, by time.
        var index: [Double: Int] = [:]
        for (i, t) in series.times.enumerated() where index[t] == nil { index[t] = i }
        var last: (value: Double, sample: Int)?
        var worst = (excess: -Double.infinity, at: 0.0, step: 0.0, motion: 0.0)
        for (t, v) in zip(times, values) where !v.isNaN {
          let i = try #require(index[t])
          if let last {
            let motion = degrees(rotationAngle(series.attitudes[last.sample], series.attitudes[i]))
            let step = abs(v - last.value)
            if step - (Double.pi / 2 * motion + 0.01) > worst.excess {
              worst = (step - (Double.pi / 2 * motion + 0.01), t, step, motion)
            }
          }
          last = (v, i)
        }
        #expect(
          worst.excess <= 0,
          "\(series.name) \(angle): a step of \(worst.step)° at \(worst.at) s for \(worst.motion)° of motion"
        )
      }
    }
  }

  /// Coincident points are one cluster; a column of their labels shares its
  /// near edge, beyond every point, and its labels do not overlap.
  @Test func coincidentPointsGetOneColumnBesideThem() {
    let points = [(100.0, 50.0), (100.5, 50.2), (300, 50), (100, 49.8), (105, 50)]
    #expect(LabelPlacer.clusters(points, within: 4) == [[0, 1, 3], [2], [4]])
    let widths = [6.4, 6.4, 12.8]
    let area = (x0: 0.0, y0: 0.0, x1: 500.0, y1: 58.0)
    let columns = LabelPlacer.columnPlaces(
      of: [points[0], points[1], points[3]], widths: widths, lineHeight: 13.5, distances: [14],
      within: area)
    #expect(!columns.isEmpty)
    for column in columns {
      let nearEdges = zip(column, widths).map { c, w in c.0 > 100.5 ? c.0 - w / 2 : c.0 + w / 2 }
      #expect(nearEdges.allSatisfy { abs($0 - nearEdges[0]) < 1e-9 }, "\(column)")
      #expect(nearEdges[0] >= 114.5 || nearEdges[0] <= 86, "\(column)")
      for (a, b) in zip(column, column.dropFirst()) { #expect(b.1 - a.1 == 13.5) }
      #expect(column.last!.1 + 6.75 <= area.y1 + 1e-9, "moved inside the area: \(column)")
    }
  }

  @Test func niceTicksFallOnOneTwoFiveSteps() {
    let axis = Axis.linear(0, 186, target: 5)
    #expect(axis.ticks.map(\.value) == [0, 50, 100, 150, 200])
    let small = Axis.linear(0, 0.083, target: 5)
    #expect(small.ticks.map(\.label) == ["0.00", "0.02", "0.04", "0.06", "0.08", "0.10"])
    let log = Axis.auto([0, 0.4, 12, 150], target: 6, floor: 0.1)
    #expect(log.isLog)
    #expect(log.ticks.first?.label == "≤0.2", "\(log.ticks.map(\.label))")
    for tick in log.ticks.dropFirst() {
      let m = tick.value / pow(10, log10(tick.value).rounded(.down))
      #expect([1, 2, 5].contains { abs($0 - m) < 1e-9 }, "\(tick.value)")
    }
  }
}

extension TuneRecordingsTests {
  @Test func logAxesOverManyDecadesTickAtPowersOfTen() {
    let log = Axis.auto([0, 0.4, 12, 1500], target: 6, floor: 0.1)
    #expect(log.ticks.map(\.label) == ["≤0.1", "1", "10", "100", "1000", "10000"])
  }
}

extension Tool {
  /// librsvg's renderer, to check the tune plot as a picture.
  static let rsvgConvert = Tool("rsvg-convert", package: "librsvg2-bin")
}
