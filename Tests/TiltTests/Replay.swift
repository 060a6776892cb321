import Motion
import Tilt

/// Plays `source` through `pipeline` on the one card driver, as `tilt-cli
/// replay` does: paced at `speed`, or as fast as it goes with `nil`, with
/// `participants` in its loop; it handles no signal.
@discardableResult
func play(
  _ source: any MotionSource, through pipeline: TiltPipeline, speed: Double?,
  participants: [any LoopParticipant] = []
) throws -> TiltMotionManager {
  let card = try TiltMotionManager(
    device: RecordingDevice(source, speed: speed), pipeline: pipeline)
  card.participants = participants
  try card.run(endingOn: [])
  return card
}
