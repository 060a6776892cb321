import Attitude
import Glibc
import SystemCalls
import Tilt
import TiltCard

/// The chain after the source: estimator and filter, then the card, then the sink.
/// Every step takes the source's time; nothing here reads a clock.
final class Pipeline {
  let manager: MotionManager
  private(set) var session: CardSession
  let sink: FrameSink
  let options: PipelineOptions

  init(options: PipelineOptions, hasGyroscope: Bool, title: String = "tilt") throws {
    self.options = options
    manager = MotionManager(configuration: options.motionConfiguration, hasGyroscope: hasGyroscope)
    let card = options.cardConfiguration
    session = CardSession(configuration: card, rate: options.rate, everySample: options.everySample)
    sink = try options.makeSink(card: card, title: title)
    manager.startDeviceMotionUpdates { _ in }
  }

  /// Takes one step of the source: its buttons, then its motion.
  func take(_ item: SourceItem) throws {
    var frames: [CardFrame] = []
    for code in item.pressedButtons {
      frames += session.buttonPressed(code: code, at: item.time)
    }
    if let sample = item.motion, let motion = manager.process(sample) {
      frames += session.receive(motion)
    }
    try show(frames)
  }

  /// The display frames due up to `time` with no new input.
  func advance(to time: Double) throws {
    try show(session.frames(upTo: time))
  }

  /// A key of the terminal view, at `time`; returns false for quit.
  func press(_ key: TerminalKey, at time: Double) throws -> Bool {
    guard let command = key.sessionCommand else { return false }
    if key == .recenter { manager.recenter() }
    try show(session.perform(command, at: time))
    return true
  }

  /// The rest of any animation, then the end of the output.
  func finish() throws {
    try show(session.finish())
    try sink.finish()
  }

  private func show(_ frames: [CardFrame]) throws {
    guard !frames.isEmpty else { return }
    try sink.show(frames)
    syncManagerWithSession()
  }

  /// Motion updates follow the card's lifecycle: stopped while the card is.
  private func syncManagerWithSession() {
    if session.state == .stopped, manager.isDeviceMotionActive {
      manager.stopDeviceMotionUpdates()
    } else if session.state == .active, !manager.isDeviceMotionActive {
      manager.startDeviceMotionUpdates { _ in }
    }
  }

  /// Replays `source`: at `speed` times real time, or as fast as it goes with `nil`.
  /// The frames are the same at any speed: they run on the recording's clock.
  func replay(_ source: any MotionSource, speed: Double?) throws {
    var source = source
    let keys = sink is TerminalSink ? STDIN_FILENO : nil
    var pacer = try speed.map { try Pacer(speed: $0, keys: keys) }
    if pacer == nil, keys != nil { TerminalMode.restoreOnSignals() }
    do {
      while let item = try source.next() {
        guard try pacer?.wait(until: item.time, for: self) ?? true else { return try sink.finish() }
        try take(item)
      }
      if var pacer {
        // The rest of an animation, at its pace too; it settles within seconds.
        var budget = Int(options.rate * 60)
        while let t = session.nextFrameTime, budget > 0 {
          guard try pacer.wait(until: t, for: self) else { return try sink.finish() }
          try advance(to: t)
          budget -= 1
        }
      }
    } catch {
      try? sink.finish()
      throw error is Failure ? error : Failure("\(error)")
    }
    try finish()
  }
}

/// Holds a replay to the wall clock at some speed, handling keys and signals
/// while it waits.
struct Pacer {
  let speed: Double
  let keys: Int32?
  let signals: SignalPipe
  let start = monotonicSeconds()
  /// The latest source time reached.
  private var now = 0.0

  init(speed: Double, keys: Int32?) throws {
    self.speed = speed
    self.keys = keys
    signals = try SignalPipe()
  }

  /// Sleeps until source time `t` is due on the wall clock; false when the
  /// person asked to quit (a key or a signal).
  mutating func wait(until t: Double, for pipeline: Pipeline) throws -> Bool {
    let deadline = start + t / speed
    while case let left = deadline - monotonicSeconds(), left > 0 {
      let watched = [signals.fileDescriptor] + (keys.map { [$0] } ?? [])
      let ready = try Poller.wait(for: watched, timeout: left)
      if ready.contains(signals.fileDescriptor) {
        for signal in signals.drain() {
          if signal == SIGWINCH { try pipeline.sink.redraw() } else { return false }
        }
      }
      if let keys, ready.contains(keys) {
        let keyTime = max(now, (monotonicSeconds() - start) * speed)
        for byte in readAvailable(keys) {
          guard let key = TerminalKey(byte: byte) else { continue }
          guard try pipeline.press(key, at: keyTime) else { return false }
        }
      }
    }
    now = max(now, t)
    return true
  }
}

/// The bytes waiting on `fd` (a terminal in raw mode).
func readAvailable(_ fd: Int32) -> [UInt8] {
  var buffer = [UInt8](repeating: 0, count: 64)
  let n = read(fd, &buffer, buffer.count)
  return n > 0 ? Array(buffer[..<n]) : []
}
