import Attitude
import Foundation

@testable import NewCard
@testable import OldCard

// The subpixels two TiltCards draw, for scripts/compare-terminal-canvas
// (built there with OldCard, an earlier commit's, and NewCard, the
// checkout's, both with testing enabled): the canvases of FRAMES frames of a
// made-up tilt and flip of scripts/terminal-motion.swift (every fifth of 300 frames, a flip
// among them) at each size, with and without the backdrop and smoothing,
// each drawn with a cache kept from frame to frame as the view does. Prints,
// for each, the largest difference of a subpixel's colour channel (0…255),
// how many subpixels differ in whether they have a colour, and how many in
// their coverage or material.
//
// usage: canvasdiff [FRAMES]   (FRAMES: 60)
let a = CommandLine.arguments
let frames = a.count > 1 ? Int(a[1])! : 60

/// A canvas's subpixels as plain values, whichever TiltCard drew them.
struct Drawn {
  var colors: [(Double, Double, Double)?]
  var coverage: [Double]
  var materials: [String?]
}

func old(
  _ k: Int, _ columns: Int, _ rows: Int, _ backdrop: Bool, _ smooth: Bool,
  _ cache: OldCard.TerminalRasterCache
) -> Drawn {
  let t = Double(k) / 60
  let m = motion(t)
  let c = OldCard.CardConfiguration()
  let f = OldCard.CardFrame(
    t: t, motion: m, pose: OldCard.CardPose(attitude: m.attitude, configuration: c),
    flipAngle: flip(k), flipped: flip(k) > 90, state: .active, configuration: c)
  let canvas = OldCard.TerminalCanvas(
    frame: f, face: OldCard.TerminalCardFace(width: c.width, height: c.height),
    columns: columns, rows: rows, backdrop: backdrop, hardShadow: !backdrop, smooth: smooth,
    cache: cache)
  let d = Drawn(
    colors: canvas.colors.map { $0.map { ($0.r, $0.g, $0.b) } }, coverage: canvas.coverage,
    materials: canvas.materials.map { $0.map { "\($0)" } })
  cache.recycle(canvas)
  return d
}

func new(
  _ k: Int, _ columns: Int, _ rows: Int, _ backdrop: Bool, _ smooth: Bool,
  _ cache: NewCard.TerminalRasterCache
) -> Drawn {
  let t = Double(k) / 60
  let m = motion(t)
  let c = NewCard.CardConfiguration()
  let f = NewCard.CardFrame(
    t: t, motion: m, pose: NewCard.CardPose(attitude: m.attitude, configuration: c),
    flipAngle: flip(k), flipped: flip(k) > 90, state: .active, configuration: c)
  let canvas = NewCard.TerminalCanvas(
    frame: f, face: NewCard.TerminalCardFace(width: c.width, height: c.height),
    columns: columns, rows: rows, backdrop: backdrop, hardShadow: !backdrop, smooth: smooth,
    cache: cache)
  let d = Drawn(
    colors: canvas.colors.map { $0.map { ($0.r, $0.g, $0.b) } }, coverage: canvas.coverage,
    materials: canvas.materials.map { $0.map { "\($0)" } })
  cache.recycle(canvas)
  return d
}

print("size     backdrop smooth  largest  colour/none  coverage  material")
var worst = 0.0
for (columns, rows) in [(120, 40), (200, 60), (80, 24), (40, 12)] {
  for (backdrop, smooth) in [(true, true), (true, false), (false, true), (false, false)] {
    let (oc, nc) = (OldCard.TerminalRasterCache(), NewCard.TerminalRasterCache())
    var (largest, none, coverage, material) = (0.0, 0, 0, 0)
    for n in 0..<frames {
      let k = n * 5
      let (o, w) = (
        old(k, columns, rows, backdrop, smooth, oc), new(k, columns, rows, backdrop, smooth, nc)
      )
      for i in o.colors.indices {
        switch (o.colors[i], w.colors[i]) {
        case (let p?, let q?):
          largest = max(largest, abs(p.0 - q.0), abs(p.1 - q.1), abs(p.2 - q.2))
        case (nil, nil): break
        default: none += 1
        }
        if o.coverage[i] != w.coverage[i] { coverage += 1 }
        if o.materials[i] != w.materials[i] { material += 1 }
      }
    }
    worst = max(worst, largest)
    print(
      "\(columns)x\(rows)".padding(toLength: 9, withPad: " ", startingAt: 0)
        + "\(backdrop ? "on " : "off")      \(smooth ? "on " : "off")    "
        + String(format: "%7.4f  %11d  %8d  %8d", largest, none, coverage, material))
  }
}
print(String(format: "largest difference of a channel: %.4f of 255", worst))
