// Prints the card's frames for a recording as JSON lines (contract §4.1): what
// `tilt-cli replay FILE --speed max --format jsonl` prints.
import Foundation
import Tilt
import TiltCard

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: CardReplay FILE (evemu or CSV)\n".utf8))
  exit(64)
}
do {
  let configuration = TiltConfiguration()
  let source = try RecordingSource.open(
    path: CommandLine.arguments[1], configuration: configuration)
  let encoder = JSONLFrameEncoder()
  let sink = FrameHandlerSink { frames in
    for frame in frames { print(encoder.line(for: frame), terminator: "") }
  }
  let pipeline = TiltPipeline(
    configuration: configuration, hasGyroscope: source.hasGyroscope, buttons: source.buttons,
    sink: sink)
  try RecordingPlayer(pipeline: pipeline).play(source, speedFactor: nil)
} catch {
  FileHandle.standardError.write(Data("CardReplay: \(error)\n".utf8))
  exit(1)
}
