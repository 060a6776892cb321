extension TunePlot {
  /// The points on one spot (closer than `within` pixels, chained), as
  /// lists of indices in rank order; the lists in the order of their first
  /// rank. A point alone is a list of one.
  static func clusters(_ points: [(Double, Double)], within: Double) -> [[Int]] {
    var group = Array(points.indices)
    func root(_ i: Int) -> Int { group[i] == i ? i : root(group[i]) }
    for i in points.indices {
      for j in points.indices where j > i {
        let dx = points[i].0 - points[j].0
        let dy = points[i].1 - points[j].1
        if dx * dx + dy * dy < within * within {
          let (a, b) = (root(i), root(j))
          group[max(a, b)] = min(a, b)
        }
      }
    }
    var lists: [Int: [Int]] = [:]
    for i in points.indices { lists[root(i), default: []].append(i) }
    return lists.keys.sorted().map { lists[$0]! }
  }

  /// The label centres of a cluster's labels stacked in one column beside
  /// it, one candidate per side, distance and shift, in order of preference.
  /// The column's near edge is one line for every label, beyond every point
  /// of the cluster, so a leader from a point reaches that edge only at its
  /// own label and no leader runs through another label of the column.
  /// `widths` are the labels' widths, top to bottom; `lineHeight` the pitch.
  static func columnPlaces(
    of points: [(Double, Double)], widths: [Double], lineHeight: Double,
    distances: [Double], within area: (x0: Double, y0: Double, x1: Double, y1: Double)
  ) -> [[(Double, Double)]] {
    let minX = points.map(\.0).min()!
    let maxX = points.map(\.0).max()!
    let midY = points.map(\.1).reduce(0, +) / Double(points.count)
    let height = lineHeight * Double(widths.count)
    var shifts = [0.0]
    for k in 1...widths.count { shifts += [-Double(k), Double(k)] }
    var places: [[(Double, Double)]] = []
    for r in distances {
      for side in [1.0, -1] {
        let edge = side > 0 ? maxX + r : minX - r
        for shift in shifts {
          // The column's top, moved inside the area when it would leave it.
          var top = midY - height / 2 + shift * lineHeight
          top = min(max(top, area.y0), area.y1 - height)
          places.append(
            widths.enumerated().map { k, w in
              (edge + side * w / 2, top + lineHeight * (Double(k) + 0.5))
            })
        }
      }
    }
    return places
  }
}
