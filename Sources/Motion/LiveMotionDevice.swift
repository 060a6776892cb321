import Attitude
import Evdev
import SensorData
import SystemCalls

/// A live evdev motion device as a source of ``MotionStep``s: its motion
/// node and the paired node with its buttons, the mount matrix (the
/// configuration's, else udev's), the decoder, the live clock, reading in
/// batches, going away and coming back, closing and reopening.
///
/// What it reads is what a loop asks of it: ``pollDescriptors`` until
/// ``deadline``, then ``read(ready:)``. Whether the nodes are open is its
/// owner's choice (``follow(motionNode:buttonNode:)``); it opens neither
/// node on its own, except the motion node when the device comes back.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class LiveMotionDevice {
  public let configuration: DeviceMotionConfiguration
  /// The motion node in use (it changes when the device comes back elsewhere).
  public private(set) var path: String
  public let info: DeviceInfo
  public let profile: DeviceProfile
  /// The node with the buttons of the same device, when they are on another node.
  public private(set) var buttonPath: String?
  /// Every key code of the device, on either node: what its flip button is chosen from.
  public let buttons: Set<UInt16>
  /// When the device goes away, wait for a node with its name and id to come
  /// back instead of ending.
  public var waitsForReconnect: Bool
  /// Seconds to leave the motion node unread after a batch (see
  /// `ReadBatching`), at most; `nil` reads it at every sample.
  public var batchInterval: Double? {
    didSet {
      if batchInterval != oldValue {
        batching = batchInterval.map { ReadBatching(displayRateHz: 1 / $0) }
      }
    }
  }
  public var onNote: (MotionNote) -> Void
  /// True once the device went away and ``waitsForReconnect`` is false.
  public private(set) var isGone = false
  /// Whether the motion node is open now.
  public var isMotionNodeOpen: Bool { motion != nil }

  private var motion: LiveDevice?
  private var buttonNode: LiveDevice?
  /// The buttons' node went away (it is not opened again until the device comes back).
  private var buttonNodeVanished = false
  private var decoder: SampleDecoder
  private var clock = LiveClock()
  private var vanishWatch: DeviceWatch?
  private var pendingFrames: [Frame] = []
  private var batching: ReadBatching?
  private var readAgainAt: MonotonicInstant?
  private var saidEventsDropped = false

  /// Opens `path`, or the first motion device found, and finds its paired
  /// button node (not opened: ``follow(motionNode:buttonNode:)``).
  public init(
    path: String? = nil, configuration: DeviceMotionConfiguration = .init(),
    waitsForReconnect: Bool = false, onNote: @escaping (MotionNote) -> Void
  ) throws {
    let path = try path ?? DeviceChoice.firstMotionDevice()
    self.path = path
    self.configuration = configuration
    self.waitsForReconnect = waitsForReconnect
    self.onNote = onNote
    let device = try LiveDevice(path: path)
    // The kernel queues 64 events or so for a reader (a few milliseconds of a
    // fast IMU): read what arrives while setting up, so none is dropped.
    var early = try device.readFrames()
    info = device.info
    profile = try DeviceSetup.liveProfile(
      of: path, info: device.info, configuration: configuration, onNote: onNote)
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
    early += try device.readFrames()
    let paired = DeviceSetup.pairedButtons(of: path, info: device.info)
    buttonPath = paired.path
    buttons = DeviceSetup.buttons(profile: profile, pairedButtons: paired.info)
    early += try device.readFrames()
    motion = device
    pendingFrames = early
  }

  /// Opens or closes the two nodes. A node closed here is reopened here;
  /// a reopened motion node's samples go on from the clock's time now.
  public func follow(motionNode wantMotion: Bool, buttonNode wantButtons: Bool) throws {
    if !wantMotion, let device = motion {
      device.close()
      motion = nil
      readAgainAt = nil
      // What the first open read ahead belongs to that open: a reopen's
      // decoder starts again with the reopen's own events.
      pendingFrames = []
    } else if wantMotion, motion == nil, vanishWatch == nil, !isGone {
      motion = try LiveDevice(path: path)
      decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
      clock.restartSamples()
    }
    if !wantButtons, let device = buttonNode {
      device.close()
      buttonNode = nil
    } else if wantButtons, buttonNode == nil, !buttonNodeVanished {
      buttonNode = buttonPath.flatMap { try? LiveDevice(path: $0) }
    }
  }

  // MARK: The clock

  /// The pipeline time now, to judge what is due (`LiveClock.now()`).
  public func now() -> Double { clock.now() }
  /// The time now for a command or a timer frame: no sample is placed before it.
  public func handOutNow() -> Double { clock.handOutNow() }
  /// Seconds of wall time until source time `t`.
  public func wallDelay(until t: Double) -> Double { clock.wallDelay(until: t) }

  // MARK: The loop

  /// The open nodes (the motion node not while a batch is left unread), and
  /// while waiting for the device to come back, the watch on the input directory.
  public var pollDescriptors: [Int32] {
    var fds: [Int32] = []
    if let fd = motion?.fileDescriptor, readAgainAt == nil { fds.append(fd) }
    if let fd = buttonNode?.fileDescriptor { fds.append(fd) }
    if let watch = vanishWatch { fds.append(watch.fileDescriptor) }
    return fds
  }

  /// Now when frames read while opening wait; when the motion node is to be
  /// read again after a batch; `nil` otherwise.
  public var deadline: MonotonicInstant? {
    pendingFrames.isEmpty ? readAgainAt : .now
  }

  /// What arrived, oldest first: motion samples on the live clock, and
  /// presses of the buttons' node at the time they were read. `ready` are
  /// the descriptors found readable.
  public func read(ready: Set<Int32>) throws -> [MotionStep] {
    var items = items(from: pendingFrames)
    pendingFrames = []
    let mine = ready.intersection(pollDescriptors)
    let batchDue = readAgainAt.map { $0 <= .now } ?? false
    if let device = motion, mine.contains(device.fileDescriptor) || batchDue {
      items += try readMotion(device)
    }
    if let device = buttonNode, mine.contains(device.fileDescriptor) {
      items += try readButtons(device)
    }
    if let watch = vanishWatch, mine.contains(watch.fileDescriptor) {
      try reconnect(watch)
    }
    return items
  }

  /// What `device` has; `nil` when it went away (it is closed then).
  private func frames(of device: LiveDevice) throws -> [Frame]? {
    do {
      return try device.readFrames()
    } catch let error {
      guard case .vanished = error else { throw error }
      device.close()
      return nil
    }
  }

  private func readMotion(_ device: LiveDevice) throws -> [MotionStep] {
    if let frames = try frames(of: device) {
      // Left unread for a while after a batch; polled again once it is quiet.
      readAgainAt = nil
      if var batching, !frames.isEmpty {
        batching.learn(from: frames)
        self.batching = batching
        readAgainAt = .now + .seconds(batching.delay)
      }
      let items = items(from: frames)
      if device.droppedCount > 0 && !saidEventsDropped {
        saidEventsDropped = true
        onNote(.eventsDropped(path: path))
      }
      return items
    }
    motion = nil
    readAgainAt = nil
    guard waitsForReconnect else {
      onNote(.deviceWentAway(path: path, waiting: false))
      isGone = true
      return []
    }
    onNote(.deviceWentAway(path: path, waiting: true))
    vanishWatch = try DeviceWatch(directory: DeviceChoice.inputDirectory)
    return []
  }

  /// Motion frames as items on the live clock. A resync frame is the
  /// device's state after SYN_DROPPED: after an overflow it is all there is
  /// of the final position, so it is a sample too.
  private func items(from frames: [Frame]) -> [MotionStep] {
    frames.compactMap { frame in
      guard var item = decoder.decode(frame)?.item else { return nil }
      item.time = clock.sourceTime(forSample: item.time)
      return item
    }
  }

  private func readButtons(_ device: LiveDevice) throws -> [MotionStep] {
    guard let frames = try frames(of: device) else {
      buttonNode = nil
      buttonNodeVanished = true
      return []
    }
    let now = clock.handOutNow()
    let codes = Buttons.codes(of: device.info)
    return frames.compactMap { frame in
      let pressed = Buttons.pressed(in: frame, buttons: codes)
      return pressed.isEmpty ? nil : MotionStep(time: now, motion: nil, pressedButtons: pressed)
    }
  }

  /// With reconnect: the device is back when a node with its name and id appears.
  private func reconnect(_ watch: DeviceWatch) throws {
    guard watch.changed() else { return }
    let back = DeviceScanner.scan(directory: DeviceChoice.inputDirectory).first {
      $0.info?.name == info.name && $0.info?.id == info.id
    }
    guard let back, let device = try? LiveDevice(path: back.path) else { return }
    onNote(.deviceIsBack(path: back.path))
    path = back.path
    motion = device
    // The pad's other nodes came back with it, under new names.
    let hadButtons = buttonNode != nil
    buttonNode?.close()
    buttonPath =
      DeviceScanner.scan(directory: DeviceChoice.inputDirectory, known: [back.path: device.info])
      .first { $0.path == back.path }?.pairedButtonPath
    buttonNode = hadButtons ? buttonPath.flatMap { try? LiveDevice(path: $0) } : nil
    buttonNodeVanished = false
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
    clock.restartSamples()
    vanishWatch = nil
  }
}

extension LiveMotionDevice: MotionDevice {
  public var capabilities: MotionCapabilities {
    var capabilities = profile.capabilities
    capabilities.keyCodes = buttons
    return capabilities
  }
  public var deviceInfo: DeviceInfo? { info }
  public var isOpen: Bool { isMotionNodeOpen }

  /// The motion node while motion is read, or while it carries buttons that
  /// are heard; the paired button node while buttons are heard.
  public func follow(_ use: DeviceUse) throws {
    try follow(
      motionNode: use.motion || (use.buttons && !profile.buttons.isEmpty),
      buttonNode: use.buttons)
  }

  public func finish() { try? follow(motionNode: false, buttonNode: false) }

  public func readSteps(ready: Set<Int32>) throws -> [MotionStep]? { try read(ready: ready) }

  public var readInterval: Double? {
    get { batchInterval }
    set { batchInterval = newValue }
  }

  public func wakeDelay(until t: Double) -> Double? { wallDelay(until: t) }
  public func timeOfWake(_ t: Double) -> Double { handOutNow() }
}
