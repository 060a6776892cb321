import Evdev
import SensorData
import PollLoop
import SystemCalls

/// What ``EvemuRecorder`` reads: a live device, or a test's fake with a
/// descriptor to poll.
public protocol FrameDevice: AnyObject {
  /// The device's description, the recording's header.
  var info: DeviceInfo { get }
  /// Readable when frames are waiting.
  var fileDescriptor: Int32 { get }
  /// The frames waiting; ``DeviceError/vanished`` when the device went away.
  func readFrames() throws(DeviceError) -> [Frame]
  /// Closes the device.
  func close()
}

extension LiveDevice: FrameDevice {}

/// Every frame of a device into an evemu file, written under a temporary
/// name and renamed only when complete (``EvemuWriter``).
public struct EvemuRecorder {
  /// How a recording ended.
  public struct Outcome: Hashable, Sendable {
    /// Frames written.
    public var frames: Int
    /// Whether the device went away (the recording ends there).
    public var deviceWentAway: Bool
  }

  /// The device recorded; closed when the recording ends.
  public let device: any FrameDevice
  /// Where the recording goes.
  public let outputPath: String
  /// Seconds to record; `nil` until a signal.
  public let duration: Double?

  /// A recorder of `device` into `outputPath`, for `duration` seconds or until a signal.
  public init(device: any FrameDevice, outputPath: String, duration: Double?) {
    self.device = device
    self.outputPath = outputPath
    self.duration = duration
  }

  /// Writes until the duration ends, SIGINT or SIGTERM, or the device goes
  /// away. `onStart` is called once the file is open, before the first frame.
  public func run(onStart: () -> Void) throws -> Outcome {
    let loop = try EventLoop(handling: [.interrupt, .terminate])
    defer {
      device.close()
      loop.end()
    }
    let writer = try EvemuWriter(path: outputPath, info: device.info)
    var frames = 0
    var vanished = false
    let deadline = duration.map { MonotonicInstant.now + .seconds($0) }
    onStart()
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
    return Outcome(frames: frames, deviceWentAway: vanished)
  }
}
