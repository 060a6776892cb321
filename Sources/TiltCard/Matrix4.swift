/// A 4×4 matrix stored column-major, in the order of CSS `matrix3d()`:
/// `elements[column * 4 + row]`.
public struct Matrix4: Hashable, Sendable {
  public var elements: SIMD16<Double>

  public init(columnMajor elements: SIMD16<Double>) {
    self.elements = elements
  }

  public static let identity = Matrix4(
    columnMajor: SIMD16(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

  @inlinable
  public subscript(row: Int, column: Int) -> Double {
    get { elements[column &* 4 &+ row] }
    set { elements[column &* 4 &+ row] = newValue }
  }

  public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
    var m = Matrix4(columnMajor: SIMD16())
    for c in 0..<4 {
      for r in 0..<4 {
        var s = 0.0
        for k in 0..<4 { s += a[r, k] * b[k, c] }
        m[r, c] = s
      }
    }
    return m
  }

  /// Maps a point of the plane z = 0 and divides by w: the 2D point drawn
  /// for face point (`x`, `y`); `nil` when w ≤ 0 (behind the viewer).
  public func project(x: Double, y: Double) -> (x: Double, y: Double)? {
    let w = self[3, 0] * x + self[3, 1] * y + self[3, 3]
    guard w > 0 else { return nil }
    return (
      (self[0, 0] * x + self[0, 1] * y + self[0, 3]) / w,
      (self[1, 0] * x + self[1, 1] * y + self[1, 3]) / w
    )
  }
}
