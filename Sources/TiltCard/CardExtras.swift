import Foundation

/// The lighting and depth cues drawn with a frame, beyond the contract's keys.
///
/// All are derived from the visible face's normal `n` in view space (x right,
/// y down, z toward the viewer) and the flip angle, as if lit by a fixed light
/// at the viewer, slightly above.
public struct CardExtras: Hashable, Sendable {
  /// How much the face is darkened, 0 (facing the viewer) … 1 (edge-on):
  /// `1 − n.z`. Renderers multiply the face's colour by `1 − 0.6·shade`.
  public var shade: Double
  /// Scale toward the viewer mid-flip: `1 + 0.06·sin(flipAngle)`.
  public var lift: Double
  /// Where the highlight sits, points from the card's centre in view space:
  /// it slides against the tilt, `(−n.x·width/2, −n.y·height/2)`.
  public var sheenX: Double
  public var sheenY: Double
  /// The drop shadow's offset and blur radius, points: it falls below the card
  /// and away from the light, longer and softer as the card lifts.
  public var shadowX: Double
  public var shadowY: Double
  public var shadowBlur: Double

  public init(
    shade: Double, lift: Double, sheenX: Double, sheenY: Double,
    shadowX: Double, shadowY: Double, shadowBlur: Double
  ) {
    self.shade = shade
    self.lift = lift
    self.sheenX = sheenX
    self.sheenY = sheenY
    self.shadowX = shadowX
    self.shadowY = shadowY
    self.shadowBlur = shadowBlur
  }

  /// The cues for a face with view-space normal `normal` at `flipAngle` degrees.
  public init(normal: SIMD3<Double>, flipAngle: Double, width: Double, height: Double) {
    let lift = 1 + 0.06 * abs(sin(flipAngle * .pi / 180))
    let depth = 8 + 60 * (lift - 1)
    self.init(
      shade: min(max(1 - normal.z, 0), 1),
      lift: lift,
      sheenX: -normal.x * width / 2,
      sheenY: -normal.y * height / 2,
      shadowX: normal.x * depth,
      shadowY: depth + normal.y * depth,
      shadowBlur: 2 * depth)
  }
}
