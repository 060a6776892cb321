import Foundation

/// xterm's 256 colours looked up by 24-bit colour instead of searched: each
/// whole colour's nearest index (``TerminalPalette/nearest256(_:)``) is
/// found the first time it is asked for and kept, with whether every colour
/// within half a step of it has that index: the same candidates
/// (``TerminalPalette/Candidates``) over that cube, and the same nearest at
/// its corners (so the cube lies in that index's region, which is convex).
/// For such a colour the lookup is the answer; for one on a border the
/// palette is searched. The table spans all 2²⁴ colours, a byte each, but only the
/// pages of those asked for are ever touched (zeroed memory from the system).
///
/// Not thread-safe: one table per screen, used from one thread.
final class TerminalPaletteTable {
  /// By the bits of r, g and b interleaved: the index; ``border`` where the
  /// colours around it differ; 0 for not found yet (no colour's nearest is
  /// one of the 16 ANSI colours, so neither code is an index). `nil` where
  /// the memory could not be had: then every colour is searched.
  private let entries: UnsafeMutablePointer<UInt8>?
  private static let border: UInt8 = 1
  /// Each index's colour, at hand (not behind a global's lazy start).
  let colors: [TerminalColor] = (0..<256).map {
    $0 < 16 ? .black : TerminalPalette.rgb(ofIndex256: UInt8($0))
  }
  /// Each byte's bits spread to every third bit (read without bounds
  /// checks: the index is a rounded channel, 0…255).
  private let spread: UnsafeMutablePointer<Int>

  init() {
    entries = calloc(1 << 24, 1)?.assumingMemoryBound(to: UInt8.self)
    spread = .allocate(capacity: 256)
    for v in 0..<256 {
      spread[v] = (0..<8).reduce(0) { $0 | ((v >> $1) & 1) << (3 * $1) }
    }
  }

  deinit {
    free(entries)
    spread.deallocate()
  }

  /// The index nearest to `c`.
  @inline(__always)
  func nearest(_ c: TerminalColor) -> UInt8 {
    guard let entries else { return TerminalPalette.nearest256(c) }
    // Rounded to nearest, within 0…255.
    @inline(__always) func channel(_ v: Double) -> Int { Int(min(max(v, 0), 255) + 0.5) }
    let (r, g, b) = (channel(c.r), channel(c.g), channel(c.b))
    // The channels' bits interleaved, so that near colours are near in the
    // table (a frame's colours then share its cache lines).
    let key = spread[r] << 2 | spread[g] << 1 | spread[b]
    let entry = entries[key]
    if entry > Self.border { return entry }
    return lookUp(c, r, g, b, key: key, in: entries)
  }

  /// The index of a colour not looked up before, or on a border.
  @inline(never)
  private func lookUp(
    _ c: TerminalColor, _ r: Int, _ g: Int, _ b: Int, key: Int,
    in entries: UnsafeMutablePointer<UInt8>
  ) -> UInt8 {
    if entries[key] == 0 {
      let centre = TerminalColor(Double(r), Double(g), Double(b))
      let found = TerminalPalette.nearest256(centre)
      var entry = TerminalPalette.Candidates.same(aroundWhole: centre) ? found : Self.border
      search: for dr in [-0.5, 0.5] where entry != Self.border {
        for dg in [-0.5, 0.5] {
          for db in [-0.5, 0.5] {
            let corner = TerminalColor(Double(r) + dr, Double(g) + dg, Double(b) + db)
            if TerminalPalette.nearest256(corner) != found {
              entry = Self.border
              break search
            }
          }
        }
      }
      entries[key] = entry
      if entry != Self.border { return entry }
    }
    return TerminalPalette.nearest256(c)
  }

  /// ``TerminalPalette/index256(_:under:glow:)`` through the table.
  @inline(__always)
  func index256(_ c: TerminalColor, under: TerminalColor? = nil, glow: Double = 0) -> UInt8 {
    TerminalPalette.index256(c, under: under, glow: glow, nearest: nearest)
  }
}
