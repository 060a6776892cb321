import CardPage
import Tilt
import TiltCard

extension PipelineOptions {
  /// The card run that `--serve`, `--serve-token` and `--output` ask for,
  /// the page's notes on stderr.
  var cardRun: CardRun {
    CardRun(
      serve: serve, serveToken: serveToken, writesStandardOutput: output == nil,
      onPageNote: { note in
        switch note {
        case .serving: StandardError.write("\(note)\n")
        case .servesNetwork: StandardError.write("tilt-cli: \(note)\n")
        case .controlFailed(let error):
          StandardError.write("tilt-cli: \(LibraryErrorText.describe(error))\n")
        }
      })
  }
}

extension TiltMotionManager {
  /// `live`'s run of this manager: exit 1 when the device went away (its
  /// note said so).
  func runLive(options: PipelineOptions, card: CardConfiguration) throws -> Int32 {
    do {
      _ = try options.cardRun.run(
        self, card: configuration.card, title: deviceInfo?.name ?? devicePath)
      return ExitStatus.success
    } catch MotionError.deviceGone {
      return ExitStatus.failure
    }
  }
}
