import Evdev
import SystemCalls
import Tilt

/// What `record` reads: a live device, or a test's fake with a descriptor to poll.
protocol FrameDevice: AnyObject {
  var info: DeviceInfo { get }
  /// Readable when frames are waiting.
  var fileDescriptor: Int32 { get }
  func readFrames() throws(DeviceError) -> [Frame]
  func close()
}

extension LiveDevice: FrameDevice {}

/// `tilt-cli record`: every frame of a device into an evemu file, written
/// under a temporary name and renamed only when complete.
struct Recorder {
  let device: any FrameDevice
  let devicePath: String
  let outputPath: String
  /// Seconds to record; `nil` until a signal.
  let duration: Double?

  /// Writes until the duration ends, SIGINT or SIGTERM, or the device goes away;
  /// returns the exit status.
  func run() throws -> Int32 {
    let loop = try EventLoop(handling: [.interrupt, .terminate])
    defer {
      device.close()
      loop.end()
    }
    let writer = try EvemuWriter(path: outputPath, info: device.info)
    var frames = 0
    var vanished = false
    let deadline = duration.map { MonotonicInstant.now + .seconds($0) }
    StandardError.write(
      "tilt-cli record: recording \"\(device.info.name)\" (\(devicePath)) to \(outputPath)"
        + (duration.map { " for \($0.compact) s" } ?? "; Ctrl-C to finish") + "\n")
    do {
      let reading = ClosureParticipant(descriptors: { [device.fileDescriptor] }) { ready in
        guard !ready.isEmpty, !vanished else { return }
        do {
          for frame in try device.readFrames() {
            try writer.write(frame)
            frames += 1
          }
        } catch let error as DeviceError {
          guard case .vanished = error else { throw error }
          vanished = true
        }
      }
      try loop.run([reading], until: deadline) { vanished }
      try writer.finish()
    } catch {
      writer.abandon()
      throw error
    }
    StandardError.write(
      "tilt-cli record: wrote \(frames) frames to \(outputPath)"
        + (vanished ? " (the device went away; the recording ends there)" : "") + "\n")
    return vanished ? ExitStatus.failure : ExitStatus.success
  }
}
