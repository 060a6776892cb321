/// Why a recording cannot be tuned; the description names the file and what
/// to do, in words that name no command-line tool (the CLI adds its own).
public enum TuningError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Fewer than ten motion samples: nothing can be measured.
  case tooFewSamples(path: String, count: Int)
  /// Neither jitter (no rest) nor lag (no motion) can be measured.
  case nothingToScore(path: String, jitterProblem: String, lagProblem: String)

  public var description: String {
    switch self {
    case .tooFewSamples(let path, let count):
      return
        "\(path): \(count == 0 ? "no" : "only \(count)") motion samples: nothing can be measured; tune a recording with a few seconds still and a few tilts"
    case .nothingToScore(let path, let jitterProblem, let lagProblem):
      return "\(path): nothing can be scored: \(jitterProblem); \(lagProblem)"
    }
  }
}
