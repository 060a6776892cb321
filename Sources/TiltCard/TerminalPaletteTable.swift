import Foundation

/// xterm's 256 colours looked up by 24-bit colour instead of searched: each
/// colour's nearest index (``TerminalPalette/nearest256(_:)``) is found the
/// first time it is asked for and kept, so a frame costs a lookup a
/// subpixel. The table spans all 2²⁴ colours but only the pages of those
/// asked for are ever touched (zeroed memory from the system).
///
/// Not thread-safe: one table per screen, used from one thread.
final class TerminalPaletteTable {
  /// Index + 1 by `r << 16 | g << 8 | b`; 0 for not found yet. `nil` where
  /// the memory could not be had: then every colour is searched.
  private let entries: UnsafeMutablePointer<UInt8>?
  /// Each index's colour and luma, at hand (not behind a global's lazy start).
  let colors: [TerminalColor] = (0..<256).map {
    $0 < 16 ? .black : TerminalPalette.rgb(ofIndex256: UInt8($0))
  }
  private let luma = TerminalPalette.luma256

  init() {
    entries = calloc(1 << 24, 1)?.assumingMemoryBound(to: UInt8.self)
  }

  deinit { free(entries) }

  /// The index nearest to `c`, rounded to whole channels.
  func nearest(_ c: TerminalColor) -> UInt8 {
    let c = c.clamped
    // Rounded to nearest (c is 0…255).
    let key = Int(c.r + 0.5) << 16 | Int(c.g + 0.5) << 8 | Int(c.b + 0.5)
    guard let entries else { return TerminalPalette.nearest256(c) }
    let known = entries[key]
    if known != 0 { return known &- 1 }
    let found = TerminalPalette.nearest256(
      TerminalColor(Double(key >> 16), Double(key >> 8 & 0xFF), Double(key & 0xFF)))
    entries[key] = found &+ 1
    return found
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
