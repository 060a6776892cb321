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
  let encoder = JSONLFrameEncoder()
  let sink = FrameHandlerSink { frames in
    for frame in frames { print(encoder.line(for: frame), terminator: "") }
  }
  // As fast as it goes (speed nil); the same card driver as a live device's.
  let card = try TiltMotionManager(
    .recording(path: CommandLine.arguments[1], speed: nil), sink: sink)
  try card.run()
} catch {
  FileHandle.standardError.write(Data("CardReplay: \(error)\n".utf8))
  exit(1)
}
