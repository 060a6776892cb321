#ifndef TILT_CMICROHTTPD_SHIM_H
#define TILT_CMICROHTTPD_SHIM_H

// libmicrohttpd, and the few calls Swift cannot make itself: the library's
// variadic functions (MHD_start_daemon, MHD_get_daemon_info,
// MHD_get_connection_info) wrapped in fixed-argument helpers.

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netdb.h>
#include <microhttpd.h>

/// Starts a daemon for external polling through its epoll descriptor, with
/// suspend/resume, bound to `address`, with no idle timeout of its own (the
/// server keeps a deadline per request instead: a stream may stay silent). Each
/// accepted connection is offered to `accept` (MHD_NO closes it at once) and
/// reported to `notify` when it opens and closes; `completed` is called when
/// a request ends. All get `cls`. NULL when the address cannot be bound
/// (errno says why).
static inline struct MHD_Daemon *tilt_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AcceptPolicyCallback accept, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify, void *cls) {
  return MHD_start_daemon(
      flags, 0, accept, cls, handler, cls,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
      MHD_OPTION_NOTIFY_CONNECTION, notify, cls,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)0,
      MHD_OPTION_END);
}

/// The daemon's epoll descriptor (MHD_DAEMON_INFO_EPOLL_FD), or -1.
static inline int tilt_mhd_epoll_fd(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
  return info ? info->epoll_fd : -1;
}

/// The port the daemon listens on (MHD_DAEMON_INFO_BIND_PORT), or 0.
static inline int tilt_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? (int)info->port : 0;
}

/// The connection's socket (MHD_CONNECTION_INFO_CONNECTION_FD), or -1.
static inline int tilt_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? (int)info->connect_fd : -1;
}

/// The daemon's listening socket (MHD_DAEMON_INFO_LISTEN_FD), or -1: for
/// getsockname, to see what was bound.
static inline int tilt_mhd_listen_fd(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
  return info ? (int)info->listen_fd : -1;
}

/// The peer's address (MHD_CONNECTION_INFO_CLIENT_ADDRESS), or NULL.
static inline const struct sockaddr *tilt_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info ? info->client_addr : NULL;
}

/// The value of cookie `name` in the request's Cookie header, or NULL.
static inline const char *tilt_mhd_cookie(struct MHD_Connection *connection, const char *name) {
  return MHD_lookup_connection_value(connection, MHD_COOKIE_KIND, name);
}

/// The value of request header `name`, or NULL.
static inline const char *tilt_mhd_header(struct MHD_Connection *connection, const char *name) {
  return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// The value of query argument `name`, or NULL.
static inline const char *tilt_mhd_argument(struct MHD_Connection *connection, const char *name) {
  return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}

/// A response with a copy of `size` bytes at `data` (MHD_RESPMEM_MUST_COPY).
static inline struct MHD_Response *tilt_mhd_response_copy(size_t size, const void *data) {
  return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

#endif
