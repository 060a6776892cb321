import Foundation
import Testing

@testable import TiltCard

/// The palette table's answers by the indices kept per whole colour
/// (TerminalPaletteRegion) are the search's, where they are most often
/// kept: by a border between indices, across a cube level or a grey step,
/// and under the sheen's floor.
@Suite struct TerminalPaletteRegionTests {
  /// Colours within a step of a cube level, a grey step's mean or the
  /// near-greys' bound, each channel at a random fraction.
  private func nearBorders(_ count: Int) -> [TerminalColor] {
    var generator = SystemRandomNumberGenerator()
    let levels: [Double] = [95, 135, 175, 215, 255]
    return (0..<count).map { k in
      func any() -> Double { Double.random(in: 0...255, using: &generator) }
      func near(_ v: Double) -> Double { v + Double.random(in: -1...1, using: &generator) }
      switch k % 3 {
      case 0:
        // A channel by a cube level.
        return TerminalColor(near(levels.randomElement(using: &generator)!), any(), any())
      case 1:
        // A grey whose mean is by a step's bound (8 + 10·(n + ½)).
        let mean = near(13 + 10 * Double(Int.random(in: 0..<24, using: &generator)))
        return TerminalColor(near(mean), near(mean), near(mean))
      default:
        // By the near-greys' bound: a spread of about max(16, 0.3 × the highest).
        let high = Double.random(in: 20...255, using: &generator)
        return TerminalColor(high, near(high - max(16, 0.3 * high)), any() * high / 255)
      }
    }
  }

  @Test func theTableAnswersAsTheSearchByBorders() {
    let table = TerminalPaletteTable()
    var differ: [String] = []
    for c in nearBorders(60_000) {
      let (looked, searched) = (table.nearest(c), TerminalPalette.nearest256(c))
      if looked != searched { differ.append("\(c): \(looked) vs \(searched)") }
    }
    #expect(differ.isEmpty, "\(differ.count): \(differ.prefix(5))")
  }

  @Test func theTableAnswersAsTheSearchUnderTheSheen() {
    let table = TerminalPaletteTable()
    var generator = SystemRandomNumberGenerator()
    var differ: [String] = []
    for face in nearBorders(30_000) {
      let face = face.clamped
      let glow = Double.random(in: 0.02...0.3, using: &generator)
      let c = face.screened(glow)
      // As TerminalCells.quantize finds the face under the sheen.
      let (lift, gain) = (255 * glow, 1 / (1 - glow))
      let under = TerminalColor((c.r - lift) * gain, (c.g - lift) * gain, (c.b - lift) * gain)
      let looked = table.index256(c, under: under, glow: glow)
      let searched = TerminalPalette.index256(c, under: under, glow: glow)
      if looked != searched { differ.append("\(c) at \(glow): \(looked) vs \(searched)") }
    }
    #expect(differ.isEmpty, "\(differ.count): \(differ.prefix(5))")
  }
}
