import SensorData
import SystemCalls

/// Assembles frames from an event source, the way libevdev documents it.
///
/// In normal mode events are collected up to `SYN_REPORT`. When the source reports
/// a `SYN_DROPPED` (`LIBEVDEV_READ_STATUS_SYNC`), the incomplete frame is
/// discarded, `droppedCount` goes up, and the source is read in sync mode until it
/// would block. The synced state is delivered as a frame whose first event is the
/// `EV_SYN SYN_DROPPED` event, followed by the events that changed and a
/// `SYN_REPORT` (one is added, stamped with the `SYN_DROPPED` time, when nothing
/// changed). Its events are the device's current state, not a sample: a consumer
/// that times samples should skip frames that start with `SYN_DROPPED`.
public struct FrameReader<Source: EventReading> {
  public private(set) var source: Source
  /// The node named in errors.
  public let path: String
  /// How many `SYN_DROPPED` resyncs happened so far.
  public private(set) var droppedCount = 0

  private var partial: [InputEvent] = []
  private var deferredError: DeviceError?

  public init(source: Source, path: String) {
    self.source = source
    self.path = path
  }

  /// Drains what the source has now, without blocking, and returns the complete
  /// frames. An incomplete frame is kept for the next call.
  ///
  /// When the source fails after some frames were complete, those frames are
  /// returned and the error is thrown by the next call, so nothing read is lost.
  public mutating func readFrames() throws(DeviceError) -> [Frame] {
    if let error = deferredError {
      deferredError = nil
      throw error
    }
    var frames: [Frame] = []
    do {
      try drain(into: &frames)
    } catch {
      let deviceError = DeviceError(path: path, errno: error, operation: "libevdev_next_event")
      if frames.isEmpty { throw deviceError }
      deferredError = deviceError
    }
    return frames
  }

  private mutating func drain(into frames: inout [Frame]) throws(Errno) {
    while true {
      switch try source.nextEvent(.normal) {
      case .wouldBlock:
        return
      case .success(let event):
        partial.append(event)
        if event.isReport {
          frames.append(Frame(events: partial))
          // The frame keeps these events; the next one starts in a buffer of
          // the same size (one allocation, not one for each doubling).
          partial.removeAll(keepingCapacity: true)
        }
      case .sync(let dropped):
        droppedCount += 1
        partial = []
        try resynchronize(after: dropped, into: &frames)
      }
    }
  }

  private mutating func resynchronize(after dropped: InputEvent, into frames: inout [Frame])
    throws(Errno)
  {
    var events = [dropped]
    while true {
      switch try source.nextEvent(.sync) {
      case .wouldBlock:
        if !events.isEmpty {
          let time = events.last?.time ?? dropped.time
          events.append(
            InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
          frames.append(Frame(events: events))
        }
        return
      case .success(let event), .sync(let event):
        events.append(event)
        if event.isReport {
          frames.append(Frame(events: events))
          events = []
        }
      }
    }
  }
}

extension InputEvent {
  /// `EV_SYN SYN_REPORT`: the end of a frame.
  var isReport: Bool { type == EventType.syn && code == SynCode.report }
}

extension Frame {
  /// Whether this frame is a resync after `SYN_DROPPED` (its first event is the
  /// `SYN_DROPPED`): the device's state, not a sample.
  public var isResync: Bool {
    guard let first = events.first else { return false }
    return first.type == EventType.syn && first.code == SynCode.dropped
  }
}

extension FrameReader: Sendable where Source: Sendable {}
