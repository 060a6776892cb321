import Attitude
import Testing

@testable import Tuning

/// `tune`'s values cross tasks (Swift 6): a setting made on one task is read on another.
@Suite struct SendableTests {
  @Test func aSettingCrossesTasks() async {
    #expect(sendable(FilterSetting.self))  // compiles only while it is Sendable
    let setting = FilterSetting(filter: .lowpass(tau: 0.1), fusionTau: 2)
    let arguments = await Task.detached { setting.arguments }.value
    #expect(arguments == ["--filter", "lowpass", "--tau", "0.1", "--fusion-tau", "2"])
  }

  /// Compiles only while each is Sendable.
  @Test func theReportsValuesAreSendable() {
    #expect(sendable(SettingScore.self) && sendable(Trace.self) && sendable(FilterScorer.self))
    #expect(sendable(TuneData.self) && sendable(TunePlot.self) && sendable(TunePlot.Series.self))
    #expect(sendable(TuneReport.self) && sendable(TuneRun.self) && sendable(TuningError.self))
  }

  func sendable<T: Sendable>(_: T.Type) -> Bool { true }
}
