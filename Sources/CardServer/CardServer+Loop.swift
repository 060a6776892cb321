import PollLoop

/// The server is served by the one loop: its sockets and libmicrohttpd's timeout.
extension CardServer: LoopParticipant {}
