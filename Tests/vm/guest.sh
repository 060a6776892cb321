#!/bin/bash
# Runs inside the test machine, chrooted into the host's root (see Tests/vm/init),
# with the project directory at $TILT_ROOT. Both are read-only: everything
# written goes to Tests/vm/work or /tmp. The scenarios run in the Python
# environment that Tests/vm/run made (Debian's python3 with hid-tools).
cd "$TILT_ROOT" || exit 1
echo "vm-guest: kernel $(uname -r), $(nproc) CPUs, project at $TILT_ROOT"
ls -l /dev/uinput /dev/uhid
grep -E "^N:" /proc/bus/input/devices
timeout --kill-after=5 "${TILT_GUEST_TIMEOUT:-900}" Tests/vm/cache/venv/bin/python3 -u Tests/vm/scenarios.py \
  --cli "${TILT_CLI:-.build/release/tilt-cli}" --cli-before "${TILT_CLI_BEFORE:-}" --work Tests/vm/work \
  --only "${TILT_ONLY:-all}"
