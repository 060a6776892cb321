import Foundation

/// xterm's 256 colours looked up by 24-bit colour instead of searched: each
/// whole colour's nearest index (``TerminalPalette/nearest256(_:)``) is
/// found the first time it is asked for and kept, with whether every colour
/// within half a step of it (the corners of that cube) has the same nearest
/// index. For such a colour the lookup is the answer (the cube lies in that
/// index's region); for one on a border between two indices the palette is
/// searched. The table spans all 2²⁴ colours but only the pages of those
/// asked for are ever touched (zeroed memory from the system).
///
/// Not thread-safe: one table per screen, used from one thread.
final class TerminalPaletteTable {
  /// By the bits of r, g and b interleaved: index + 1, plus ``border`` where the
  /// colours around it differ; 0 for not found yet. `nil` where the memory
  /// could not be had: then every colour is searched.
  private let entries: UnsafeMutablePointer<UInt16>?
  private static let border: UInt16 = 0x100 << 1
  /// Each index's colour and luma, at hand (not behind a global's lazy start).
  let colors: [TerminalColor] = (0..<256).map {
    $0 < 16 ? .black : TerminalPalette.rgb(ofIndex256: UInt8($0))
  }
  private let luma = TerminalPalette.luma256
  /// Each byte's bits spread to every third bit (read without bounds
  /// checks: the index is a rounded channel, 0…255).
  private let spread: UnsafeMutablePointer<Int>

  init() {
    entries = calloc(1 << 24, 2)?.assumingMemoryBound(to: UInt16.self)
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
  func nearest(_ c: TerminalColor) -> UInt8 {
    guard let entries else { return TerminalPalette.nearest256(c) }
    let c = c.clamped
    // Rounded to nearest (c is 0…255).
    let (r, g, b) = (Int(c.r + 0.5), Int(c.g + 0.5), Int(c.b + 0.5))
    // The channels' bits interleaved, so that near colours are near in the
    // table (a frame's colours then share its cache lines).
    let key = spread[r] << 2 | spread[g] << 1 | spread[b]
    var entry = entries[key]
    if entry == 0 {
      let found = TerminalPalette.nearest256(TerminalColor(Double(r), Double(g), Double(b)))
      entry = UInt16(found) + 1
      search: for dr in [-0.5, 0.5] {
        for dg in [-0.5, 0.5] {
          for db in [-0.5, 0.5] {
            let corner = TerminalColor(Double(r) + dr, Double(g) + dg, Double(b) + db)
            if TerminalPalette.nearest256(corner) != found {
              entry |= Self.border
              break search
            }
          }
        }
      }
      entries[key] = entry
    }
    if entry & Self.border != 0 { return TerminalPalette.nearest256(c) }
    return UInt8(truncatingIfNeeded: entry - 1)
  }

  /// ``TerminalPalette/index256(_:under:glow:)`` through the table: the
  /// nearest index, unless it is darker than the face under less of the
  /// sheen comes out; only then is the palette searched.
  func index256(_ c: TerminalColor, under: TerminalColor? = nil, glow: Double = 0) -> UInt8 {
    let plain = nearest(c)
    guard let under else { return plain }
    var floor = -1.0
    for k in 0..<4 {
      let lesser = under.screened(glow * Double(k) / 4)
      floor = max(floor, luma[Int(nearest(lesser))])
    }
    if luma[Int(plain)] >= floor { return plain }
    return TerminalPalette.index256(c, floor: floor)
  }
}
