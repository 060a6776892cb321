import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why the client's socket could not be used.
enum DSUTestClientError: Error, CustomStringConvertible {
  case socket(String, Int32)
  case badAddress(String)

  var description: String {
    switch self {
    case .socket(let call, let errno): "\(call): \(String(cString: strerror(errno)))"
    case .badAddress(let a): "not an IPv4 address: \(a)"
    }
  }
}

/// A DSU client over one UDP socket: sends requests to a server on
/// `host:port` and receives its answers, as an emulator does.
final class DSUTestClient {
  let requests: WireRequests
  let server: sockaddr_in
  private let fd: Int32

  /// Opens a UDP socket bound to `localHost` (an ephemeral port) for the
  /// server at `host:port`; the sender id is random unless given.
  init(
    host: String = "127.0.0.1", port: UInt16, localHost: String = "127.0.0.1",
    sender: UInt32 = .random(in: 1...UInt32.max)
  ) throws(DSUTestClientError) {
    requests = WireRequests(sender: sender)
    server = try Self.address(host, port)
    fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw .socket("socket", errno) }
    var local = try Self.address(localHost, 0)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let e = errno
      close(fd)
      throw .socket("bind \(localHost)", e)
    }
  }

  deinit { close(fd) }

  static func address(_ host: String, _ port: UInt16) throws(DSUTestClientError) -> sockaddr_in {
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw .badAddress(host) }
    return a
  }

  /// The port this client's socket is bound to.
  func localPort() throws(DSUTestClientError) -> UInt16 {
    var a = sockaddr_in()
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
    }
    guard ok == 0 else { throw .socket("getsockname", errno) }
    return UInt16(bigEndian: a.sin_port)
  }

  /// Sends one datagram to the server.
  func send(_ datagram: [UInt8]) throws(DSUTestClientError) {
    var to = server
    let sent = datagram.withUnsafeBytes { bytes in
      withUnsafePointer(to: &to) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(
            fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard sent == datagram.count else { throw .socket("sendto", errno) }
  }

  /// The next datagram within `timeout` seconds, or nil.
  func receiveRaw(timeout: Double) throws(DSUTestClientError) -> [UInt8]? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&pfd, 1, Int32(max(0, timeout * 1000)))
    if ready < 0 { throw .socket("poll", errno) }
    if ready == 0 { return nil }
    var buffer = [UInt8](repeating: 0, count: 2048)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n >= 0 else { throw .socket("recv", errno) }
    return Array(buffer.prefix(n))
  }

  /// Has the kernel stamp each datagram's arrival (`SO_TIMESTAMPNS`), for
  /// ``receiveStamped(timeout:)``.
  func stampArrivals() throws(DSUTestClientError) {
    var on: Int32 = 1
    // SO_TIMESTAMPNS (asm-generic/socket.h).
    guard setsockopt(fd, SOL_SOCKET, 35, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
      throw .socket("setsockopt SO_TIMESTAMPNS", errno)
    }
  }

  /// The next datagram within `timeout` seconds with the time the kernel
  /// received it (seconds of the realtime clock, as ``wallClock``; after
  /// ``stampArrivals()``), or nil: an arrival time that the test's own
  /// scheduling does not move.
  func receiveStamped(timeout: Double) throws(DSUTestClientError) -> (
    bytes: [UInt8], arrival: Double
  )? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&pfd, 1, Int32(max(0, timeout * 1000)))
    if ready < 0 { throw .socket("poll", errno) }
    if ready == 0 { return nil }
    var buffer = [UInt8](repeating: 0, count: 2048)
    // One control message: a cmsghdr (length, level, type) then a timespec.
    var control = [UInt64](repeating: 0, count: 8)
    let n = buffer.withUnsafeMutableBytes { data in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          return recvmsg(fd, &message, 0)
        }
      }
    }
    guard n >= 0 else { throw .socket("recvmsg", errno) }
    // cmsg_level SOL_SOCKET (1), cmsg_type SCM_TIMESTAMPNS (35).
    let level = UInt32(truncatingIfNeeded: control[1])
    let type = UInt32(truncatingIfNeeded: control[1] >> 32)
    guard control[0] >= 32, level == UInt32(SOL_SOCKET), type == 35 else {
      throw .socket("recvmsg: no arrival stamp", 0)
    }
    return (Array(buffer.prefix(n)), Double(control[2]) + Double(control[3]) / 1e9)
  }

  /// Seconds of the realtime clock, the clock of ``receiveStamped(timeout:)``.
  static var wallClock: Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Asks the kernel for a receive buffer of `bytes` (capped by
  /// `net.core.rmem_max`), so that a burst waits there for the reader.
  func setReceiveBuffer(_ bytes: Int32) {
    var size = bytes
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Every datagram that arrives within `duration` seconds.
  func receiveAll(for duration: Double) throws(DSUTestClientError) -> [[UInt8]] {
    let end = Date().addingTimeInterval(duration)
    var all: [[UInt8]] = []
    while case let left = end.timeIntervalSinceNow, left > 0 {
      if let d = try receiveRaw(timeout: left) { all.append(d) }
    }
    return all
  }

  /// Discards whatever is queued now.
  func drain() throws(DSUTestClientError) {
    while try receiveRaw(timeout: 0) != nil {}
  }

  /// The next answer within `timeout`, checked; a datagram that fails the
  /// checks is an error, none in time is nil.
  func receive(timeout: Double) throws -> WireAnswer? {
    guard let d = try receiveRaw(timeout: timeout) else { return nil }
    return try WireAnswer.parse(d)
  }

  /// Asks the version and waits for its answer.
  func version(timeout: Double = 2) throws -> UInt16? {
    try send(requests.version())
    let end = Date().addingTimeInterval(timeout)
    while case let left = end.timeIntervalSinceNow, left > 0 {
      if case .version(let v) = try receive(timeout: left) { return v }
    }
    return nil
  }

  /// Asks port info for `slots` and collects the answers by slot.
  func portInfo(slots: [UInt8] = [0, 1, 2, 3], timeout: Double = 2) throws -> [UInt8: WireSlotInfo]
  {
    try send(requests.portInfo(slots: slots))
    var answers: [UInt8: WireSlotInfo] = [:]
    let end = Date().addingTimeInterval(timeout)
    while answers.count < Set(slots).count, case let left = end.timeIntervalSinceNow, left > 0 {
      if case .portInfo(let info) = try receive(timeout: left) { answers[info.slot] = info }
    }
    return answers
  }

  /// Pad data that arrives within `duration` seconds, renewing the
  /// subscription every `renew` seconds (Dolphin renews once a second).
  func padData(
    _ subscription: WireSubscription = .all, for duration: Double, renew: Double = 1
  ) throws -> [WirePadData] {
    var packets: [WirePadData] = []
    let end = Date().addingTimeInterval(duration)
    var nextRequest = Date()
    while case let left = end.timeIntervalSinceNow, left > 0 {
      if Date() >= nextRequest {
        try send(requests.padData(subscription))
        nextRequest = Date().addingTimeInterval(renew)
      }
      let wait = min(left, max(0, nextRequest.timeIntervalSinceNow))
      if case .padData(let p) = try receive(timeout: wait) { packets.append(p) }
    }
    return packets
  }
}
