import JSON

extension TuneReport {
  /// The report as `tune --json` writes it (contract §3.9).
  public var json: JSONValue {
    func number(_ x: Double?) -> JSONValue { x.map(JSONValue.number) ?? .null }
    func entry(_ s: SettingScore) -> [(String, JSONValue)] {
      var members: [(String, JSONValue)] = [
        ("arguments", .array(s.setting.arguments.map(JSONValue.string))),
        ("jitter", number(s.jitter)), ("cardJitter", number(s.cardJitter)),
        ("drift", number(s.drift)),
        ("lag", number(s.lag)), ("lagAtLimit", .bool(s.lagAtLimit)),
        ("overshoot", number(s.overshoot)), ("cardOvershoot", number(s.cardOvershoot)),
        ("score", number(s.score)), ("cost", number(s.score)),
      ]
      if hasError { members.append(("error", number(s.error))) }
      return members
    }
    return .object([
      ("file", .string(file)),
      ("reference", .string(referenceName)),
      ("measured", .array(measured.map(JSONValue.string))),
      ("notMeasured", .array(problems.map(JSONValue.string))),
      ("overshootNotMeasured", JSONValue(overshootProblem)),
      ("ranked", .bool(canScore)),
      ("score", .string(SettingScore.scoreRule)),
      ("recommendationRule", .string(TuneReport.recommendationRule)),
      ("restFraction", .number(restFraction)),
      ("settle", .number(FilterScorer.settleTime)),
      (
        "rest",
        .array(restRuns.map { .object([("from", .number($0.0)), ("to", .number($0.1))]) })
      ),
      ("settings", .array(scores.map { .object(entry($0)) })),
      ("recommended", .object(entry(recommended) + [("basis", .string(basis))])),
    ])
  }
}
