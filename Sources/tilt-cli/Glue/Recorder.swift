import Evdev
import Glibc

/// `tilt-cli record`: every frame of a live device into an evemu file, written
/// under a temporary name and renamed only when complete.
struct Recorder {
  let devicePath: String
  let outputPath: String
  /// Seconds to record; `nil` until a signal.
  let duration: Double?

  func run() throws -> Int32 {
    let signals = try SignalPipe(signals: [SIGINT, SIGTERM])
    let device = try LiveDevice(path: devicePath)
    defer { device.close() }
    let writer = try EvemuWriter(path: outputPath, info: device.info)
    var frames = 0
    var vanished = false
    let deadline = duration.map { monotonicSeconds() + $0 }
    StandardError.write(
      "tilt-cli record: recording \"\(device.info.name)\" (\(devicePath)) to \(outputPath)"
        + (duration.map { " for \($0.compact) s" } ?? "; Ctrl-C to finish") + "\n")
    do {
      loop: while true {
        let timeout = deadline.map { max(0, $0 - monotonicSeconds()) }
        if let timeout, timeout <= 0 { break }
        let ready = try Poller.wait(
          for: [device.fileDescriptor, signals.fileDescriptor], timeout: timeout)
        if ready.contains(signals.fileDescriptor), !signals.drain().isEmpty { break loop }
        if ready.contains(device.fileDescriptor) {
          do {
            for frame in try device.readFrames() {
              try writer.write(frame)
              frames += 1
            }
          } catch let error as DeviceError {
            guard case .vanished = error else { throw error }
            vanished = true
            break loop
          }
        }
      }
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
