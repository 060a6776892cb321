import Attitude
import Foundation
import NewCard
import OldCard

// The raster's cost, for scripts/bench-terminal-raster (built there with two
// TiltCards: OldCard, an earlier commit's, and NewCard, the checkout's):
// draws FRAMES frames of a made-up tilt and flip (scripts/terminal-motion.swift) through
// the terminal screen, as the view does, at COLUMNS x ROWS in DEPTH (24, 256
// or 16), with the renderer named (old or new), and prints the bytes sent;
// with `hash`, also their FNV-1a hash (to show two renderers send the same).
//
// usage: raster old|new COLUMNS ROWS DEPTH FRAMES [hash]
let a = CommandLine.arguments
let (which, columns, rows, depth, frames) = (a[1], Int(a[2])!, Int(a[3])!, a[4], Int(a[5])!)
let hashes = a.count > 6 && a[6] == "hash"

var bytes = 0
var hash: UInt64 = 0xcbf2_9ce4_8422_2325
@MainActor func add(_ out: [UInt8]) {
  bytes += out.count
  guard hashes else { return }
  for byte in out { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
}
if which == "old" {
  let mode: OldCard.TerminalRenderer.ColorMode =
    depth == "24" ? .trueColor : depth == "256" ? .palette256 : .palette16
  let renderer = OldCard.TerminalRenderer(
    configuration: OldCard.CardConfiguration(), colorMode: mode,
    heading: "recordings/demo.evemu", showsTime: true, duration: 12)
  var screen = OldCard.TerminalScreen()
  for k in 0..<frames {
    let t = Double(k) / 60
    let m = motion(t)
    let f = OldCard.CardFrame(
      t: t, motion: m,
      pose: OldCard.CardPose(attitude: m.attitude, configuration: OldCard.CardConfiguration()),
      flipAngle: flip(k), flipped: flip(k) > 90, state: .active,
      configuration: OldCard.CardConfiguration())
    add(screen.update(f, renderer: renderer, columns: columns, rows: rows))
  }
} else {
  let mode: NewCard.TerminalRenderer.ColorMode =
    depth == "24" ? .trueColor : depth == "256" ? .palette256 : .palette16
  let renderer = NewCard.TerminalRenderer(
    configuration: NewCard.CardConfiguration(), colorMode: mode,
    heading: "recordings/demo.evemu", showsTime: true, duration: 12)
  var screen = NewCard.TerminalScreen()
  for k in 0..<frames {
    let t = Double(k) / 60
    let m = motion(t)
    let f = NewCard.CardFrame(
      t: t, motion: m,
      pose: NewCard.CardPose(attitude: m.attitude, configuration: NewCard.CardConfiguration()),
      flipAngle: flip(k), flipped: flip(k) > 90, state: .active,
      configuration: NewCard.CardConfiguration())
    add(screen.update(f, renderer: renderer, columns: columns, rows: rows))
  }
}
print(hashes ? "\(bytes) \(String(hash, radix: 16))" : "\(bytes)")
