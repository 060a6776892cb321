import Foundation

/// An axis: its range, linear or logarithmic, and ticks at 1-2-5 steps.
struct Axis {
  var low: Double
  var high: Double
  var isLog: Bool
  var ticks: [(value: Double, label: String)]

  func fraction(_ v: Double) -> Double {
    guard high > low else { return 0.5 }
    if isLog {
      let c = max(v, low)
      return (log10(c) - log10(low)) / (log10(high) - log10(low))
    }
    return (v - low) / (high - low)
  }

  /// The 1-2-5 step nearest to `span / target`.
  static func niceStep(_ span: Double, target: Int) -> Double {
    let raw = span / Double(max(target, 1))
    let power = pow(10, (log10(raw)).rounded(.down))
    let m = raw / power
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power
  }

  /// A linear axis over `low…high` with ticks every 1-2-5 step; with `snap`
  /// the range widens to whole steps.
  static func linear(_ low: Double, _ high: Double, target: Int, snap: Bool = true) -> Axis {
    let step = niceStep(max(high - low, 1e-9), target: target)
    let a = snap ? (low / step + 1e-9).rounded(.down) * step : low
    let b = snap ? (high / step - 1e-9).rounded(.up) * step : high
    var ticks: [(Double, String)] = []
    let decimals = max(0, Int(-log10(step).rounded(.down)))
    var v = (a / step).rounded(.up) * step
    while v <= b + step * 1e-9 {
      ticks.append((v, label(v, decimals: decimals)))
      v += step
    }
    return Axis(low: a, high: b, isLog: false, ticks: ticks)
  }

  /// Logarithmic when the values span more than a factor of 20 (a zero, or a
  /// value under `floor`, sits at the low end, labelled "≤"), else linear from 0.
  static func auto(_ values: [Double], target: Int, floor: Double = 0) -> Axis {
    let values = values.map { $0 < floor ? 0 : $0 }
    let positive = values.filter { $0 > 0 }
    guard let hi = values.max(), hi > 0 else { return linear(0, 1, target: target) }
    guard let lo = positive.min(), hi / lo > 20 else { return linear(0, hi * 1.05, target: target) }
    let steps = [1.0, 2, 5]
    var low = pow(10, log10(lo).rounded(.down))
    for m in steps where m * pow(10, log10(lo).rounded(.down)) <= lo {
      low = m * pow(10, log10(lo).rounded(.down))
    }
    var high = pow(10, log10(hi).rounded(.up))
    for m in steps.reversed() where m * pow(10, log10(hi).rounded(.down)) >= hi {
      high = m * pow(10, log10(hi).rounded(.down))
    }
    var ticks: [(Double, String)] = []
    var e0 = Int(log10(low).rounded(.down))
    var e1 = Int(log10(high).rounded(.up))
    let useAll = e1 - e0 <= 4
    if !useAll {
      // Many decades: ticks at the powers of ten, the range out to whole decades.
      low = pow(10, Double(e0))
      high = pow(10, log10(hi).rounded(.up))
      (e0, e1) = (Int(log10(low).rounded()), Int(log10(high).rounded()))
    }
    for e in e0...e1 {
      for m in useAll ? steps : [1] {
        let v = m * pow(10, Double(e))
        guard v >= low * 0.999, v <= high * 1.001 else { continue }
        let text = label(v, decimals: max(0, -e))
        let zeros = values.contains { $0 <= 0 }
        ticks.append((v, ticks.isEmpty && zeros ? "≤" + text : text))
      }
    }
    return Axis(low: low, high: high, isLog: true, ticks: ticks)
  }

  static func label(_ v: Double, decimals: Int) -> String {
    let text = String(format: "%.\(min(decimals, 6))f", v)
    return Double(text) == 0 ? String(format: "%.\(min(decimals, 6))f", 0.0) : text
  }
}
