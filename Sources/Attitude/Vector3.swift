/// A vector in three dimensions, in whatever frame and unit its name says.
///
/// `==` is exact; use ``isApproximatelyEqual(to:tolerance:)`` to compare
/// computed values.
public struct Vector3: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var z: Double

  @inlinable
  public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  public static let zero = Vector3(0, 0, 0)

  @inlinable @inline(__always) public var length: Double { (x * x + y * y + z * z).squareRoot() }
  @inlinable @inline(__always) public var lengthSquared: Double { x * x + y * y + z * z }

  /// The vector scaled to length 1; `nil` for the zero vector or a non-finite one.
  @inlinable
  public var normalized: Vector3? {
    let n = length
    guard n > 0, n.isFinite else { return nil }
    return self / n
  }

  /// True when every component is finite (no NaN, no infinity).
  @inlinable @inline(__always) public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

  @inlinable @inline(__always)
  public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }

  @inlinable @inline(__always)
  public func cross(_ o: Vector3) -> Vector3 {
    Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
  }

  @inlinable
  public func isApproximatelyEqual(to other: Vector3, tolerance: Double) -> Bool {
    (self - other).length <= tolerance
  }

  @inlinable @inline(__always) public static func + (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x + b.x, a.y + b.y, a.z + b.z)
  }
  @inlinable @inline(__always) public static func - (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x - b.x, a.y - b.y, a.z - b.z)
  }
  @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
  @inlinable @inline(__always) public static func * (a: Vector3, s: Double) -> Vector3 {
    Vector3(a.x * s, a.y * s, a.z * s)
  }
  @inlinable @inline(__always) public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
  @inlinable @inline(__always) public static func / (a: Vector3, s: Double) -> Vector3 {
    Vector3(a.x / s, a.y / s, a.z / s)
  }
  @inlinable @inline(__always) public static func += (a: inout Vector3, b: Vector3) { a = a + b }
  @inlinable @inline(__always) public static func -= (a: inout Vector3, b: Vector3) { a = a - b }
}
