import Glibc
import Synchronization

/// Puts a terminal back from a signal handler before the process dies of the
/// signal: a program in raw mode on the alternate screen that is killed by
/// SIGINT or SIGTERM would otherwise leave the shell without echo.
///
/// ``arm(input:output:settings:leave:)`` prepares what the handler restores;
/// ``installHandler(for:)`` installs the handler (`sigaction`, no
/// `SA_RESTART`). While armed, the handler writes the leave bytes to the
/// output and applies the settings to the input (`tcsetattr(TCSAFLUSH)`); then
/// it sets the signal back to its default action and raises it again.
///
/// The handler is async-signal-safe: it reads only atomics prepared before
/// (lock-free loads, whatever thread the signal lands on) and calls only
/// `write`, `tcsetattr`, `sigaction` and `raise`.
package enum TerminalRescue {
  /// The most leave bytes ``arm(input:output:settings:leave:)`` keeps.
  package static let leaveCapacity = 32

  /// Installs the rescuing handler for `signals`.
  package static func installHandler(for signals: [Int32]) {
    _ = isArmed.load(ordering: .sequentiallyConsistent)  // made here, never first in the handler
    installSignalHandler(
      { received in
        TerminalRescue.restoreIfArmed()
        resetSignalToDefault(received)
        raiseSignal(received)
      }, for: signals)
  }

  /// What the handler restores: `settings` on `input`, after `leave` (at most
  /// ``leaveCapacity`` bytes) is written to `output`.
  package static func arm(
    input: Int32, output: Int32, settings: TerminalSettings, leave: [UInt8]
  ) {
    precondition(leave.count <= leaveCapacity, "the leave sequence is longer than \(leaveCapacity)")
    isArmed.store(false, ordering: .sequentiallyConsistent)
    inputDescriptor.store(input, ordering: .sequentiallyConsistent)
    outputDescriptor.store(output, ordering: .sequentiallyConsistent)
    store(settings.raw, in: settingsWords)
    var padded = leave + [UInt8](repeating: 0, count: leaveCapacity - leave.count)
    padded.withUnsafeMutableBytes { bytes in
      for index in leaveWords.indices {
        leaveWords[index].store(
          bytes.load(fromByteOffset: index * 8, as: UInt64.self), ordering: .sequentiallyConsistent)
      }
    }
    leaveCount.store(leave.count, ordering: .sequentiallyConsistent)
    isArmed.store(true, ordering: .sequentiallyConsistent)
  }

  /// The handler restores nothing until the next ``arm(input:output:settings:leave:)``.
  package static func disarm() { isArmed.store(false, ordering: .sequentiallyConsistent) }

  /// What the handler does before it dies of the signal; async-signal-safe.
  static func restoreIfArmed() {
    guard isArmed.load(ordering: .sequentiallyConsistent) else { return }
    var leave = InlineArray<4, UInt64>(repeating: 0)
    for index in leaveWords.indices {
      leave[index] = leaveWords[index].load(ordering: .sequentiallyConsistent)
    }
    let count = min(leaveCount.load(ordering: .sequentiallyConsistent), leaveCapacity)
    withUnsafeBytes(of: &leave) { bytes in
      _ = write(outputDescriptor.load(ordering: .sequentiallyConsistent), bytes.baseAddress, count)
    }
    var settings = termios()
    load(&settings, from: settingsWords)
    _ = tcsetattr(inputDescriptor.load(ordering: .sequentiallyConsistent), TCSAFLUSH, &settings)
  }

  private static let isArmed = Atomic<Bool>(false)
  private static let inputDescriptor = Atomic<Int32>(-1)
  private static let outputDescriptor = Atomic<Int32>(-1)
  private static let leaveCount = Atomic<Int>(0)
  private static let leaveWords = InlineArray<4, Atomic<UInt64>> { _ in Atomic(0) }
  /// A `termios` (60 bytes on Linux) as eight words.
  private static let settingsWords = InlineArray<8, Atomic<UInt64>> { _ in Atomic(0) }

  private static func store(_ settings: termios, in words: borrowing InlineArray<8, Atomic<UInt64>>)
  {
    var padded = InlineArray<8, UInt64>(repeating: 0)
    withUnsafeMutableBytes(of: &padded) { destination in
      withUnsafeBytes(of: settings) { destination.copyMemory(from: $0) }
    }
    for index in words.indices {
      words[index].store(padded[index], ordering: .sequentiallyConsistent)
    }
  }

  private static func load(
    _ settings: inout termios, from words: borrowing InlineArray<8, Atomic<UInt64>>
  ) {
    var padded = InlineArray<8, UInt64>(repeating: 0)
    for index in words.indices {
      padded[index] = words[index].load(ordering: .sequentiallyConsistent)
    }
    withUnsafeMutableBytes(of: &settings) { destination in
      withUnsafeBytes(of: &padded) { source in
        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<destination.count]))
      }
    }
  }
}
