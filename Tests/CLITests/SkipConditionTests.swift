import Foundation
import TestTools
import Testing

/// Issue 14: a test that cannot run shows as a skip, not a pass, and under
/// `TILT_REQUIRE_TOOLS=1` a missing tool is a failure.
@Suite struct SkipConditionTests {
  static let missing = Tool("tilt-no-such-tool", package: "tilt-no-such-package")

  @Test func aMissingToolSkipsUnlessToolsAreRequired() {
    #expect(Self.missing.path == nil)
    #expect(TestTools.runs(missing: [], required: false))
    #expect(!TestTools.runs(missing: ["tmux"], required: false), "a skip on a developer's machine")
    #expect(TestTools.runs(missing: ["tmux"], required: true), "runs, to fail, under CI")
  }

  @Test func theSkipSaysWhatIsMissingAndHowToGetIt() {
    let trait: ConditionTrait = .needs(Self.missing)
    let comment = trait.comments.map(\.rawValue).joined()
    #expect(comment == "needs tilt-no-such-tool (apt-get install tilt-no-such-package)")
    let data: ConditionTrait = .needsSharedData("no/such/file")
    #expect(data.comments.map(\.rawValue) == ["needs ../shared/data/no/such/file, which is absent"])
  }

  @Test func requiringAMissingToolFailsTheTest() {
    withKnownIssue("the tool is missing, so require() records a failure") {
      _ = try Self.missing.require()
    }
  }

  /// No test anywhere in Tests/ reports a skip by printing and returning.
  @Test func noTestPrintsSkippedAndReturns() throws {
    let tests = TestTools.packageRoot.appendingPathComponent("Tests")
    let files =
      FileManager.default.enumerator(atPath: tests.path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    #expect(files.count > 20)
    for file in files {
      let text = try String(
        contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where line.contains("print(\"skip") || line.contains("print(\"BROAD data not found") {
        Issue.record("Tests/\(file):\(number + 1) prints a skip; use .needs(…) or .enabled(if:)")
      }
    }
  }
}
