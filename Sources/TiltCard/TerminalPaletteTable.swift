import Foundation

/// xterm's 256 colours looked up by 24-bit colour instead of searched: for
/// each whole colour, the first time it is asked for, the indices that can
/// be the nearest (``TerminalPalette/nearest256(_:)``) to a colour within
/// half a step of it (``TerminalPaletteRegion``) are found and kept. Where
/// that is one index the lookup is the answer; where it is two (a colour by
/// a border between two indices) the two distances are measured; where it
/// is more the palette is searched. The table spans all 2²⁴ colours, a byte
/// each (and two for the pairs), but only the pages of those asked for are
/// ever touched (zeroed memory from the system).
///
/// Not thread-safe: one table per screen, used from one thread.
final class TerminalPaletteTable {
  /// By the bits of r, g and b interleaved: the index; ``border`` where the
  /// colours around it have more than two, ``pair`` where two (in
  /// ``pairs``); 0 for not found yet (no colour's nearest is one of the 16
  /// ANSI colours, so no code is an index). `nil` where the memory could
  /// not be had: then every colour is searched.
  private let entries: UnsafeMutablePointer<UInt8>?
  private let pairs: UnsafeMutablePointer<UInt16>?
  /// By the same key: a floor's index (high byte) and the nearest no
  /// darker than it over the whole colour's cube, or ``border``.
  private let floors: UnsafeMutablePointer<UInt16>?
  private static let border: UInt8 = 1
  private static let pair: UInt8 = 2
  /// Each index's colour, at hand (not behind a global's lazy start).
  let colors: [TerminalColor] = (0..<256).map {
    $0 < 16 ? .black : TerminalPalette.rgb(ofIndex256: UInt8($0))
  }
  /// Each index's luma, cb and cr (``TerminalPalette/chroma256``), three a row.
  private let terms: UnsafeMutablePointer<Double>
  /// Each index's luma (``TerminalPalette/luma256``).
  private let lumas: UnsafeMutablePointer<Double>
  /// Each byte's bits spread to every third bit (read without bounds
  /// checks: the index is a rounded channel, 0…255).
  private let spread: UnsafeMutablePointer<Int>

  init() {
    entries = calloc(1 << 24, 1)?.assumingMemoryBound(to: UInt8.self)
    pairs = calloc(1 << 24, 2)?.assumingMemoryBound(to: UInt16.self)
    floors = calloc(1 << 24, 2)?.assumingMemoryBound(to: UInt16.self)
    terms = .allocate(capacity: 3 * 256)
    for (i, t) in TerminalPalette.chroma256.enumerated() {
      (terms[3 * i], terms[3 * i + 1], terms[3 * i + 2]) = (t.luma, t.cb, t.cr)
    }
    lumas = .allocate(capacity: 256)
    lumas.initialize(from: TerminalPalette.luma256, count: 256)
    spread = .allocate(capacity: 256)
    for v in 0..<256 {
      spread[v] = (0..<8).reduce(0) { $0 | ((v >> $1) & 1) << (3 * $1) }
    }
  }

  deinit {
    free(entries)
    free(pairs)
    free(floors)
    terms.deallocate()
    lumas.deallocate()
    spread.deallocate()
  }

  /// The index nearest to `c`.
  @inline(__always)
  func nearest(_ c: TerminalColor) -> UInt8 {
    guard let entries, let pairs else { return TerminalPalette.nearest256(c) }
    let (r, g, b) = (Self.channel(c.r), Self.channel(c.g), Self.channel(c.b))
    // The channels' bits interleaved, so that near colours are near in the
    // table (a frame's colours then share its cache lines).
    let key = spread[r] << 2 | spread[g] << 1 | spread[b]
    let entry = entries[key]
    if entry > Self.pair { return entry }
    return lookUp(c, r, g, b, key: key, in: entries, pairs)
  }

  /// `v` within 0…255 rounded to nearest, halves up: `Int(t)` of
  /// t = v + 0.5 (0.5…255.5) without its checks for a value out of range:
  /// t + 1.5·2⁵² leaves t rounded (halves to even) in the low bits, one
  /// less where that rounded up.
  @inline(__always)
  private static func channel(_ v: Double) -> Int {
    let t = min(max(v, 0), 255) + 0.5
    let magic = 6_755_399_441_055_744.0
    let y = t + magic
    let rounded = Int(truncatingIfNeeded: y.bitPattern) & 0x1FF
    return (y - magic > t ? rounded &- 1 : rounded) & 0xFF
  }

  /// The index of a colour not looked up before, or by a border.
  @inline(never)
  private func lookUp(
    _ c: TerminalColor, _ r: Int, _ g: Int, _ b: Int, key: Int,
    in entries: UnsafeMutablePointer<UInt8>, _ pairs: UnsafeMutablePointer<UInt16>
  ) -> UInt8 {
    if entries[key] == 0 {
      let centre = TerminalColor(Double(r), Double(g), Double(b))
      switch TerminalPaletteRegion.of(cubeAbout: centre, halfWidth: 0.5) {
      case .index(let i):
        entries[key] = i
        return i
      case .pair(let a, let b):
        entries[key] = Self.pair
        pairs[key] = UInt16(a) << 8 | UInt16(b)
      case .border:
        entries[key] = Self.border
      }
    }
    if entries[key] == Self.pair {
      let p = pairs[key]
      return TerminalPaletteRegion.nearer(
        UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p), to: c, terms: terms)
    }
    return TerminalPalette.nearest256(c)
  }

  /// The index nearest to `c` no darker than index `floor`
  /// (``TerminalPalette/index256(_:floor:)``): kept for a whole colour
  /// where every colour within half a step of it has it (for the last
  /// floor asked for there), else searched.
  @inline(never)
  private func above(_ c: TerminalColor, _ floor: UInt8) -> UInt8 {
    guard let floors else { return TerminalPalette.index256(c, floor: lumas[Int(floor)]) }
    let (r, g, b) = (Self.channel(c.r), Self.channel(c.g), Self.channel(c.b))
    let key = spread[r] << 2 | spread[g] << 1 | spread[b]
    let kept = floors[key]
    if kept >> 8 == UInt16(floor) && kept & 0xFF > UInt16(Self.pair) {
      return UInt8(truncatingIfNeeded: kept)
    }
    if kept >> 8 != UInt16(floor) {
      let centre = TerminalColor(Double(r), Double(g), Double(b))
      let region = TerminalPaletteRegion.of(
        cubeAbout: centre, halfWidth: 0.5, floor: lumas[Int(floor)])
      let code = if case .index(let i) = region { i } else { Self.border }
      floors[key] = UInt16(floor) << 8 | UInt16(code)
      if code != Self.border { return code }
    }
    return TerminalPalette.index256(c, floor: lumas[Int(floor)])
  }

  /// ``TerminalPalette/index256(_:under:glow:)`` through the table.
  @inline(__always)
  func index256(_ c: TerminalColor, under: TerminalColor? = nil, glow: Double = 0) -> UInt8 {
    TerminalPalette.index256(
      c, under: under, glow: glow, nearest: nearest, luma: { lumas[Int($0)] }, above: above)
  }
}
