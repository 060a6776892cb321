import Attitude

/// How a looping replay's passes follow each other (``RecordingDevice/loop``):
/// the next pass's times go on from the last one's, so its clock only goes
/// forward.
public enum PassStart: Sendable, Hashable {
  /// ``RecordingDevice/gapBetweenPasses`` after the source time reached: the
  /// last step, or a later wake-up served before the end (the card's
  /// `replay --loop`, whose gap is a display frame).
  case afterTimeReached
  /// One step after the last sample, the step being the last interval by
  /// which two samples moved forward (0.01 s before there is one): motion
  /// served as one endless recording (DSU's `--replay`).
  case oneStepAfterLastSample
}

/// A source to be played over and over: the ``RecordingDevice`` made of it
/// (such as a ``MotionInput/source(speed:make:)``'s) plays `source` with
/// ``RecordingDevice/loop`` set to `passStart`. Read directly, it is
/// `source`, once.
public struct LoopedSource: MotionSource {
  public var source: any MotionSource
  public var passStart: PassStart

  public init(_ source: any MotionSource, passStart: PassStart) {
    self.source = source
    self.passStart = passStart
  }

  public var capabilities: MotionCapabilities { source.capabilities }
  public var notes: [String] { source.notes }
  public mutating func next() throws -> MotionStep? { try source.next() }
}

/// The steps of a recording's first pass, kept so that the next passes play
/// from memory and the file is never parsed again: a time and a kind a step,
/// the motion's numbers in one array (3 a sample, 6 with a rotation rate),
/// the rare button presses apart: 57 bytes a sample with a rotation rate,
/// 3.5 MB for a 12.5 MB CSV log of 60 862 rows.
struct RecordedSteps {
  private var times: [Double] = []
  private var kinds: [UInt8] = []
  private var numbers: [Double] = []
  private var presses: [Int: [UInt16]] = [:]

  private static let hasMotion: UInt8 = 1
  private static let hasRotation: UInt8 = 2

  var count: Int { times.count }

  mutating func append(_ item: MotionStep) {
    var kind: UInt8 = 0
    if let motion = item.motion {
      kind |= Self.hasMotion
      let a = motion.acceleration
      numbers.append(a.x)
      numbers.append(a.y)
      numbers.append(a.z)
      if let w = motion.rotationRate {
        kind |= Self.hasRotation
        numbers.append(w.x)
        numbers.append(w.y)
        numbers.append(w.z)
      }
    }
    if !item.pressedButtons.isEmpty { presses[times.count] = item.pressedButtons }
    times.append(item.time)
    kinds.append(kind)
  }

  /// The steps again from the first, as a source that says what `original`
  /// (the source they were read from) says of itself.
  func playback(as original: any MotionSource) -> Playback {
    Playback(steps: self, capabilities: original.capabilities)
  }

  struct Playback: MotionSource {
    let steps: RecordedSteps
    let capabilities: MotionCapabilities
    private var index = 0
    private var number = 0

    init(steps: RecordedSteps, capabilities: MotionCapabilities) {
      self.steps = steps
      self.capabilities = capabilities
    }

    mutating func next() throws -> MotionStep? {
      guard index < steps.times.count else { return nil }
      let time = steps.times[index]
      let kind = steps.kinds[index]
      var motion: MotionSample?
      if kind & RecordedSteps.hasMotion != 0 {
        let n = steps.numbers
        var sample = MotionSample(
          time: time, acceleration: Vector3(n[number], n[number + 1], n[number + 2]))
        number += 3
        if kind & RecordedSteps.hasRotation != 0 {
          sample.rotationRate = Vector3(n[number], n[number + 1], n[number + 2])
          number += 3
        }
        motion = sample
      }
      let item = MotionStep(
        time: time, motion: motion,
        pressedButtons: steps.presses.isEmpty ? [] : steps.presses[index] ?? [])
      index += 1
      return item
    }
  }
}
