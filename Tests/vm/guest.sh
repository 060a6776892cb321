#!/bin/bash
# Runs inside the test machine, chrooted into the host's root (see Tests/vm/init).
# The root is read-only: everything written goes to Tests/vm/work or /tmp.
cd "$TILT_ROOT" || exit 1
echo "vm-guest: kernel $(uname -r), $(nproc) CPUs"
ls -l /dev/uinput
grep -E "^N:" /proc/bus/input/devices
timeout --kill-after=5 480 /usr/bin/python3 -u Tests/vm/scenarios.py \
  --cli "${TILT_CLI:-.build/release/tilt-cli}" --work Tests/vm/work --only "${TILT_ONLY:-all}"
