/// How often a view that draws on the CPU may draw: no closer together than
/// a display shows frames, and no closer than keeps the drawing within a
/// share of one core. A frame that costs more (a larger terminal, a slower
/// machine) is drawn less often, never more than ``longestInterval`` apart:
/// the cost of the view stays that of a clock, and the motion it shows
/// stays smooth where drawing is cheap.
public struct DrawPacing: Sendable {
  /// The share of one core the drawing may take (0.04: 4 %).
  public var share: Double
  /// The shortest time between two frames drawn (seconds).
  public var shortestInterval: Double
  /// The longest time between two frames drawn, whatever they cost (seconds).
  public var longestInterval: Double
  /// The CPU time a drawn frame has cost, smoothed over the last few (seconds).
  public private(set) var cost: Double?

  public init(share: Double, shortestInterval: Double, longestInterval: Double) {
    self.share = share
    self.shortestInterval = shortestInterval
    self.longestInterval = longestInterval
  }

  /// Adds what one drawn frame cost (CPU seconds).
  public mutating func record(cost frame: Double) {
    guard frame.isFinite, frame >= 0 else { return }
    // A quarter of each new frame: a few frames follow a change of size or depth.
    cost = cost.map { $0 + 0.25 * (frame - $0) } ?? frame
  }

  /// The time to leave after a frame before the next (seconds).
  public var interval: Double {
    let budget = (cost ?? 0) / share
    return min(max(budget, shortestInterval), longestInterval)
  }
}
