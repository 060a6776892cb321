import SensorData
import SystemCalls

/// An input device node (`/dev/input/eventN`) read through libevdev.
///
/// Opened non-blocking: put `fileDescriptor` in a `poll()` set and call
/// `readFrames()` when it is readable. `SYN_DROPPED` is resynchronised as
/// libevdev documents (see `FrameReader`). Closing frees libevdev and the
/// descriptor; `deinit` closes too.
///
/// Not thread-safe (not `Sendable`, as libevdev is not): use it from one thread
/// or task at a time.
public final class LiveDevice {
  /// The node this device was opened from.
  public let path: String
  /// Name, id, properties, codes and absinfo, read once at open.
  public let info: DeviceInfo

  private var descriptor: Int32
  private var handle: OpaquePointer?
  private var reader: FrameReader<LibevdevEventSource>?

  /// Opens the node `O_RDONLY | O_NONBLOCK | O_CLOEXEC` and reads its
  /// capabilities with `libevdev_new_from_fd`.
  public init(path: String) throws(DeviceError) {
    let fd: Int32
    do {
      fd = try Syscall.openForReading(path)
    } catch {
      throw DeviceError(path: path, errno: error, operation: "open")
    }
    let device: OpaquePointer
    do {
      device = try Syscall.libevdevNew(fd: fd)
    } catch {
      Syscall.close(fd)
      throw DeviceError(path: path, errno: error, operation: "libevdev_new_from_fd")
    }
    self.path = path
    self.descriptor = fd
    self.handle = device
    self.info = DeviceInfo(libevdev: device)
    self.reader = FrameReader(source: LibevdevEventSource(device: device), path: path)
  }

  deinit { close() }

  /// The open descriptor, for `poll()`; -1 once closed.
  public var fileDescriptor: Int32 { descriptor }

  /// Whether `close()` has not been called yet.
  public var isOpen: Bool { handle != nil }

  /// How many times the kernel's buffer overflowed (`SYN_DROPPED`) and the
  /// device was resynchronised.
  public var droppedCount: Int { reader?.droppedCount ?? 0 }

  /// Drains the events available now, without blocking, as complete frames.
  ///
  /// Throws `DeviceError.vanished` once the device is gone (after returning the
  /// frames read before). Must not be called after `close()`.
  public func readFrames() throws(DeviceError) -> [Frame] {
    guard reader != nil else {
      preconditionFailure("LiveDevice.readFrames() called after close() on \(path)")
    }
    return try reader!.readFrames()
  }

  /// Frees libevdev and closes the descriptor. Calling it again does nothing.
  public func close() {
    guard let device = handle else { return }
    reader = nil
    handle = nil
    Syscall.libevdevFree(device)
    Syscall.close(descriptor)
    descriptor = -1
  }
}

/// Events from libevdev, for `FrameReader`.
struct LibevdevEventSource: EventReading {
  let device: OpaquePointer

  mutating func nextEvent(_ mode: ReadMode) throws(Errno) -> ReadOutcome {
    try Syscall.libevdevNextEvent(device, mode)
  }
}
