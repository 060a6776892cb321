import Foundation

/// SplitMix64: a small seeded generator, the same numbers on every machine
/// and run, for tests that want noise, jitter or mutations they can repeat.
public struct SeededGenerator: RandomNumberGenerator {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A normally distributed number with standard deviation `sigma` (Box–Muller).
  public mutating func gaussian(_ sigma: Double) -> Double {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let v = Double.random(in: 0..<1, using: &self)
    return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }
}
