import SensorData

/// When a live loop with display frames reads its motion node: not at each
/// sample, but once a display frame (what is queued, all of it: every sample
/// still counts), and never so late that the kernel's queue could overflow.
///
/// The kernel keeps max(hint_events_per_packet × 8, 64) events for a reader
/// of an evdev node, rounded up to a power of two (drivers/input/evdev.c):
/// at least 64, about 8 frames of an IMU (6 axes, `MSC_TIMESTAMP`,
/// `SYN_REPORT`). A node is left unread at most half the time that 64 events
/// take at its rate, and at most ``maximumDelay``, which stays under
/// ``LiveClock/margin`` so that a timer frame never overtakes a sample still
/// in the queue.
package struct ReadBatching {
  /// The events the kernel surely queues for a reader.
  package static let kernelQueueEvents = 64.0
  /// The longest a node is left unread, seconds.
  package static let maximumDelay = LiveClock.margin * 0.9

  /// Seconds between display frames.
  package let frameInterval: Double
  /// The device's sample interval (kernel time), once measured: the time
  /// the frames of the recent batches span over their count, so that a
  /// burst (a writer that fell behind, several samples of one USB report
  /// stamped alike) weighs by its frames and is not taken for the rate.
  package var sampleInterval: Double? { spanned > 0 && gaps > 0 ? spanned / gaps : nil }
  /// Seconds spanned by the frames of each batch, and the gaps between them,
  /// the older batches weighing less (a tenth less a batch).
  private var spanned = 0.0
  private var gaps = 0.0
  private static let keep = 0.9
  /// The most events a frame of the device has had; an IMU's until one
  /// is read with more.
  package private(set) var eventsPerFrame = 8

  package init(displayRateHz: Double) { frameInterval = 1 / displayRateHz }

  /// Learns the device's rate and frame size from a batch read.
  package mutating func learn(from frames: [Frame]) {
    eventsPerFrame = max(eventsPerFrame, frames.map(\.events.count).max() ?? 1)
    let times = frames.compactMap { $0.time?.totalMicroseconds }
    guard times.count >= 2, let first = times.first, let last = times.last, last >= first else {
      return
    }
    spanned = spanned * Self.keep + Double(last - first) / 1e6
    gaps = gaps * Self.keep + Double(times.count - 1)
  }

  /// How long to leave the node unread after a batch, seconds: a display
  /// frame, or less where the kernel's queue would fill sooner (a device
  /// whose rate is not known yet is taken to send 1000 frames a second).
  package var delay: Double {
    let framesQueued = Self.kernelQueueEvents / Double(eventsPerFrame)
    let fill = framesQueued * (sampleInterval ?? 0.001)
    return min(frameInterval, Self.maximumDelay, fill / 2)
  }
}
