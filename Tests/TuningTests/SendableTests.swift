import Attitude
import Testing

@testable import Tuning

/// A compile-time check, not a test: this file builds only while each of
/// `tune`'s values is `Sendable` (Swift 6), so that it may cross tasks.
private let sendableCompileTimeCheck: [any Sendable.Type] = [
  FilterSetting.self, SettingScore.self, Trace.self, FilterScorer.self, TuneData.self,
  TunePlot.self, TunePlot.Series.self, TuneReport.self, TuneRun.self, TuningError.self,
]

/// `tune`'s values cross tasks: a setting made on one task is read on another.
@Suite struct SendableTests {
  @Test func aSettingCrossesTasks() async {
    let setting = FilterSetting(filter: .lowpass(tau: 0.1), fusionTau: 2)
    let arguments = await Task.detached { setting.arguments }.value
    #expect(arguments == ["--filter", "lowpass", "--tau", "0.1", "--fusion-tau", "2"])
  }
}
