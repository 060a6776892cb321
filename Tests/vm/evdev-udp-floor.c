// The latency floor of scenario 40: the least a DSU-like server can do. Reads
// one evdev node with libevdev (blocking) and sends one UDP datagram per
// SYN_REPORT to HOST:PORT carrying the event's kernel time (two little-endian
// int64: seconds, microseconds). SYN_DROPPED is resynchronised as libevdev
// documents. Built by Tests/vm/run:
//   gcc -O2 -o Tests/vm/cache/evdev-udp-floor Tests/vm/evdev-udp-floor.c $(pkg-config --cflags --libs libevdev)
// Usage: evdev-udp-floor /dev/input/eventN HOST PORT
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: evdev-udp-floor /dev/input/eventN HOST PORT\n");
    return 64;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "evdev-udp-floor: cannot open %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  struct libevdev *device = NULL;
  int rc = libevdev_new_from_fd(fd, &device);
  if (rc < 0) {
    fprintf(stderr, "evdev-udp-floor: %s is not an evdev node: %s\n", argv[1], strerror(-rc));
    return 1;
  }
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[3]))};
  if (inet_pton(AF_INET, argv[2], &to.sin_addr) != 1) {
    fprintf(stderr, "evdev-udp-floor: not an IPv4 address: %s\n", argv[2]);
    return 64;
  }
  int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0) {
    fprintf(stderr, "evdev-udp-floor: socket: %s\n", strerror(errno));
    return 1;
  }
  unsigned flags = LIBEVDEV_READ_FLAG_NORMAL | LIBEVDEV_READ_FLAG_BLOCKING;
  for (;;) {
    struct input_event ev;
    rc = libevdev_next_event(device, flags, &ev);
    if (rc == LIBEVDEV_READ_STATUS_SYNC) {
      flags = LIBEVDEV_READ_FLAG_SYNC;
    } else if (rc == -EAGAIN && flags == LIBEVDEV_READ_FLAG_SYNC) {
      flags = LIBEVDEV_READ_FLAG_NORMAL | LIBEVDEV_READ_FLAG_BLOCKING;
      continue;
    } else if (rc == -EINTR || rc == -EAGAIN) {
      continue;
    } else if (rc < 0) {
      fprintf(stderr, "evdev-udp-floor: reading %s failed: %s\n", argv[1], strerror(-rc));
      return 1;
    }
    if (ev.type == EV_SYN && ev.code == SYN_REPORT) {
      int64_t stamp[2] = {(int64_t)ev.input_event_sec, (int64_t)ev.input_event_usec};
      sendto(sock, stamp, sizeof stamp, 0, (struct sockaddr *)&to, sizeof to);
    }
  }
}
