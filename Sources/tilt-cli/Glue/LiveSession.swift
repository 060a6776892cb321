import Evdev
import Glibc
import SystemCalls
import Tilt
import TiltCard

/// `tilt-cli live`: one thread, one `poll()` over the devices, the terminal and
/// the signals. It sleeps in the kernel until one of them speaks or a display
/// frame is due; at rest nothing wakes it but the device.
final class LiveSession {
  let options: PipelineOptions
  let wait: Bool
  private var motionPath: String
  private let motionInfo: DeviceInfo
  private let profile: DeviceProfile
  private let buttonPath: String?
  private var motion: LiveDevice?
  private var buttons: LiveDevice?
  private var decoder: SampleDecoder
  private let pipeline: Pipeline
  private let signals: SignalPipe
  private let keys: Int32?
  private var clock = LiveClock()
  private var vanishWatch: DeviceWatch?
  /// Frames read while setting up, taken before the first poll.
  private var pendingFrames: [Frame] = []

  init(options: PipelineOptions, devicePath: String, wait: Bool) throws {
    self.options = options
    self.wait = wait
    motionPath = devicePath
    signals = try SignalPipe()
    let directory = DeviceChoice.inputDirectory
    let device = try LiveDevice(path: devicePath)
    // The kernel queues 64 events or so for a reader (a few milliseconds of a
    // fast IMU): read what arrives while setting up, so none is dropped.
    var early = try device.readFrames()
    motionInfo = device.info
    profile = try DeviceSetup.profile(
      for: device.info, options: options, device: devicePath,
      udevMatrix: UdevProperties.accelMountMatrix(forDevicePath: devicePath))
    decoder = SampleDecoder(profile: profile, stickRange: options.stickRange)
    early += try device.readFrames()
    buttonPath =
      DeviceScanner.scan(directory: directory, known: [devicePath: device.info])
      .first { $0.path == devicePath }?.pairedButtonPath
    early += try device.readFrames()
    pipeline = try Pipeline(
      options: options, hasGyroscope: profile.gyroAxes != nil, title: device.info.name)
    keys = pipeline.sink is TerminalSink ? STDIN_FILENO : nil
    early += try device.readFrames()
    // Under reduce motion a node that only reports motion stays closed.
    if options.reduceMotion && profile.buttons.isEmpty {
      device.close()
    } else {
      motion = device
      pendingFrames = early
    }
    if let buttonPath { buttons = try? LiveDevice(path: buttonPath) }
  }

  func run() throws -> Int32 {
    var status = ExitStatus.success
    do {
      status = try loop()
    } catch {
      try? pipeline.sink.finish()
      throw error
    }
    try pipeline.finish()
    return status
  }

  private func loop() throws -> Int32 {
    try take(pendingFrames)
    pendingFrames = []
    while true {
      var watched = [signals.fileDescriptor]
      if let fd = motion?.fileDescriptor { watched.append(fd) }
      if let fd = buttons?.fileDescriptor { watched.append(fd) }
      if let keys { watched.append(keys) }
      if let watch = vanishWatch { watched.append(watch.fileDescriptor) }
      let timeout = pipeline.session.nextWakeTime.map { clock.wallDelay(until: $0) }
      let ready = try Poller.wait(for: watched, timeout: timeout)

      if ready.contains(signals.fileDescriptor) {
        for signal in signals.drain() {
          if signal == SIGWINCH { try pipeline.sink.redraw() } else { return ExitStatus.success }
        }
      }
      if let device = motion, ready.contains(device.fileDescriptor) {
        if let status = try readMotion(device) { return status }
      }
      if let device = buttons, ready.contains(device.fileDescriptor) {
        try readButtons(device)
      }
      if let keys, ready.contains(keys) {
        for byte in readAvailable(keys) {
          guard let key = TerminalKey(byte: byte) else { continue }
          guard try pipeline.press(key, at: clock.now()) else { return ExitStatus.success }
        }
      }
      if let watch = vanishWatch, ready.contains(watch.fileDescriptor) {
        try reconnect(watch)
      }
      if ready.isEmpty {
        // A display frame or the idle stop is due, and the device is silent.
        try pipeline.advance(to: clock.now())
      }
      try flush()
      try followLifecycle()
    }
  }

  /// What `device` has; `nil` when it went away (it is closed then).
  private func read(_ device: LiveDevice) throws -> [Frame]? {
    do {
      return try device.readFrames()
    } catch let error {
      guard case .vanished = error else { throw error }
      device.close()
      return nil
    }
  }

  /// Reads what the motion node has; a status when the loop must end.
  private func readMotion(_ device: LiveDevice) throws -> Int32? {
    if let frames = try read(device) {
      try take(frames)
      return nil
    }
    motion = nil
    guard wait else {
      StandardError.write(
        "tilt-cli live: \(motionPath) went away (unplugged?); run with --wait to wait for it to come back.\n"
      )
      return ExitStatus.failure
    }
    StandardError.write("tilt-cli live: \(motionPath) went away; waiting for it to come back.\n")
    vanishWatch = try DeviceWatch(directory: DeviceChoice.inputDirectory)
    return nil
  }

  /// Motion frames into the pipeline. A resync frame is the device's state
  /// after SYN_DROPPED: after an overflow it is all there is of the final
  /// position, so it is a sample too.
  private func take(_ frames: [Frame]) throws {
    for frame in frames {
      guard let sample = decoder.decode(frame) else { continue }
      var item = sample.item
      item.time = clock.sourceTime(forSample: item.time)
      try pipeline.take(item)
    }
  }

  private func readButtons(_ device: LiveDevice) throws {
    guard let frames = try read(device) else {
      buttons = nil
      return
    }
    let now = clock.now()
    for frame in frames {
      let pressed = frame.events.filter { $0.type == EventType.key && $0.value == 1 }.map(\.code)
      if !pressed.isEmpty {
        try pipeline.take(SourceItem(time: now, motion: nil, pressedButtons: pressed))
      }
    }
  }

  /// Stopped means closed: no descriptor, no wake-ups (SPEC §5). A node that
  /// also carries the buttons stays open while stopped, since a button is what
  /// starts the card again; motion from it is ignored until then.
  private func followLifecycle() throws {
    let wantMotion = !pipeline.session.shouldStopUpdates
    if !wantMotion, let device = motion, profile.buttons.isEmpty || options.reduceMotion {
      device.close()
      motion = nil
    } else if wantMotion, motion == nil, vanishWatch == nil {
      motion = try LiveDevice(path: motionPath)
      decoder = SampleDecoder(profile: profile, stickRange: options.stickRange)
      clock.restartSamples()
    }
  }

  /// With `--wait`: the device is back when a node with its name and id appears.
  private func reconnect(_ watch: DeviceWatch) throws {
    guard watch.changed() else { return }
    let back = DeviceScanner.scan(directory: DeviceChoice.inputDirectory).first {
      $0.info?.name == motionInfo.name && $0.info?.id == motionInfo.id
    }
    guard let back, let device = try? LiveDevice(path: back.path) else { return }
    StandardError.write("tilt-cli live: \(back.path) is back.\n")
    motionPath = back.path
    motion = device
    decoder = SampleDecoder(profile: profile, stickRange: options.stickRange)
    clock.restartSamples()
    vanishWatch = nil
  }

  private func flush() throws {
    if let sink = pipeline.sink as? JSONLSink { try sink.flushBatch() }
  }
}

/// The live loop's time: the source's sample clock, so that live frames are
/// what a replay of the same events gives, carried on by the monotonic clock
/// between samples so that display frames keep their pace when the device is
/// silent.
struct LiveClock {
  /// How far timer wake-ups stay behind the latest sample's time plus the
  /// wall time since it arrived, so that a sample still on its way is not
  /// overtaken by a display frame (the session counts a late sample at the
  /// time it has already shown).
  static let margin = 0.02

  /// Pipeline time at which the current open's samples begin: 0 for the first.
  private var base = 0.0
  private var latest = 0.0
  private var latestWall = monotonicSeconds()

  /// The pipeline time now, for timer wake-ups, keys and buttons of another node.
  func now() -> Double {
    max(latest, latest + (monotonicSeconds() - latestWall) - LiveClock.margin)
  }

  /// The pipeline time of a sample the decoder timed `t` since its first sample.
  mutating func sourceTime(forSample t: Double) -> Double {
    latest = max(latest, base + t)
    latestWall = monotonicSeconds()
    return latest
  }

  /// A new open of the device: its decoder counts from zero again, so its
  /// samples continue from now.
  mutating func restartSamples() {
    base = now()
    latest = base
    latestWall = monotonicSeconds()
  }

  /// Seconds of wall time until pipeline time `t`.
  func wallDelay(until t: Double) -> Double { max(0, t - now()) }
}
