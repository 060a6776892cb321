import SystemCalls

/// The live loop's time: the source's sample clock, so that live frames are
/// what a replay of the same events gives, carried on by the monotonic clock
/// between samples so that display frames keep their pace when the device is
/// silent.
///
/// Samples of the first open keep the kernel's times since the first sample
/// (DESIGN: a live source's time is the kernel's). The clock starts with the
/// first time it gives (the first frame, or the first sample): the setup
/// before it (opening nodes, a server) is not the source's time, so the
/// first frame and the first sample are both at 0. A reopened device's decoder
/// counts from zero again; its first sample is placed at the latest time the
/// pipeline has been given, and the rest follow it at the kernel's spacing. A
/// first sample is never placed before a time already handed out (a key, a
/// timer frame of a flip while the device was silent): the card's clock
/// would otherwise stand still until the samples caught up.
package struct LiveClock {
  /// How far timer wake-ups stay behind the latest sample's time plus the
  /// wall time since it arrived, so that a sample still on its way is not
  /// overtaken by a display frame (the card counts a late sample at the
  /// time it has already shown).
  package static let margin = 0.02

  /// Monotonic seconds; a test gives its own.
  private let wall: () -> Double
  /// Pipeline time minus the current open's sample time.
  private var base = 0.0
  /// The latest sample's pipeline time.
  private var latest = 0.0
  private var latestWall: Double
  /// The latest time handed out for commands and timer frames.
  private var handedOut = 0.0
  /// The next sample is the first of an open.
  private var anchorNextSample = true
  /// Nothing has been timed yet: the wall clock has not started.
  private var started = false

  package init(wall: @escaping () -> Double = monotonicSeconds) {
    self.wall = wall
    latestWall = wall()
  }

  /// The pipeline time now, to judge what is due.
  package func now() -> Double {
    guard started else { return latest }
    return max(latest, latest + (wall() - latestWall) - LiveClock.margin)
  }

  /// The pipeline time now, given to the pipeline (a command, a button of
  /// another node, a timer frame): no sample is placed before it.
  package mutating func handOutNow() -> Double {
    if !started {
      started = true
      latestWall = wall()
    }
    let t = now()
    handedOut = max(handedOut, t)
    return t
  }

  /// The pipeline time of a sample the decoder timed `t` since the open's
  /// first sample.
  package mutating func sourceTime(forSample t: Double) -> Double {
    if anchorNextSample {
      anchorNextSample = false
      base = max(base, max(latest, handedOut) - t)
    }
    latest = max(latest, base + t)
    latestWall = wall()
    started = true
    return latest
  }

  /// A new open of the device (a start, a reconnect): its decoder counts
  /// from zero again, and its samples continue from now.
  package mutating func restartSamples() {
    anchorNextSample = true
    handedOut = max(handedOut, now())
  }

  /// Seconds of wall time until pipeline time `t`: until ``now()`` reaches
  /// it, the margin included (``now()`` stands at the latest sample for the
  /// margin after it arrives, so a wake at `t − now()` would find nothing due).
  package func wallDelay(until t: Double) -> Double {
    guard started, t > latest else { return max(0, t - now()) }
    return max(0, t - latest + LiveClock.margin - (wall() - latestWall))
  }
}
