/// How far apart two words are, for "did you mean" suggestions.
public enum EditDistance {
  /// Insertions, deletions, substitutions and swaps of neighbours needed to
  /// turn `a` into `b` (the optimal string alignment distance), so `replya` is
  /// one step from `replay`.
  public static func between(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }

  /// The candidate nearest to `word`, if one is close enough to be a typo:
  /// at most two steps, and fewer than half the word's letters.
  public static func suggestion(for word: String, among candidates: some Sequence<String>)
    -> String?
  {
    let limit = min(2, (word.count - 1) / 2)
    var best: (name: String, distance: Int)?
    for candidate in candidates.sorted() {
      let distance = between(word, candidate)
      if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.name
  }
}
