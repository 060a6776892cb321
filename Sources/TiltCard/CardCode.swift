/// The back's square code, one pattern for every renderer (the page's SVG path,
/// the terminal's cells): 21 × 21 modules from a fixed seed, with three finder
/// squares.
enum CardCode {
  static let size = 21

  static let modules: [[Bool]] = {
    let n = size
    var on = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
    var seed: UInt32 = 20_260_042
    for y in 0..<n {
      for x in 0..<n {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        on[y][x] = (seed >> 16) & 3 == 0 || (seed >> 20) & 1 == 0
      }
    }
    for (ox, oy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
      for y in -1...7 {
        for x in -1...7 {
          let (X, Y) = (ox + x, oy + y)
          guard X >= 0, Y >= 0, X < n, Y < n else { continue }
          let ring = max(abs(x - 3), abs(y - 3))
          on[Y][X] = ring == 3 || ring <= 1
        }
      }
    }
    return on
  }()

  static func module(x: Int, y: Int) -> Bool {
    guard x >= 0, y >= 0, x < size, y < size else { return false }
    return modules[y][x]
  }
}
