import CMicroHTTPD
import Glibc

/// What one request carries between libmicrohttpd's calls (its `req_cls`).
final class RequestContext {
  var body: [UInt8] = []
  var bodyTooLong = false
  var viewer: Viewer?
}

/// What a viewer's content reader gets as `cls`.
final class StreamContext {
  let viewer: Viewer
  let box: ServerBox
  init(viewer: Viewer, box: ServerBox) {
    self.viewer = viewer
    self.box = box
  }
}

/// libmicrohttpd's callbacks: they find the server and hand over to it.
enum Requests {
  static let access: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, upload, uploadSize, requestContext in
    guard let cls, let connection, let url, let method, let uploadSize, let requestContext,
      let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    else { return .NO }
    let first = requestContext.pointee == nil
    let context: RequestContext
    if let raw = requestContext.pointee {
      context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    } else {
      context = RequestContext()
      requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
    }
    return server.handle(
      connection, path: String(cString: url), method: String(cString: method), first: first,
      upload: upload, uploadSize: uploadSize, context: context)
  }

  static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
    guard let cls, let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    else { return .NO }
    guard server.openConnections < server.limits.connections else {
      server.refusedConnections += 1
      return .NO
    }
    return .YES
  }

  static let notify: MHD_NotifyConnectionCallback = { cls, _, _, code in
    guard let cls, let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    else { return }
    if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
      server.openConnections += 1
    } else {
      server.openConnections -= 1
    }
  }

  static let completed: MHD_RequestCompletedCallback = { cls, _, requestContext, _ in
    guard let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    if let viewer = context.viewer, let cls,
      let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    {
      server.removeViewer(viewer)
    }
  }

  static let reader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return -2 }
    let stream = Unmanaged<StreamContext>.fromOpaque(cls).takeUnretainedValue()
    guard let server = stream.box.server else { return -2 }
    return server.read(stream.viewer, into: UnsafeMutableRawPointer(buffer), capacity: capacity)
  }

  static let free: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamContext>.fromOpaque(cls).release()
  }
}

extension CardServer {
  /// One call of the access handler (SPEC §6's table).
  func handle(
    _ connection: OpaquePointer, path: String, method: String, first: Bool,
    upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
    context: RequestContext
  ) -> MHD_Result {
    if first {
      let host = header(connection, "Host")
      guard isAllowed(host: host) else {
        return respond(connection, 403, "the Host \(host ?? "") is not this server's")
      }
      switch method {
      case "POST":
        if let origin = header(connection, "Origin"),
          origin.lowercased() != "http://" + (host ?? "").lowercased()
        {
          return respond(connection, 403, "the Origin \(origin) is not this page's")
        }
        switch path {
        case "/control", "/visibility": return .YES  // the body comes next
        case "/", "/frames", "/state": return notAllowed(connection, allow: "GET, HEAD")
        default: return respond(connection, 404, "no such page: \(path)")
        }
      case "GET", "HEAD":
        switch path {
        case "/":
          return respond(
            connection, 200, page, type: "text/html; charset=utf-8",
            headers: [
              (
                "Content-Security-Policy",
                "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                  + "connect-src 'self'; img-src data:"
              )
            ])
        case "/state":
          return respond(
            connection, 200, Array((stateJSON() + "\n").utf8), type: "application/json")
        case "/frames" where method == "GET":
          return stream(connection, context: context)
        case "/frames": return notAllowed(connection, allow: "GET")
        case "/control", "/visibility": return notAllowed(connection, allow: "POST")
        default: return respond(connection, 404, "no such page: \(path)")
        }
      default:
        switch path {
        case "/", "/state": return notAllowed(connection, allow: "GET, HEAD")
        case "/frames": return notAllowed(connection, allow: "GET")
        case "/control", "/visibility": return notAllowed(connection, allow: "POST")
        default: return respond(connection, 404, "no such page: \(path)")
        }
      }
    }
    // A POST's body, in pieces, then one last call with none.
    if uploadSize.pointee > 0 {
      let n = uploadSize.pointee
      if context.body.count + n > limits.bodyBytes {
        context.bodyTooLong = true
      } else if let upload {
        upload.withMemoryRebound(to: UInt8.self, capacity: n) {
          context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
      }
      uploadSize.pointee = 0
      return .YES
    }
    let body = context.bodyTooLong ? "" : trimmed(context.body)
    switch path {
    case "/control":
      guard let control = Control(rawValue: body) else {
        return respond(connection, 400, "the body must be flip, recenter, stop or start")
      }
      notify { [weak self] in self?.onControl?(control) }
      return respond(connection, 204, [])
    default:  // "/visibility"
      guard let id = argument(connection, "viewer"), !id.isEmpty else {
        return respond(connection, 400, "say which viewer: /visibility?viewer=ID")
      }
      guard let viewer = viewers[id], !viewer.closing else {
        return respond(connection, 404, "no viewer \(id)")
      }
      switch body {
      case "visible": setVisible(true, viewer: viewer)
      case "hidden": setVisible(false, viewer: viewer)
      default: return respond(connection, 400, "the body must be visible or hidden")
      }
      return respond(connection, 204, [])
    }
  }

  /// Opens a `/frames` stream: a new viewer, its events from the content reader.
  private func stream(_ connection: OpaquePointer, context: RequestContext) -> MHD_Result {
    let viewer = addViewer(connection: connection)
    context.viewer = viewer
    let stream = Unmanaged.passRetained(StreamContext(viewer: viewer, box: serverBox))
    guard
      let response = MHD_create_response_from_callback(
        UInt64.max, 4096, Requests.reader, stream.toOpaque(), Requests.free)
    else {
      stream.release()
      return .NO
    }
    MHD_add_response_header(response, "Content-Type", "text/event-stream")
    MHD_add_response_header(response, "Cache-Control", "no-store")
    MHD_add_response_header(response, "X-Accel-Buffering", "no")
    let result = MHD_queue_response(connection, 200, response)
    MHD_destroy_response(response)
    return result
  }

  private func notAllowed(_ connection: OpaquePointer, allow: String) -> MHD_Result {
    respond(connection, 405, "use \(allow)", headers: [("Allow", allow)])
  }

  private func respond(
    _ connection: OpaquePointer, _ status: UInt32, _ message: String,
    headers: [(String, String)] = []
  ) -> MHD_Result {
    respond(
      connection, status, Array((message + "\n").utf8), type: "text/plain; charset=utf-8",
      headers: headers)
  }

  private func respond(
    _ connection: OpaquePointer, _ status: UInt32, _ body: [UInt8], type: String? = nil,
    headers: [(String, String)] = []
  ) -> MHD_Result {
    let response = body.withUnsafeBytes { tilt_mhd_response_copy($0.count, $0.baseAddress) }
    guard let response else { return .NO }
    if let type { MHD_add_response_header(response, "Content-Type", type) }
    MHD_add_response_header(response, "Cache-Control", "no-store")
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    for (name, value) in headers { MHD_add_response_header(response, name, value) }
    let result = MHD_queue_response(connection, status, response)
    MHD_destroy_response(response)
    return result
  }

  private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    tilt_mhd_header(connection, name).map { String(cString: $0) }
  }

  private func argument(_ connection: OpaquePointer, _ name: String) -> String? {
    tilt_mhd_argument(connection, name).map { String(cString: $0) }
  }

  private func trimmed(_ bytes: [UInt8]) -> String {
    let space: Set<UInt8> = [9, 10, 13, 32]
    guard let start = bytes.firstIndex(where: { !space.contains($0) }),
      let end = bytes.lastIndex(where: { !space.contains($0) })
    else { return "" }
    return String(decoding: bytes[start...end], as: UTF8.self)
  }
}
