import Evdev
import Motion

/// `tilt-cli record` of an input device: ``EvemuRecorder`` with what it
/// says on stderr.
struct Recorder {
  let device: any FrameDevice
  let devicePath: String
  let outputPath: String
  /// Seconds to record; `nil` until a signal.
  let duration: Double?

  /// Records; returns the exit status (1 when the device went away).
  func run() throws -> Int32 {
    let outcome = try EvemuRecorder(device: device, outputPath: outputPath, duration: duration)
      .run {
        StandardError.write(
          "tilt-cli record: recording \"\(device.info.name)\" (\(devicePath)) to \(outputPath)"
            + (duration.map { " for \($0.compact) s" } ?? "; Ctrl-C to finish") + "\n")
      }
    StandardError.write(
      "tilt-cli record: wrote \(outcome.frames) frames to \(outputPath)"
        + (outcome.deviceWentAway ? " (the device went away; the recording ends there)" : "")
        + "\n")
    return outcome.deviceWentAway ? ExitStatus.failure : ExitStatus.success
  }
}
