import Foundation

extension String {
  fileprivate func trimmingTrailing() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}

extension TuneReport {
  /// One column of the table: a group heading over it (shared with its
  /// neighbours of the same group), its name, and one cell a setting.
  private struct Column {
    var group = ""
    var name: String
    var cells: [String?]
    /// Why the column is left out when no cell has a value.
    var reason: String
  }

  /// The report as text: the settings' table and the notes around it, each
  /// line at most `width` columns (but for a file name or an option longer
  /// than that). The lines to copy name the command-line tool `program`.
  public func table(width: Int = 100, program: String) -> String {
    func number(_ x: Double?, _ format: String) -> String? { x.map { String(format: format, $0) } }
    let jitterReason = "jitter not measured, above"
    let lagReason = "lag not measured, above"
    var columns = [
      Column(
        name: "rank", cells: scores.indices.map { canScore ? String($0 + 1) : nil },
        reason: "not ranked"),
      Column(name: "score", cells: scores.map { number($0.score, "%.2f") }, reason: "not ranked"),
      Column(
        group: "jitter (°)", name: "angle", cells: scores.map { number($0.jitter, "%.4f") },
        reason: jitterReason),
      Column(
        group: "jitter (°)", name: "card", cells: scores.map { number($0.cardJitter, "%.4f") },
        reason: jitterReason),
      Column(
        group: "drift", name: "(°/s)", cells: scores.map { number($0.drift, "%.4f") },
        reason: jitterReason),
      Column(
        group: "lag", name: "(ms)",
        cells: scores.map { s in
          s.lagAtLimit ? "≥" + String(format: "%.0f", s.lag!) : number(s.lag, "%.1f")
        }, reason: lagReason),
      Column(
        group: "overshoot (°)", name: "angle", cells: scores.map { number($0.overshoot, "%.3f") },
        reason: overshootProblem ?? lagReason),
      Column(
        group: "overshoot (°)", name: "card",
        cells: scores.map { number($0.cardOvershoot, "%.3f") },
        reason: overshootProblem ?? lagReason),
    ]
    if hasError {
      columns.append(
        Column(
          group: "error", name: "(°)", cells: scores.map { number($0.error, "%.3f") },
          reason: "no ground truth"))
    }
    // Columns with nothing measured are left out, each group with a line saying why.
    var leftOut: [(names: [String], reason: String)] = []
    for c in columns where c.cells.allSatisfy({ $0 == nil }) {
      let name =
        c.group.isEmpty
        ? c.name
        : c.name.hasPrefix("(")
          ? String(c.group.split(separator: " ")[0])
          : c.group.split(separator: " ")[0] + " " + c.name
      if let k = leftOut.firstIndex(where: { $0.reason == c.reason }) {
        leftOut[k].names.append(String(name))
      } else {
        leftOut.append(([String(name)], c.reason))
      }
    }
    columns.removeAll { $0.cells.allSatisfy { $0 == nil } }
    let widths = columns.map { c in
      max(c.name.count, c.cells.map { ($0 ?? "-").count }.max() ?? 1)
    }
    // Group headings: over the columns of one group, right-aligned; wider
    // than the columns' own, the columns widen.
    var groupLine = ""
    var nameLine = ""
    var widened = widths
    var k = 0
    while k < columns.count {
      var end = k + 1
      while end < columns.count, !columns[k].group.isEmpty, columns[end].group == columns[k].group {
        end += 1
      }
      let span = widened[k..<end].reduce(0, +) + 2 * (end - k - 1)
      let group = columns[k].group
      if group.count > span { widened[end - 1] += group.count - span }
      let total = widened[k..<end].reduce(0, +) + 2 * (end - k - 1)
      if k > 0 {
        groupLine += "  "
        nameLine += "  "
      }
      groupLine += String(repeating: " ", count: total - group.count) + group
      nameLine += (k..<end).map { pad(columns[$0].name, widened[$0]) }.joined(separator: "  ")
      k = end
    }
    let settingColumn = nameLine.count + 2
    var lines = wrap(
      "\(program) tune \(file): \(scores.count) settings, \(Int((restFraction * 100).rounded()))% of the recording at rest.",
      width: width)
    for m in measured { lines += wrap("measured: " + m + ".", width: width) }
    for p in problems { lines += wrap("not measured: " + p + ".", width: width) }
    if !leftOut.isEmpty {
      let groups = leftOut.map { "\($0.names.joined(separator: ", ")) (\($0.reason))" }
      lines += wrap(
        "left out, with nothing measured: " + groups.joined(separator: "; ") + ".", width: width)
    }
    lines += ["", groupLine.trimmingTrailing(), nameLine + "  setting"]
    for (i, s) in scores.enumerated() {
      let row = columns.indices.map { pad(columns[$0].cells[i] ?? "-", widened[$0]) }
        .joined(separator: "  ")
      // The setting's options two by two (an option and its value stay together).
      var words: [String] = []
      let arguments = s.setting.arguments
      var a = 0
      while a < arguments.count {
        let pair = a + 1 < arguments.count && !arguments[a + 1].hasPrefix("--")
        words.append(pair ? arguments[a] + " " + arguments[a + 1] : arguments[a])
        a += pair ? 2 : 1
      }
      if s.setting == recommended.setting { words.append(" ← recommended") }
      let settingLines = fill(words, width: max(20, width - settingColumn))
      lines.append(row + "  " + settingLines[0])
      for more in settingLines.dropFirst() {
        lines.append(String(repeating: " ", count: settingColumn) + more)
      }
    }
    lines.append("")
    for note in explanation { lines += wrap(note, width: width) }
    let options = recommended.setting.arguments.joined(separator: " ")
    lines += [""]
    lines += command("recommended: \(program) replay \(file)", options, width: width)
    lines += command("         or: \(program) live", options, width: width)
    lines += wrap(basis + ".", width: width, indent: 13, lead: "        why: ")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A command line to copy: on one line if it fits, else broken before its
  /// options with a backslash, as a shell reads it.
  private func command(_ head: String, _ options: String, width: Int) -> [String] {
    let line = head + " " + options
    guard line.count > width else { return [line] }
    return [head + " \\", String(repeating: " ", count: 13) + options]
  }

  private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// Words joined by spaces into lines of at most `width` (a longer word alone on its line).
  private func fill(_ words: [String], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in words {
      let candidate = line.isEmpty ? word.trimmingCharacters(in: .whitespaces) : line + " " + word
      if candidate.count > width, !line.isEmpty {
        lines.append(line)
        line = word.trimmingCharacters(in: .whitespaces)
      } else {
        line = candidate
      }
    }
    lines.append(line)
    return lines
  }

  /// `lead` and `text` broken at spaces into lines of at most `width`, the
  /// lines after the first indented by `indent`.
  private func wrap(_ text: String, width: Int, indent: Int = 2, lead: String = "") -> [String] {
    var lines: [String] = []
    var line = lead
    let prefix = String(repeating: " ", count: indent)
    for word in text.split(separator: " ").map(String.init) {
      let fresh = line.isEmpty || line == lead || line == prefix
      let candidate = fresh ? line + word : line + " " + word
      if candidate.count > width, !fresh {
        lines.append(line)
        line = prefix + word
      } else {
        line = candidate
      }
    }
    lines.append(line)
    return lines
  }

  /// The lines under the table that say how each column is made.
  public var explanation: [String] {
    var lines = [
      canScore
        ? "\(SettingScore.scoreRule): \(SettingScore.jitterScale.compact)° of wobble at rest costs as much as \(SettingScore.lagScale.compact) ms of delay in motion."
        : "not ranked: \(problems.joined(separator: "; ")).",
      "jitter angle: RMS rotation angle of the reference-relative attitude at rest from each still stretch's mean rotation, drifting at the stretch's steady rate; drift: that rate; jitter card: the same wobble in card rotation degrees (gain \(card.gain.compact)°/rad, max tilt \(card.maxTilt.compact)°).",
      "lag: the delay that best aligns the setting's rotations with the reference's in motion. overshoot angle and card: the largest swing past the resting attitude within \(FilterScorer.overshootWindow.compact) s of a stop, in degrees and card degrees.",
    ]
    if hasError {
      lines.append(
        "error: RMS inclination error against the file's ground truth in motion (BROAD's score); shown, not in the score."
      )
    }
    return lines
  }
}
