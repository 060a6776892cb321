/// How the card looks and behaves: the options of contract §3.2 that belong to the card.
///
/// Angles are in degrees, lengths in points, times in seconds.
public struct CardConfiguration: Hashable, Sendable {
  /// How a flip animates when `reduceMotion` is off.
  public enum FlipStyle: String, Hashable, Sendable, CaseIterable {
    /// A critically damped spring like SwiftUI's `.smooth(duration: 0.7)`.
    case spring
    /// Two linear 0.3 s halves, the older flip card.
    case twoPhase = "two-phase"
  }

  /// Card degrees per radian of device pitch or roll (contract §4.2; 20 by default, §3.2).
  public var gain: Double = 20
  /// The largest card rotation about x or y, in degrees, on either side.
  ///
  /// The default, 15°, is what a gain of 20 gives at a device tilt of 43°:
  /// enough to read as 3D, never so much that the face turns hard to read.
  /// In ``maxTiltRange`` (see ``validated()``).
  public var maxTilt: Double = 15
  /// CSS-like perspective: the viewer stands `max(width, height) / perspective`
  /// points in front of the card. 0 means no perspective (orthographic);
  /// at most 1, so that the viewer is always in front of every corner.
  public var perspective: Double = 0.5
  /// Card width, points.
  public var width: Double = 340
  /// Card height, points.
  public var height: Double = 220
  public var flipStyle: FlipStyle = .spring
  /// The card does not tilt and a flip swaps the faces at once.
  public var reduceMotion: Bool = false
  public var flipTrigger: FlipTrigger = .button
  /// Stop motion updates after this many seconds without significant motion;
  /// `nil` never stops on its own.
  public var idleStop: Double? = nil
  /// A change of the card's rotation (degrees, either axis) smaller than this
  /// since the last emitted frame does not make a new display frame.
  public var tiltEpsilon: Double = 0.05
  /// A change of attitude (degrees) that counts as motion for `idleStop`.
  public var idleMotionThreshold: Double = 1

  public init() {}

  // The values each property may take: ``validated()`` checks them, and a
  // tool's options and help read them, so each range is written here alone.

  /// The values ``gain`` may take, card degrees per radian of tilt.
  public static let gainRange: ClosedRange<Double> = -1000...1000
  /// The values ``maxTilt`` may take, degrees: 0 to 90, both included (contract §3.5).
  public static let maxTiltRange: ClosedRange<Double> = 0...90
  /// The values ``perspective`` may take: 0 (none) to 1.
  public static let perspectiveRange: ClosedRange<Double> = 0...1
  /// The values ``width`` and ``height`` may each take, points.
  public static let sizeRange: ClosedRange<Double> = 1...10_000
  /// The values ``idleStop`` may take, seconds.
  public static let idleStopRange: ClosedRange<Double> = 0.001...86_400
  /// Display frames per second of the card when none is given (`CardSession`'s rate).
  public static let defaultDisplayRateHz = 60.0
  /// The display rates a card may be given, frames per second.
  public static let displayRateRangeHz: ClosedRange<Double> = 1...1000

  /// The distance from the viewer to the card's plane, points;
  /// `.infinity` without perspective.
  public var perspectiveDistance: Double {
    perspective > 0 ? max(width, height) / perspective : .infinity
  }

  /// A property out of its range: which, its value and what it takes.
  public struct Problem: Error, CustomStringConvertible, Hashable, Sendable {
    /// The property, spelled as in Swift.
    public enum Property: String, Hashable, Sendable {
      case gain, maxTilt, perspective, size, idleStop
    }
    public var property: Property
    /// The value given, as written: `95`, or `0x220` for a size.
    public var value: String
    /// What the property takes, in words: "0 to 90 degrees, both included".
    public var expected: String

    public var description: String {
      "\(property.rawValue) \(value) is out of range: expected \(expected)"
    }
  }

  /// This configuration, or the first property out of its range.
  public func validated() throws(Problem) -> CardConfiguration {
    func check(
      _ property: Problem.Property, _ value: Double, _ range: ClosedRange<Double>,
      _ expected: String
    ) throws(Problem) {
      guard value.isFinite, range.contains(value) else {
        throw Problem(property: property, value: value.written, expected: expected)
      }
    }
    try check(.gain, gain, Self.gainRange, "\(Self.gainRange.words) degrees per radian")
    try check(
      .maxTilt, maxTilt, Self.maxTiltRange, "\(Self.maxTiltRange.words) degrees, both included")
    try check(
      .perspective, perspective, Self.perspectiveRange,
      "\(Self.perspectiveRange.words) (0 turns perspective off)")
    for side in [width, height] where !(side.isFinite && Self.sizeRange.contains(side)) {
      throw Problem(
        property: .size, value: "\(width.written)x\(height.written)",
        expected: "WxH in points, each \(Self.sizeRange.words)")
    }
    if let idleStop {
      try check(.idleStop, idleStop, Self.idleStopRange, "\(Self.idleStopRange.words) seconds")
    }
    return self
  }
}

extension ClosedRange<Double> {
  /// "0 to 90": the bounds as a person writes them.
  fileprivate var words: String { "\(lowerBound.written) to \(upperBound.written)" }
}

extension Double {
  /// The number without a trailing `.0`: `60`, `0.5`.
  fileprivate var written: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}
