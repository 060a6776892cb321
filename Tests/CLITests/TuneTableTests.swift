import Foundation
import TestTools
import Testing

/// Issue 22: `tune`'s table fits the terminal (100 columns on a pipe), names
/// each column once, leaves out what it could not measure and says why, and
/// `tune --help` gives each option its own line.
@Suite struct TuneTableTests {
  static let readmeRecordings = [
    "recordings/demo.evemu",
    "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu",
  ]

  /// The header: the two lines above the first row, the second ending in "setting".
  static func header(_ lines: [Substring]) -> (groups: Substring, names: Substring)? {
    guard let k = lines.firstIndex(where: { $0.hasSuffix("  setting") }), k > 0 else { return nil }
    return (lines[k - 1], lines[k])
  }

  /// The runs of text in `line` separated by at least `gap` spaces, with their columns.
  static func spans(_ line: Substring, gap: Int) -> [(text: String, start: Int, end: Int)] {
    var spans: [(text: String, start: Int, end: Int)] = []
    var current = ""
    var start = 0
    var spaces = 0
    for (i, c) in line.enumerated() {
      if c == " " {
        spaces += 1
        if spaces >= gap, !current.isEmpty {
          let text = current.trimmingCharacters(in: .whitespaces)
          spans.append((text, start, start + text.count))
          current = ""
        }
        if !current.isEmpty { current.append(c) }
      } else {
        if current.isEmpty { start = i }
        spaces = 0
        current.append(c)
      }
    }
    if !current.isEmpty { spans.append((current, start, start + current.count)) }
    return spans
  }

  @Test(arguments: readmeRecordings)
  func tableFitsAHundredColumnsWithEachColumnNamedOnce(file: String) throws {
    if file.hasPrefix("../shared") {
      try #require(TiltCLI.hasSharedData, "needs ../shared/data")
    }
    let r = try TiltCLI.run(["tune", file])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      #expect(line.count <= 100, "\(line.count) columns: \(line)")
    }
    let (groups, names) = try #require(Self.header(lines), "\(r.stdout)")
    // A column's name is the group heading over it and its own: no two alike.
    let headings = Self.spans(groups, gap: 2)
    let columns = Self.spans(names, gap: 1).map { column in
      let over = headings.first { $0.start < column.end && column.start < $0.end }
      return (over.map { $0.text + " " } ?? "") + column.text
    }
    #expect(Set(columns).count == columns.count, "columns: \(columns)")
    // No column is all "-": such a column is left out, with a line saying why.
    let cellColumns = columns.count - 1
    // A row starts with its rank; a line under it that goes on with a long
    // setting (or the "← recommended" mark) has blank cells.
    let rows = lines.drop { !$0.hasSuffix("  setting") }.dropFirst().prefix { !$0.isEmpty }
      .map { $0.split(separator: " ").prefix { !$0.hasPrefix("--") } }
      .filter { $0.first.map { Int($0) != nil } ?? false }
    #expect(!rows.isEmpty)
    for row in rows { #expect(row.count == cellColumns, "\(row)") }
    for c in 0..<cellColumns {
      let cells = rows.compactMap { c < $0.count ? $0[$0.startIndex + c] : nil }
      #expect(cells.contains { $0 != "-" }, "column \(columns[c]) has nothing measured")
    }
    // Both README recordings end no motion in a long enough rest: said, not shown.
    if !names.contains("angle    card  setting") {
      #expect(r.stdout.contains("left out, with nothing measured: overshoot angle, overshoot card"))
    }
  }

  /// On a terminal the table takes the terminal's width: 80 columns here.
  @Test(.needs(.script))
  func tableFitsAnEightyColumnTerminal() throws {
    let command =
      "stty rows 24 cols 80; '\(TiltCLI.binary.path)' tune recordings/demo.evemu 2>/dev/null"
    let r = try TiltCLI.runTool(try Tool.script.require(), ["-qec", command, "/dev/null"])
    #expect(r.status == 0, "\(r.stdout)")
    let lines = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
    #expect(lines.contains { $0.hasSuffix("  setting") }, "\(r.stdout)")
    for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
  }

  /// Every option of `tune --help` is on its own line with its own description.
  @Test func helpGivesEachOptionItsOwnLine() throws {
    let r = try TiltCLI.run(["tune", "--help"])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n")
    let options = try #require(lines.firstIndex { $0 == "OPTIONS:" })
    var described: [String: String] = [:]
    var current: String?
    for line in lines[(options + 1)...] {
      if line.hasPrefix("  --") || line.hasPrefix("  -h") {
        let parts = line.dropFirst(2).split(separator: " ", maxSplits: 1)
        // An option and its description on one line, the description after the column.
        let name = String(parts[0].split(separator: ",")[0])
        let text = line.count > 26 ? String(line.dropFirst(26)) : ""
        #expect(
          !text.trimmingCharacters(in: .whitespaces).isEmpty || line.count <= 26,
          "\(line)")
        described[name] = text
        current = name
      } else if let current {
        described[current, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    for option in ["--gain", "--max-tilt", "--mount-matrix", "--stick-range"] {
      let text = try #require(described[option], "\(option) has no line of its own")
      #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(option) has no description")
    }
    // The card's defaults come from the card library, as live and replay say them.
    #expect(described["--gain"]?.contains("default 20") == true, "\(described["--gain"] ?? "")")
    #expect(described["--max-tilt"]?.contains("default 15") == true)
    #expect(described["--max-tilt"]?.hasPrefix("(") != true, "a description split across options")
  }
}
