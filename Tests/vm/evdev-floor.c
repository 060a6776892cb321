// The latency floor of scenario 8: the least a libevdev reader can do. Reads
// one evdev node with libevdev and writes one line per SYN_REPORT, the
// event's kernel time ("sec.usec"), to stdout as soon as it is read.
// SYN_DROPPED is resynchronised as libevdev documents. Built by Tests/vm/run:
//   gcc -O2 -o Tests/vm/cache/evdev-floor Tests/vm/evdev-floor.c $(pkg-config --cflags --libs libevdev)
// Usage: evdev-floor [--poll] /dev/input/eventN
// With --poll it reads as tilt-cli does: the node non-blocking, poll() until
// it is readable, then libevdev_next_event until -EAGAIN.
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_all(const char *buffer, size_t length) {
  while (length > 0) {
    ssize_t n = write(STDOUT_FILENO, buffer, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buffer += n;
    length -= (size_t)n;
  }
  return 0;
}

int main(int argc, char **argv) {
  int polls = argc == 3 && strcmp(argv[1], "--poll") == 0;
  if (argc != 2 + polls) {
    fprintf(stderr, "usage: evdev-floor [--poll] /dev/input/eventN\n");
    return 64;
  }
  const char *path = argv[1 + polls];
  int fd = open(path, O_RDONLY | O_CLOEXEC | (polls ? O_NONBLOCK : 0));
  if (fd < 0) {
    fprintf(stderr, "evdev-floor: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  struct libevdev *device = NULL;
  int rc = libevdev_new_from_fd(fd, &device);
  if (rc < 0) {
    fprintf(stderr, "evdev-floor: %s is not an evdev node: %s\n", path, strerror(-rc));
    return 1;
  }
  unsigned normal = LIBEVDEV_READ_FLAG_NORMAL | (polls ? 0 : LIBEVDEV_READ_FLAG_BLOCKING);
  unsigned flags = normal;
  for (;;) {
    struct input_event ev;
    rc = libevdev_next_event(device, flags, &ev);
    if (rc == LIBEVDEV_READ_STATUS_SYNC) {
      flags = LIBEVDEV_READ_FLAG_SYNC;
    } else if (rc == -EAGAIN && flags == LIBEVDEV_READ_FLAG_SYNC) {
      flags = normal;
      continue;
    } else if (rc == -EAGAIN && polls) {
      struct pollfd ready = {.fd = fd, .events = POLLIN};
      if (poll(&ready, 1, -1) < 0 && errno != EINTR) {
        fprintf(stderr, "evdev-floor: poll on %s failed: %s\n", path, strerror(errno));
        return 1;
      }
      continue;
    } else if (rc == -EINTR || rc == -EAGAIN) {
      continue;
    } else if (rc < 0) {
      fprintf(stderr, "evdev-floor: reading %s failed: %s\n", path, strerror(-rc));
      return 1;
    }
    if (ev.type == EV_SYN && ev.code == SYN_REPORT) {
      char line[48];
      int n = snprintf(line, sizeof line, "%ld.%06ld\n", (long)ev.input_event_sec, (long)ev.input_event_usec);
      if (write_all(line, (size_t)n) < 0) return 0;  // the reader closed the pipe
    }
  }
}
