// An app of Motion runs its loop: the loop's types (EventLoop,
// LoopParticipant, MonotonicInstant) come with it; the system-call layer does not.
@_exported import PollLoop
