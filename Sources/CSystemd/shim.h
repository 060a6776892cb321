#ifndef TILT_CSYSTEMD_SHIM_H
#define TILT_CSYSTEMD_SHIM_H

// sd-bus from libsystemd. Swift calls its fixed-argument functions itself
// (sd_bus_message_append_basic, open_container, read_basic, …); the
// variadic ones (sd_bus_message_append, sd_bus_error_setf, …) are not used.
// The objects are served by one message callback per subtree
// (sd_bus_add_fallback) rather than a vtable, whose entries are C macros.

#include <poll.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/// An sd_bus_error with nothing set (SD_BUS_ERROR_NULL).
static inline sd_bus_error tilt_sd_bus_error_null(void) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  return error;
}

/// Whether sd_bus_get_events asks for POLLOUT: output is queued that the
/// socket did not take yet.
static inline int tilt_sd_bus_events_want_output(int events) {
  return events > 0 && (events & POLLOUT) != 0;
}

#endif
