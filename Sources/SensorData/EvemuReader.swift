/// Reads an evemu recording, the text that `evemu-record` writes and
/// `evemu-play` reads: a device description, then `E:` event lines.
///
/// The header is read at `init` into `info`; events then stream frame by frame
/// through ``nextFrame()`` with constant memory. What is accepted follows
/// libevemu's parser (`evemu_read`, `evemu_read_event`):
/// - an optional `# EVEMU x.y` first line; `#` comments on any line, and after
///   the fields of any line but `N:`; blank lines anywhere;
/// - `N:` name, `I:` bustype vendor product version (hex), then any of
///   `P:` (8 hex property bytes), `B:` (hex type + 8 hex bytes), `A:` (hex code,
///   min, max, fuzz, flat and an optional resolution: files before format 1.2
///   have 4 numbers), `L:` and `S:` (LED and switch states, read and ignored);
/// - `E: SEC.USEC TYPE CODE VALUE` with type and code in hex and USEC read as
///   an integer of up to 6 digits, exactly as libevemu's `%lu.%06u` does.
///
/// Event times that go backwards are accepted, as `evemu-play` accepts them;
/// they are counted in ``backwardSteps``. ``SampleDecoder`` keeps sample time
/// monotonic.
///
/// A regular file is read through once at `init`, before the first frame
/// (``check``): a malformed line anywhere is thrown then, with its line, and
/// what a replay goes on with is said in ``RecordingCheck/notes`` (a last
/// frame without `SYN_REPORT`, frames cut at ``maximumFrameEvents``). The
/// pass keeps counts only. A pipe is checked line by line as it is read, and
/// so is a file opened with `checksFirst` false (a served replay, which must
/// not wait for a whole file): its header only is read at `init`.
///
/// Not thread-safe (not `Sendable`): use it from one thread or task at a time.
public final class EvemuReader {
  /// The device the recording describes. `uniq` and `phys` are empty: the
  /// format does not record them. Absolute axes' `value` is 0.
  public let info: DeviceInfo
  /// The format version of the first line, (1, 0) when there is none.
  public let formatVersion: (major: Int, minor: Int)
  /// How many events had an earlier time than the event before them.
  public private(set) var backwardSteps = 0
  /// How many events have been read so far.
  public private(set) var eventCount = 0
  /// What reading the file through before the first frame found.
  public private(set) var check = RecordingCheck.unchecked

  /// The most events one frame holds; a longer run without `SYN_REPORT` is
  /// cut into frames of this many, and ``check`` says where.
  ///
  /// The kernel ends a frame itself when it would outgrow the device's
  /// packet size (`input_handle_event` inserts `SYN_REPORT` at `max_vals`,
  /// which `input_estimate_events_per_packet` sizes from the device: one
  /// event per axis, one per multitouch axis and slot, a few for keys).
  /// A device with 64 touch slots (touchscreens report 10 to 20) and every
  /// axis there is, each `ABS_MT_*` axis once per slot (64 × 15) and every
  /// other axis and relative axis once, stays under 1 200; every key
  /// changing in one report adds 768. 4 096 events (96 KiB) is above both
  /// together, and bounds memory whatever the file holds.
  public static let maximumFrameEvents = 4096

  private let lines: BufferedLineReader
  private var pendingEventLine = false
  private var lastTime: Int64 = .min
  private var pendingEvent: InputEvent?

  /// What the file should be, for messages.
  static let expected = "an evemu recording"
  /// The file as given.
  public var path: String { lines.path }
  /// The 1-based number of the line read last.
  public var lineNumber: Int { lines.lineNumber }

  /// Opens `path` and reads its device description; with `checksFirst`,
  /// its events too (``check``).
  public convenience init(path: String, checksFirst: Bool = true) throws(RecordingError) {
    try self.init(
      lines: BufferedLineReader(path: path, expected: Self.expected), checksFirst: checksFirst)
  }

  /// Reads a recording held in memory, such as ``DemoRecording/text``; `name`
  /// stands for the file in messages.
  public convenience init(text: String, name: String) throws(RecordingError) {
    try self.init(lines: BufferedLineReader(text: text, name: name, expected: Self.expected))
  }

  private init(lines: BufferedLineReader, checksFirst: Bool = true) throws(RecordingError) {
    self.lines = lines
    let path = lines.path
    var header = HeaderParser(path: path)
    var sawAnyLine = false
    var firstEvent: InputEvent?
    while let line = try lines.nextLine() {
      try lines.refuseBinary(line)
      if Self.isBlank(line) { continue }
      let first = !sawAnyLine
      sawAnyLine = true
      if line[0] == UInt8(ascii: "#") {
        if first { header.parseVersion(line) }
        continue
      }
      if line.count >= 2, line[0] == UInt8(ascii: "E"), line[1] == UInt8(ascii: ":") {
        try header.requireComplete(line: lines.lineNumber, atEvent: true)
        firstEvent = try Self.parseEvent(line, path: path, line: lines.lineNumber)
        break
      }
      try header.parse(line, number: lines.lineNumber)
    }
    if !sawAnyLine {
      throw RecordingError(
        file: path, line: 0, kind: .empty,
        message:
          "empty file; an evemu recording starts with 'N: device name' (record one with evemu-record)"
      )
    }
    try header.requireComplete(line: lines.lineNumber + 1)
    info = header.info
    formatVersion = header.version
    pendingEvent = firstEvent
    if checksFirst, let firstEvent, lines.canRewind {
      let firstEventLine = lines.lineNumber
      check = try checkEvents(from: firstEvent)
      try lines.rewind()
      try lines.skip(toLine: firstEventLine)
    }
  }

  /// Reads the events from `first` to the end of the file as ``nextFrame()``
  /// would, keeping counts only.
  private func checkEvents(from first: InputEvent) throws(RecordingError) -> RecordingCheck {
    var result = RecordingCheck(isChecked: true)
    var inFrame = 0
    var frameStart = 0
    var cuts = 0
    var firstCut = 0
    var lastLine = lines.lineNumber
    var earliest = first.time.totalMicroseconds
    var latest = earliest
    var event: InputEvent? = first
    while let current = event {
      let time = current.time.totalMicroseconds
      earliest = min(earliest, time)
      latest = max(latest, time)
      result.events += 1
      if inFrame == 0 { frameStart = lines.lineNumber }
      inFrame += 1
      if current.type == EventType.syn && current.code == SynCode.report {
        result.frames += 1
        inFrame = 0
      } else if inFrame == Self.maximumFrameEvents {
        result.frames += 1
        inFrame = 0
        cuts += 1
        if cuts == 1 { firstCut = lines.lineNumber }
      }
      lastLine = lines.lineNumber
      event = try readEventLine()
    }
    if cuts > 0 {
      let such = cuts == 1 ? "1 such cut" : "\(cuts) such cuts"
      result.notes.append(
        RecordingError(
          file: path, line: firstCut, kind: .frameTooLong,
          message:
            "\(Self.maximumFrameEvents) events without a SYN_REPORT, more than any device puts in"
            + " one frame: cut there into a frame of its own (\(such) in the file); the recording"
            + " lost its SYN_REPORT lines or was not written by evemu-record"))
    }
    if inFrame > 0 {
      result.frames += 1
      let span = frameStart == lastLine ? "line \(frameStart)" : "lines \(frameStart)–\(lastLine)"
      let count = inFrame == 1 ? "1 event" : "\(inFrame) events"
      result.notes.append(
        RecordingError(
          file: path, line: lastLine, kind: .unclosedFrame,
          message:
            "the last frame (\(span), \(count)) is not closed by SYN_REPORT: the recording was"
            + " cut short; that frame is played as it is"))
    }
    result.duration = Double(latest - earliest) / 1_000_000
    return result
  }

  /// The events up to and including the next `SYN_REPORT`, or nil at the end
  /// of the file. Events after the last `SYN_REPORT` come as a last frame
  /// without one; a run of more than ``maximumFrameEvents`` without one is
  /// cut into frames of that many.
  public func nextFrame() throws(RecordingError) -> Frame? {
    var events: [InputEvent] = []
    events.reserveCapacity(8)
    while let event = try nextEvent() {
      events.append(event)
      if event.type == EventType.syn && event.code == SynCode.report { break }
      if events.count == Self.maximumFrameEvents { break }
    }
    return events.isEmpty ? nil : Frame(events: events)
  }

  /// The next event, or nil at the end of the file.
  public func nextEvent() throws(RecordingError) -> InputEvent? {
    let event: InputEvent
    if let pending = pendingEvent {
      pendingEvent = nil
      event = pending
    } else {
      guard let parsed = try readEventLine() else { return nil }
      event = parsed
    }
    let time = event.time.totalMicroseconds
    if time < lastTime { backwardSteps += 1 }
    lastTime = time
    eventCount += 1
    return event
  }

  private func readEventLine() throws(RecordingError) -> InputEvent? {
    while let line = try lines.nextLine() {
      if line.count >= 2, line[0] == UInt8(ascii: "E"), line[1] == UInt8(ascii: ":") {
        return try Self.parseEvent(line, path: lines.path, line: lines.lineNumber)
      }
      if Self.isBlank(line) || line[0] == UInt8(ascii: "#") { continue }
      try lines.refuseBinary(line)
      throw RecordingError(
        file: lines.path, line: lines.lineNumber, kind: .garbled,
        message:
          "expected an event line 'E: SEC.USEC TYPE CODE VALUE', got '\(Self.preview(line))'; remove the line or re-record"
      )
    }
    return nil
  }

  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where byte != 0x20 && byte != 0x09 { return false }
    return true
  }

  static func preview(_ line: UnsafeBufferPointer<UInt8>) -> String {
    let cut = UnsafeBufferPointer(rebasing: line[0..<min(line.count, 40)])
    let text = String(decoding: cut, as: UTF8.self)
    return line.count > 40 ? text + "…" : text
  }

  static let largestCode = Int64(KEY_MAX)
  /// Event seconds beyond this (about 31 700 years) are corrupt, and would
  /// overflow microseconds in 64 bits.
  static let maxSeconds: Int64 = 1_000_000_000_000

  /// Parses `E: SEC.USEC TYPE CODE VALUE` as libevemu does.
  static func parseEvent(
    _ line: UnsafeBufferPointer<UInt8>, path: String, line number: Int
  ) throws(RecordingError) -> InputEvent {
    var s = ByteScanner(line)
    s.index = 2
    func fail(_ kind: RecordingError.Kind, _ what: String) -> RecordingError {
      if line.looksBinary {
        return BufferedLineReader.binaryData(in: path, expected: Self.expected, at: number)
      }
      return RecordingError(file: path, line: number, kind: kind, message: what)
    }
    let format = "'E: SEC.USEC TYPE CODE VALUE'"
    func missing(_ field: String) -> RecordingError {
      if s.atEndOrComment() {
        return fail(
          .truncated, "truncated event line: no \(field); an event line is \(format)")
      }
      return fail(.notANumber, "'\(s.word())' is not a valid \(field); an event line is \(format)")
    }
    s.skipBlanks()
    let secondsResult = s.decimal()
    if case .value(let v, _) = secondsResult, v > maxSeconds {
      throw fail(
        .outOfRange,
        "event time \(v) s is out of range (largest is \(maxSeconds)); the line is corrupt")
    }
    if secondsResult == .tooBig {
      throw fail(
        .outOfRange, "event time is out of range (largest is \(maxSeconds) s); the line is corrupt")
    }
    guard case .value(let seconds, _) = secondsResult else { throw missing("time in seconds") }
    guard s.consume(UInt8(ascii: ".")) else {
      throw missing("'.' and microseconds after the seconds")
    }
    guard case .value(let micros, let microDigits) = s.decimal(), microDigits <= 6 else {
      throw missing("microseconds (1 to 6 digits)")
    }
    guard s.atBlankOrEnd else { throw missing("microseconds (1 to 6 digits)") }
    s.skipBlanks()
    guard case .value(let type, _) = s.hex(), s.atBlankOrEnd else {
      throw missing("event type (hex)")
    }
    if type > Int64(EV_MAX) {
      throw fail(
        .outOfRange,
        "event type 0x\(String(type, radix: 16)) is out of range (largest is 0x\(String(EV_MAX, radix: 16))); the line is corrupt"
      )
    }
    s.skipBlanks()
    guard case .value(let code, _) = s.hex(), s.atBlankOrEnd else {
      throw missing("event code (hex)")
    }
    let typeMax = EventNames.maximumCode(type: UInt16(type)).map { Int64($0) } ?? -1
    let codeMax = typeMax >= 0 ? typeMax : largestCode
    if code > codeMax {
      throw fail(
        .outOfRange,
        "event code 0x\(String(code, radix: 16)) is out of range for type 0x\(String(type, radix: 16)) (largest is 0x\(String(codeMax, radix: 16))); the line is corrupt"
      )
    }
    s.skipBlanks()
    let valueResult = s.signedDecimal()
    let value: Int64
    switch valueResult {
    case .value(let v, _) where s.atBlankOrEnd: value = v
    case .tooBig: value = .max
    default: throw missing("event value (decimal)")
    }
    if value < Int64(Int32.min) || value > Int64(Int32.max) {
      throw fail(
        .outOfRange,
        "event value is outside the 32-bit range of an evdev value; the line is corrupt")
    }
    return InputEvent(
      time: EventTime(seconds: seconds, microseconds: micros),
      type: UInt16(type), code: UInt16(code), value: Int32(value))
  }
}
