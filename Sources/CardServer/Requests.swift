import CMicroHTTPD
import SystemCalls

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

  static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls, let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    else { return .NO }
    return server.admit(PeerKey(address)) ? .YES : .NO
  }

  static let notify: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection,
      let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    else { return }
    if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
      server.connectionOpened(connection)
    } else {
      server.connectionClosed(connection)
    }
  }

  static let completed: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
    if let cls, let connection,
      let server = Unmanaged<ServerBox>.fromOpaque(cls).takeUnretainedValue().server
    {
      server.requestEnded(connection)
    }
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
  /// One call of the access handler (contract §6.2's table).
  func handle(
    _ connection: OpaquePointer, path: String, method: String, first: Bool,
    upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
    context: RequestContext
  ) -> MHD_Result {
    if first {
      let query = argument(connection, "token")
      if let why = access.refusal(
        path: path, method: method, host: header(connection, "Host"),
        origin: header(connection, "Origin"), fetchSite: header(connection, "Sec-Fetch-Site"),
        fetchMode: header(connection, "Sec-Fetch-Mode"),
        fetchDest: header(connection, "Sec-Fetch-Dest"), query: query,
        cookie: cookie(connection, access.cookieName))
      {
        trace("refused \(method) \(path): \(why)")
        return respond(connection, 403, why)
      }
      switch method {
      case "POST":
        switch path {
        case "/control", "/visibility": return .YES  // the body comes next
        case "/", "/frames", "/state": return notAllowed(connection, allow: "GET, HEAD")
        default: return respond(connection, 404, "no such page: \(path)")
        }
      case "GET", "HEAD":
        switch path {
        case "/":
          var headers = [
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Opener-Policy", "same-origin"),
          ]
          // The token in the URL becomes a cookie: the page's own requests
          // (the event stream, the controls) carry it from then on.
          if let token = access.token, let query, Access.same(query, token) {
            headers.append(
              ("Set-Cookie", "\(access.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
          }
          return respond(connection, 200, page, type: "text/html; charset=utf-8", headers: headers)
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
    guard order.count < limits.streams else {
      return respond(
        connection, 503, "\(order.count) viewers already: close one of their pages and reload",
        headers: [("Retry-After", "10")])
    }
    // A stream may stay silent for as long as the card does.
    connections[connection]?.deadline = nil
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
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    MHD_add_response_header(response, "Cross-Origin-Resource-Policy", "same-origin")
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
    MHD_add_response_header(response, "Cross-Origin-Resource-Policy", "same-origin")
    for (name, value) in headers { MHD_add_response_header(response, name, value) }
    let result = MHD_queue_response(connection, status, response)
    MHD_destroy_response(response)
    return result
  }

  private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    tilt_mhd_header(connection, name).map { String(cString: $0) }
  }

  private func cookie(_ connection: OpaquePointer, _ name: String) -> String? {
    tilt_mhd_cookie(connection, name).map { String(cString: $0) }
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
