#ifndef TILT_CEVDEV_SHIM_H
#define TILT_CEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#endif
