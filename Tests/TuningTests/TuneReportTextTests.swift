import Foundation
import Testing
import TiltCard

@testable import Tuning

/// The report's text and JSON forms, as an app would print them.
@Suite struct TuneReportTextTests {
  static func report() -> TuneReport {
    let scorer = TuneMeasureTests.scorer(
      TuneMeasureTests.recording(start: .identity, accelNoise: 0.01, seed: 1))
    return TuneReport(
      file: "synthetic", scorer: scorer, scores: TuneSearch.grid.run(scorer) { _, _ in })
  }

  @Test func theTableNamesTheGivenProgramAndFitsItsWidth() {
    let report = Self.report()
    let table = report.table(width: 90, program: "other-tool")
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0].hasPrefix("other-tool tune synthetic: \(report.scores.count) settings"))
    #expect(table.contains("recommended: other-tool replay synthetic"))
    #expect(!table.contains("tilt-cli"))
    for line in lines { #expect(line.count <= 90, "\(line.count) columns: \(line)") }
    for note in report.explanation { #expect(table.contains(note.prefix(40))) }
  }

  @Test func theJSONHasEverySettingAndTheRecommendation() {
    let report = Self.report()
    let text = report.json.serialized()
    #expect(text.hasPrefix("{\"file\":\"synthetic\",\"reference\":"))
    #expect(text.contains("\"ranked\":true"))
    guard case .object(let members) = report.json,
      case .array(let settings)? = members.first(where: { $0.0 == "settings" })?.1
    else {
      Issue.record("no settings array: \(text.prefix(200))")
      return
    }
    #expect(settings.count == report.scores.count)
    #expect(members.contains { $0.0 == "recommended" })
  }
}
