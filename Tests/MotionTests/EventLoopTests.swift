import Foundation
import Glibc
import Motion
import Synchronization
import SystemCalls
import Testing

/// SIGUSR1s that reached the handler the test installed before the loop; an
/// atomic, since the handler runs on whichever thread the signal lands.
private let previousHandlerCallCount = Atomic<Int>(0)
private var previousHandlerCalls: Int { previousHandlerCallCount.load(ordering: .relaxed) }

/// The one loop: its signals, its deadlines, its end. Serialized: signal
/// dispositions belong to the whole process.
@Suite(.serialized) struct EventLoopTests {
  /// Installs a counting handler for SIGUSR1, as an app would have one, and
  /// unblocks it on this thread (a test process may start with it blocked).
  static func installPreviousHandler() {
    resetHandler()  // a pending SIGUSR1 of an earlier test is discarded
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, SIGUSR1)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    previousHandlerCallCount.store(0, ordering: .relaxed)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      previousHandlerCallCount.add(1, ordering: .relaxed)
    }
    sigemptyset(&action.sa_mask)
    sigaction(SIGUSR1, &action, nil)
  }

  static func resetHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_IGN
    sigaction(SIGUSR1, &action, nil)
  }

  @Test func aSignalDuringTheLoopIsDeliveredToIt() throws {
    Self.installPreviousHandler()
    defer { Self.resetHandler() }
    let loop = try EventLoop(handling: [.user1])
    raise(SIGUSR1)
    let events = try loop.turn(until: .now + .seconds(10)).events
    #expect(events == [.signal(.user1)])
    #expect(previousHandlerCalls == 0, "the loop's handler, not the previous one, had it")
    loop.end()
  }

  @Test func theSignalsHandlersAreRestoredWhenTheLoopEnds() throws {
    Self.installPreviousHandler()
    defer { Self.resetHandler() }
    do {
      let loop = try EventLoop(handling: [.user1, .windowChange])
      raise(SIGUSR1)
      _ = try loop.turn(until: .now + .seconds(10))
      loop.end()
    }
    raise(SIGUSR1)
    #expect(previousHandlerCalls == 1, "after the loop, SIGUSR1 goes to the handler from before")
  }

  @Test func aSignalNotTakenByATurnGoesToThePreviousHandlerAtTheEnd() throws {
    Self.installPreviousHandler()
    defer { Self.resetHandler() }
    let loop = try EventLoop(handling: [.user1])
    raise(SIGUSR1)
    loop.end()
    #expect(previousHandlerCalls == 1, "the signal that came before the end was not lost")
  }

  @Test func aLoopAskedForNoSignalsLeavesThemAlone() throws {
    Self.installPreviousHandler()
    defer { Self.resetHandler() }
    let loop = try EventLoop()
    raise(SIGUSR1)
    #expect(previousHandlerCalls == 1)
    #expect(try loop.turn(until: .now).events.isEmpty)
  }

  @Test func aDeadlineFiresWithNoDescriptorReady() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let loop = try EventLoop()
    let timer = Timer(watching: ends[0], after: .milliseconds(50))
    loop.participants = [timer]
    let start = MonotonicInstant.now
    let turn = try loop.turn()
    #expect(turn.events.isEmpty && turn.ready.isEmpty)
    #expect(timer.served == [[]], "served once at its deadline, with nothing ready")
    #expect(start.duration(to: .now) >= .milliseconds(50))
  }

  @Test func anEndRequestFromAnotherThreadWakesTheLoop() throws {
    let loop = try EventLoop()
    let handle = loop.endHandle  // the loop is not Sendable; its handle is
    let thread = Thread {
      Thread.sleep(forTimeInterval: 0.05)
      handle.requestEnd()
    }
    thread.start()
    #expect(try loop.turn().events == [.endRequested])
  }

  @Test func anEndHandleOutlivesItsLoop() throws {
    var loop: EventLoop? = try EventLoop()
    let handle = try #require(loop?.endHandle)
    handle.requestEnd()
    #expect(try loop?.turn().events == [.endRequested])
    loop = nil
    handle.requestEnd()  // its pipe is still open: nothing else is written to
  }
}

/// A participant with a silent descriptor and a deadline.
private final class Timer: LoopParticipant {
  let fd: Int32
  let due: MonotonicInstant
  var served: [Set<Int32>] = []
  init(watching fd: Int32, after delay: Duration) {
    self.fd = fd
    due = .now + delay
  }
  var pollDescriptors: [Int32] { [fd] }
  var deadline: MonotonicInstant? { served.isEmpty ? due : nil }
  func service(ready: Set<Int32>) throws { served.append(ready) }
}
