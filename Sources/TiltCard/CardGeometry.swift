import Foundation

/// The face of the card that points toward the viewer.
public enum CardFace: String, Hashable, Sendable {
  case front
  case back
}

/// Turns a pose and a flip angle into what is drawn: the visible face and its
/// 4×4 transform (contract §4.2).
///
/// ## Conventions (the one place they are fixed)
///
/// View space is CSS's: origin at the card's centre, x right, y **down**,
/// z toward the viewer, in points. CSS `rotateX(a)` turns y toward z and
/// `rotateY(a)` turns z toward x, so a positive `rotateY` moves the right edge
/// away from the viewer and a positive `rotateX` moves the top edge away.
///
/// The card frame of contract §1.2 has y **up**; flipping y conjugates a turn about x
/// into the opposite turn and leaves a turn about y as it is. So the card on
/// screen turns the way the device turns (its top edge comes toward the viewer
/// for a positive pitch, its right edge goes away for a positive roll) with
///
///     R = rotateX(−rotationX) · rotateY(rotationY) · rotateY(flipAngle) · B
///
/// where `B` is `rotateY(180°)` for the back face and the identity for the
/// front: the back is drawn pre-turned half way, so it reads correctly when
/// the card has turned the other half and is never mirrored.
///
/// The transform is `P · R` with CSS's `perspective(d)`, `d` =
/// `max(width, height) / perspective`: w = 1 − z/d. Because the card turns
/// about its own centre, a face is seen from the front exactly when its
/// turned normal has z > 0, which is also exactly when its projected corners
/// have a positive signed area (shoelace, y down). The face is chosen from
/// that sign on every frame, so tilt and flip count together: turned 20°
/// about y, the card is edge-on at a flip angle of 70°, not 90°.
///
/// At exactly edge-on both faces have zero area; there the drawn flip angle
/// is nudged by ``edgeOnNudge`` degrees so the invariant holds strictly.
public enum CardGeometry {
  /// The turned face normal's z below which a face counts as edge-on.
  public static let edgeOnNormalZ = 1e-3
  /// Degrees added to the drawn flip angle when the card is edge-on.
  public static let edgeOnNudge = 0.25

  /// What the viewer sees of the card.
  public struct View: Hashable, Sendable {
    public var face: CardFace
    /// The visible face's transform: face points (x right, y down, points,
    /// origin at the centre) to view space, perspective included.
    public var transform: Matrix4
    /// The visible face's outward normal in view space (unit; z > 0).
    public var normal: SIMD3<Double>
  }

  /// The view of the card at `pose` and `flipAngle` (degrees).
  public static func view(
    pose: CardPose, flipAngle: Double, configuration: CardConfiguration
  ) -> View {
    var rotation = frontRotation(pose: pose, flipAngle: flipAngle)
    if abs(rotation.columns.2.z) < edgeOnNormalZ {
      rotation = frontRotation(pose: pose, flipAngle: flipAngle + edgeOnNudge)
    }
    var face = CardFace.front
    if rotation.columns.2.z < 0 {
      face = .back
      // R · rotateY(180°): the x and z columns change sign.
      rotation.columns.0 = -rotation.columns.0
      rotation.columns.2 = -rotation.columns.2
    }
    let d = configuration.perspectiveDistance
    let p = d.isFinite ? -1 / d : 0
    let (x, y, z) = rotation.columns
    let m = Matrix4(
      columnMajor: SIMD16(
        x.x, x.y, x.z, p * x.z, y.x, y.y, y.z, p * y.z, z.x, z.y, z.z, p * z.z, 0, 0, 0, 1))
    return View(face: face, transform: m, normal: z)
  }

  /// `rotateX(−rotationX) · rotateY(rotationY + flipAngle)` as a 3×3 matrix.
  static func frontRotation(pose: CardPose, flipAngle: Double) -> Rotation3 {
    rotateX(-pose.rotationX) * rotateY(pose.rotationY + flipAngle)
  }

  /// CSS `rotateX(degrees)` (y down, z toward the viewer).
  static func rotateX(_ degrees: Double) -> Rotation3 {
    let a = degrees * .pi / 180
    let (c, s) = (cos(a), sin(a))
    return Rotation3(columns: (SIMD3(1, 0, 0), SIMD3(0, c, s), SIMD3(0, -s, c)))
  }

  /// CSS `rotateY(degrees)` (y down, z toward the viewer).
  static func rotateY(_ degrees: Double) -> Rotation3 {
    let a = degrees * .pi / 180
    let (c, s) = (cos(a), sin(a))
    return Rotation3(columns: (SIMD3(c, 0, -s), SIMD3(0, 1, 0), SIMD3(s, 0, c)))
  }

  /// The signed area of `transform`'s projection of the face's corners
  /// (shoelace formula, y down: positive means not mirrored), square points;
  /// NaN when a corner is behind the viewer.
  public static func signedArea(of transform: Matrix4, width: Double, height: Double) -> Double {
    let (hw, hh) = (width / 2, height / 2)
    let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
    var points: [(x: Double, y: Double)] = []
    for (x, y) in corners {
      guard let p = transform.project(x: x, y: y) else { return .nan }
      points.append(p)
    }
    var sum = 0.0
    for i in 0..<4 {
      let (a, b) = (points[i], points[(i + 1) % 4])
      sum += a.x * b.y - b.x * a.y
    }
    return sum / 2
  }
}

/// A 3×3 matrix as three columns.
struct Rotation3: Hashable {
  var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

  static func == (a: Rotation3, b: Rotation3) -> Bool {
    a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(columns.0)
    hasher.combine(columns.1)
    hasher.combine(columns.2)
  }

  static func * (a: Rotation3, b: Rotation3) -> Rotation3 {
    func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
      a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z
    }
    return Rotation3(columns: (apply(b.columns.0), apply(b.columns.1), apply(b.columns.2)))
  }
}
