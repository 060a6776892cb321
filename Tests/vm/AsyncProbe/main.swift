import Foundation
import Motion
import SystemCalls
import Tilt
import TiltCard

// The app side of VM scenarios 32, 33 and 42 (Tests/vm/README.md): the library
// used as an app uses it, with what it prints flushed line by line.
//
//   tilt-async-probe cancel DEVICE UPDATES SECONDS
//     iterates AsyncMotionManager(.device(path:)).updates() (Motion, no card) in a task, one
//     `update N` line each; cancels the task after UPDATES updates or SECONDS
//     seconds, awaits it, prints `cancelled after N updates`, then sleeps in
//     pause() with SIGINT at the disposition the library left (the default).
//   tilt-async-probe idle
//     the floor of any Swift program that used a task: awaits one, prints
//     `idle` and pauses as `cancel` does (on Linux libdispatch's thread of the
//     concurrency runtime wakes once a second for the life of the process).
//   tilt-async-probe stopped DEVICE
//     Motion's DeviceMotionManager on DEVICE: started, stopped, then its loop
//     until SIGINT: `stopped, motion node closed`, then `update N` for each
//     new motion and `state active` if the updates start again (looked at
//     four times a second).
//   tilt-async-probe stopped DEVICE --buttons-start-updates
//     the card's TiltMotionManager with that policy, stopDeviceMotionUpdates(),
//     then its loop until SIGINT: the same lines, `state S` when the card's
//     state changes.
//   tilt-async-probe lifecycle DEVICE
//     Motion's DeviceMotionManager on DEVICE (evdev or IIO), `start` and `stop`
//     read from stdin by a participant of its loop, each LifecycleEvent
//     printed (Lifecycle.swift); exits when the device goes away.
//
// A test tool, not part of the library: it calls libc (pause) itself.
#if canImport(Glibc)
  import Glibc
#endif

func say(_ line: String) {
  print(line)
  fflush(nil)
}

func complain(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}

func usage() -> Never {
  complain(
    "usage: tilt-async-probe cancel DEVICE UPDATES SECONDS\n"
      + "       tilt-async-probe idle\n"
      + "       tilt-async-probe stopped DEVICE [--buttons-start-updates]\n"
      + "       tilt-async-probe lifecycle DEVICE   (start/stop lines on stdin)\n")
  exit(64)
}

/// Iterates the updates in a task and cancels it after `limit` updates or `seconds`.
func cancel(device: String, limit: Int, seconds: Double) async {
  let (reached, reachedLimit) = AsyncStream<Void>.makeStream()
  let task = Task {
    var count = 0
    do {
      for try await motion in AsyncMotionManager(.device(path: device)).updates() {
        count += 1
        say("update \(count) t=\(motion.timestamp)")
        if count == limit { reachedLimit.yield() }
      }
    } catch {
      say("error: \(error)")
    }
    reachedLimit.finish()
    return count
  }
  await withTaskGroup(of: Void.self) { group in
    group.addTask { for await _ in reached { return } }
    group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
    await group.next()
    group.cancelAll()
  }
  task.cancel()
  let count = await task.value
  say("cancelled after \(count) updates")
}

/// Looks at a stopped motion manager four times a second: says a new
/// motion and a start, which nothing but the app should make.
final class StoppedWatch: LoopParticipant {
  let manager: DeviceMotionManager
  var updates = 0
  var lastTime: Double?
  var active = false
  init(_ manager: DeviceMotionManager) {
    self.manager = manager
    lastTime = manager.deviceMotion?.timestamp
  }
  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { .now + .milliseconds(250) }
  func service(ready: Set<Int32>) throws {
    if let t = manager.deviceMotion?.timestamp, t != lastTime {
      lastTime = t
      updates += 1
      say("update \(updates) t=\(t)")
    }
    if manager.isDeviceMotionActive != active {
      active = manager.isDeviceMotionActive
      say("state \(active ? "active" : "stopped")")
    }
  }
}

/// Motion alone: started, stopped at once, its loop run; says what happens.
func stoppedMotion(device: String) throws {
  let manager = DeviceMotionManager(.device(path: device))
  try manager.startDeviceMotionUpdates()
  try manager.stopDeviceMotionUpdates()
  say("stopped, motion node \(manager.isDeviceOpen ? "open" : "closed")")
  manager.participants.append(StoppedWatch(manager))
  try manager.run()
  say("ended")
}

/// Stops a card manager's updates at once and runs its loop, saying what happens.
func stopped(device: String, buttonsStartUpdates: Bool) throws {
  let manager = try TiltMotionManager(devicePath: device)
  manager.buttonsStartUpdates = buttonsStartUpdates
  var updates = 0
  manager.pipeline.motionObservers.append { motion in
    updates += 1
    say("update \(updates) t=\(motion.timestamp)")
  }
  try manager.stopDeviceMotionUpdates()
  say("stopped, motion node \(manager.isDeviceOpen ? "open" : "closed")")
  var state = manager.state
  manager.observeFrames { frame in
    if frame.state != state {
      state = frame.state
      say("state \(state)")
    }
  }
  try manager.run()
  say("ended")
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch (arguments.first, arguments.count) {
  case ("cancel", 4):
    guard let limit = Int(arguments[2]), let seconds = Double(arguments[3]) else { usage() }
    await cancel(device: arguments[1], limit: limit, seconds: seconds)
    // On the main thread, not a pool thread: libdispatch watches a blocked
    // worker with a timer once a second (5 wake-ups in 5 s when it paused there).
    while true { pause() }
  case ("idle", 1):
    _ = await Task { 0 }.value
    say("idle")
    while true { pause() }
  case ("stopped", 2), ("stopped", 3):
    if arguments.count == 3 && arguments[2] != "--buttons-start-updates" { usage() }
    if arguments.count == 3 {
      try stopped(device: arguments[1], buttonsStartUpdates: true)
    } else {
      try stoppedMotion(device: arguments[1])
    }
  case ("lifecycle", 2):
    try lifecycle(device: arguments[1])
  default:
    usage()
  }
} catch {
  complain("tilt-async-probe: \(error)\n")
  exit(1)
}
