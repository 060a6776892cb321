import Evdev
import Glibc
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

  init(options: PipelineOptions, devicePath: String, wait: Bool) throws {
    self.options = options
    self.wait = wait
    motionPath = devicePath
    let device = try LiveDevice(path: devicePath)
    motionInfo = device.info
    profile = try DeviceSetup.profile(
      for: device.info, options: options, device: devicePath,
      udevMatrix: UdevProperties.accelMountMatrix(forDevicePath: devicePath))
    decoder = SampleDecoder(profile: profile, stickRange: options.stickRange)
    buttonPath = LiveSession.pairedButtons(of: devicePath, directory: DeviceChoice.inputDirectory)
    signals = try SignalPipe()
    pipeline = try Pipeline(
      options: options, hasGyroscope: profile.gyroAxes != nil, title: device.info.name)
    keys = pipeline.sink is TerminalSink ? STDIN_FILENO : nil
    // Under reduce motion a node that only reports motion stays closed.
    if options.reduceMotion && profile.buttons.isEmpty {
      device.close()
    } else {
      motion = device
    }
    if let buttonPath { buttons = try? LiveDevice(path: buttonPath) }
  }

  /// The button node paired with `path`, as the scanner pairs them.
  static func pairedButtons(of path: String, directory: String) -> String? {
    DeviceScanner.scan(directory: directory).first { $0.path == path }?.pairedButtonPath
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
      try pipeline.advance(to: clock.now())
      try flush()
      try followLifecycle()
    }
  }

  /// Reads what the motion node has; a status when the loop must end.
  private func readMotion(_ device: LiveDevice) throws -> Int32? {
    let frames: [Frame]
    do {
      frames = try device.readFrames()
    } catch let error {
      guard case .vanished = error else { throw error }
      device.close()
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
    for frame in frames where !frame.isResync {
      guard let sample = decoder.decode(frame) else { continue }
      var item = sample.item
      item.time = clock.sourceTime(forSample: item.time)
      try pipeline.take(item)
    }
    return nil
  }

  private func readButtons(_ device: LiveDevice) throws {
    let frames: [Frame]
    do {
      frames = try device.readFrames()
    } catch let error {
      guard case .vanished = error else { throw error }
      device.close()
      buttons = nil
      return
    }
    let now = clock.now()
    for frame in frames where !frame.isResync {
      let pressed = frame.events.filter { $0.type == EventType.key && $0.value == 1 }.map(\.code)
      if !pressed.isEmpty {
        try pipeline.take(SourceItem(time: now, motion: nil, pressedButtons: pressed))
      }
    }
  }

  /// Stopped means closed: no descriptor, no wake-ups (SPEC §5).
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

/// The live loop's time: the source's sample clock (as in a replay of the same
/// events), carried on by the monotonic clock between samples so that display
/// frames keep their pace when the device is silent.
struct LiveClock {
  /// Pipeline time at which the current open's samples begin.
  private var base = 0.0
  private var sampling = false
  /// Whether an input was timed before the first sample (keys, buttons).
  private var used = false
  private var latest = 0.0
  private var latestWall = monotonicSeconds()

  /// The pipeline time now.
  mutating func now() -> Double {
    used = true
    return current
  }

  private var current: Double { latest + max(0, monotonicSeconds() - latestWall) }

  /// The pipeline time of a sample that the decoder timed `t` (since its first
  /// sample). Without earlier input the first sample is time 0, as in a replay.
  mutating func sourceTime(forSample t: Double) -> Double {
    if !sampling {
      sampling = true
      base = used ? current : 0
    }
    latest = max(latest, base + t)
    latestWall = monotonicSeconds()
    return latest
  }

  /// A new open of the device: its decoder counts from zero again.
  mutating func restartSamples() {
    latest = current
    latestWall = monotonicSeconds()
    used = true
    sampling = false
  }

  /// Seconds of wall time until pipeline time `t`.
  func wallDelay(until t: Double) -> Double { max(0, t - current) }
}
