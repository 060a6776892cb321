/// One open `/frames` stream: its id, whether its page is visible, and the
/// bytes waiting to be sent to it.
///
/// The queue is bounded: a viewer that reads slowly loses its own oldest
/// frames (counted in ``dropped``) and nobody else's. The event being sent is
/// never cut, so the stream stays well-formed.
final class Viewer {
  let id: String
  /// The `struct MHD_Connection *` that carries the stream.
  let connection: OpaquePointer
  /// The connection's socket, watched while the stream is suspended so a
  /// viewer that hangs up is noticed at once (libmicrohttpd does not look at
  /// a suspended connection).
  let socket: Int32
  var visible = true
  /// Suspended in libmicrohttpd: nothing to send until the next frame.
  var suspended = false
  /// The peer has gone or the server is closing: end the stream.
  var closing = false
  /// Cleared when the peer sends bytes after its request (it should not): its
  /// socket then stays readable, so watching it would spin.
  var watchSocket = true
  private(set) var dropped = 0
  private var queue: [[UInt8]] = []
  private var head = 0
  private var current: [UInt8] = []
  private var offset = 0
  let limit: Int

  init(id: String, connection: OpaquePointer, socket: Int32, limit: Int) {
    self.id = id
    self.connection = connection
    self.socket = socket
    self.limit = max(limit, 1)
  }

  var hasPending: Bool { offset < current.count || head < queue.count }
  var queuedEvents: Int { queue.count - head + (offset < current.count ? 1 : 0) }

  /// Queues one event; when the queue is full the oldest queued one goes.
  func enqueue(_ event: [UInt8]) {
    if queue.count - head >= limit {
      head += 1
      dropped += 1
    }
    if head > 64 && head * 2 > queue.count {
      queue.removeFirst(head)
      head = 0
    }
    queue.append(event)
  }

  /// Copies up to `capacity` waiting bytes to `buffer`; returns how many.
  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    var written = 0
    while written < capacity {
      if offset == current.count {
        guard head < queue.count else { break }
        current = queue[head]
        head += 1
        offset = 0
        if head == queue.count {
          queue.removeAll(keepingCapacity: true)
          head = 0
        }
      }
      let n = min(capacity - written, current.count - offset)
      current.withUnsafeBytes { bytes in
        (buffer + written).copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
      }
      offset += n
      written += n
    }
    return written
  }
}
