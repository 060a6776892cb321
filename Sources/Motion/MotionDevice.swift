import Attitude
import SensorData
import SystemCalls

/// A source of timed samples and buttons, whatever it is: an evdev node
/// (``LiveMotionDevice``), an IIO sensor (``IIOMotionDevice``) or a
/// recording (``RecordingDevice``). It says what it is (``capabilities``,
/// name), keeps its own clock, opens and closes what it reads as it
/// is told (``follow(_:)``), and is read by a ``DeviceMotionManager`` on its
/// loop: ``pollDescriptors`` until ``deadline``, then ``readSteps(ready:)``.
public protocol MotionDevice: AnyObject {
  /// What it reports: gyroscope, key codes, ranges.
  var capabilities: MotionCapabilities { get }
  /// The device as the bias store and titles know it; `nil` for a recording.
  var deviceInfo: DeviceInfo? { get }
  /// What notes and errors name: the node in use, or the recording's path.
  var path: String { get }

  // MARK: Lifecycle

  /// Opens or closes what it reads (or holds a recording) as `use` says.
  func follow(_ use: DeviceUse) throws
  /// Whether a node of the device is open now (never for a recording).
  var isOpen: Bool { get }
  /// True once the device went away and is not waited for.
  var isGone: Bool { get }
  /// When the device goes away, wait for it to come back instead of ending.
  var waitsForReconnect: Bool { get set }
  /// Where the device's notes go (gone, back, events dropped).
  var onNote: (MotionNote) -> Void { get set }
  /// Closes everything at the end of a run (also a watch for the device to come back).
  func finish()

  // MARK: The loop

  /// Watched for `POLLIN`; may change between turns.
  var pollDescriptors: [Int32] { get }
  /// When to be read without input; `nil` for none.
  var deadline: MonotonicInstant? { get }
  /// The steps that arrived (or fell due), oldest first; `nil` once a
  /// recording has nothing more.
  func readSteps(ready: Set<Int32>) throws -> [MotionStep]?
  /// Seconds to leave the device unread between reads, at most; `nil` reads
  /// at each sample. A recording makes its steps due at the end of their interval.
  var readInterval: Double? { get set }
  /// At the end of a recording: plays it again (`--loop`) after the time
  /// reached; false when there is no next pass.
  func nextPass() throws -> Bool

  // MARK: The clock

  /// The source time now, to judge what is due.
  func now() -> Double
  /// The source time now for a command: no later step is placed before it.
  func handOutNow() -> Double
  /// Seconds of wall time until source time `t`; `nil` when the clock will
  /// not reach it (a recording at full speed).
  func wakeDelay(until t: Double) -> Double?
  /// The time to serve a wake-up that fell due at `t`.
  func timeOfWake(_ t: Double) -> Double
}

extension MotionDevice {
  public func nextPass() throws -> Bool { false }
}

/// What a device is asked to keep open: ``DeviceMotionManager`` works it
/// out from its processor's state and its ``DevicePolicy``.
public struct DeviceUse: Hashable, Sendable {
  /// Motion is read.
  public var motion: Bool
  /// Buttons are heard.
  public var buttons: Bool
  /// Updates were stopped by a command (not by an idle stop): a recording
  /// holds its clock until they start again.
  public var holds: Bool

  public init(motion: Bool, buttons: Bool, holds: Bool) {
    self.motion = motion
    self.buttons = buttons
    self.holds = holds
  }
}

/// What stays open while stopped, and what is read while running: the
/// consumer's policy for its ``DeviceMotionManager``.
public struct DevicePolicy: Hashable, Sendable {
  /// Whether the device's buttons are read at all (a card's flip). Without
  /// them only the motion node is opened.
  public var readsButtons = false
  /// While stopped, the nodes that carry the buttons stay open, so that a
  /// press starts updates again. Without it a press while stopped is dropped.
  public var buttonsStartUpdates = false
  /// While updates run, motion is not read (reduce motion): a node with only
  /// motion stays closed, one that carries buttons stays open for them.
  public var motionIsStill = false

  public init() {}

  /// What a device is asked to keep open for updates `active` (or stopped
  /// by the idle stop: `stoppedForIdle`).
  public func use(active: Bool, stoppedForIdle: Bool) -> DeviceUse {
    DeviceUse(
      motion: active && !motionIsStill, buttons: readsButtons && (active || buttonsStartUpdates),
      holds: !active && !stoppedForIdle)
  }
}
