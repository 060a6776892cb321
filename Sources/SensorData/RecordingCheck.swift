/// What a reader found when it read a recording through once, before its
/// first frame (contract §3.4: nothing is shown before the whole file is
/// checked).
///
/// The pass keeps counts only, so memory stays flat however long the file.
/// A malformed line is no part of it: the reader throws that at once, with
/// the file and line. What is left are things a replay can go on with but a
/// user must be told: ``notes``.
public struct RecordingCheck: Sendable {
  /// Whether the file was read through before its first frame. A pipe or a
  /// device cannot be read twice: its lines are checked as they come.
  public var isChecked: Bool
  /// evemu: the frames ``EvemuReader/nextFrame()`` will return; CSV: the rows.
  public var frames: Int
  /// evemu: the `E:` lines; CSV: the rows.
  public var events: Int
  /// Seconds from the first event (or row) to the last, by the recorded
  /// times; nil without events. Not the replay's duration when times go
  /// backwards or `MSC_TIMESTAMP` times the samples: a figure for a progress bar.
  public var duration: Double?
  /// What the replay goes on with but a user must be told, each with the
  /// file and line: a last frame not closed by `SYN_REPORT`, frames cut
  /// because they never ended.
  public var notes: [RecordingError]

  public init(
    isChecked: Bool, frames: Int = 0, events: Int = 0, duration: Double? = nil,
    notes: [RecordingError] = []
  ) {
    self.isChecked = isChecked
    self.frames = frames
    self.events = events
    self.duration = duration
    self.notes = notes
  }

  /// A file read as it comes (a pipe): nothing known in advance.
  public static let unchecked = RecordingCheck(isChecked: false)
}
