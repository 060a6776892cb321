import Glibc

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`):
/// what a piece of work cost, whatever else the machine was doing.
public enum ThreadCPUClock {
  /// The thread's CPU time so far, in seconds; 0 where the clock cannot be read.
  public static func now() -> Double {
    var ts = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 else { return 0 }
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
