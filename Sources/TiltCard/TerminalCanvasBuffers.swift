import Foundation

/// The canvas's boxes of subpixels, and its buffers brought back to plain
/// (the backdrop, no coverage) outside what a frame draws.
extension TerminalCanvas {
  /// The smallest box holding `a` and `b` (an empty one adds nothing).
  static func union(_ a: Window, _ b: Window) -> Window {
    if a.x0 >= a.x1 || a.y0 >= a.y1 { return b.x0 < b.x1 && b.y0 < b.y1 ? b : (0, 0, 0, 0) }
    if b.x0 >= b.x1 || b.y0 >= b.y1 { return a }
    return (min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
  }

  /// Makes `buffer` `count` long and `plain(i)` at each index `i` outside
  /// `keep`, given that it is so outside `last` (`nil`: not known, so
  /// every index is set). `width` is the canvas's, in subpixels.
  @inline(__always)
  static func restore<T>(
    _ buffer: inout [T], count: Int, width: Int, last: Window?, keep: Window,
    plain: (Int) -> T
  ) {
    guard let last, buffer.count == count else {
      buffer.removeAll(keepingCapacity: true)
      buffer.reserveCapacity(count)
      for i in 0..<count { buffer.append(plain(i)) }
      return
    }
    buffer.withUnsafeMutableBufferPointer { buffer in
      for y in last.y0..<max(last.y1, last.y0) {
        let row = y &* width
        if y >= keep.y0 && y < keep.y1 && keep.x0 < keep.x1 {
          for x in last.x0..<max(min(last.x1, keep.x0), last.x0) {
            buffer[row &+ x] = plain(row &+ x)
          }
          for x in max(last.x0, keep.x1)..<max(last.x1, keep.x1) {
            buffer[row &+ x] = plain(row &+ x)
          }
        } else {
          for x in last.x0..<max(last.x1, last.x0) { buffer[row &+ x] = plain(row &+ x) }
        }
      }
    }
  }
}
