/// How the card looks and behaves: the options of SPEC §3 that belong to the card.
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

  /// Card degrees per radian of device pitch or roll (SPEC §4: default 20).
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

  /// The values ``maxTilt`` may take, degrees: 0 to 90, both included (SPEC §3).
  public static let maxTiltRange: ClosedRange<Double> = 0...90

  /// The distance from the viewer to the card's plane, points;
  /// `.infinity` without perspective.
  public var perspectiveDistance: Double {
    perspective > 0 ? max(width, height) / perspective : .infinity
  }

  /// A problem with a configuration, worded for the person who gave the option.
  public struct Problem: Error, CustomStringConvertible, Hashable, Sendable {
    public var description: String
  }

  /// This configuration, or the first value out of range, named like the CLI option.
  public func validated() throws(Problem) -> CardConfiguration {
    func bad(_ option: String, _ value: Double, _ expected: String) -> Problem {
      Problem(description: "\(option) \(value) is out of range: expected \(expected)")
    }
    guard gain.isFinite else { throw bad("--gain", gain, "a finite number of degrees per radian") }
    guard maxTilt.isFinite, Self.maxTiltRange.contains(maxTilt) else {
      throw bad("--max-tilt", maxTilt, "0 to 90 degrees, both included")
    }
    guard perspective.isFinite, perspective >= 0, perspective <= 1 else {
      throw bad("--perspective", perspective, "0…1 (0 turns perspective off)")
    }
    guard width.isFinite, height.isFinite, width > 0, height > 0, width <= 10000, height <= 10000
    else {
      throw Problem(
        description:
          "--card-size \(width)x\(height) is out of range: expected WxH in points, each 1…10000")
    }
    if let idleStop {
      guard idleStop.isFinite, idleStop > 0 else {
        throw bad("--idle-stop", idleStop, "a positive number of seconds")
      }
    }
    return self
  }
}
