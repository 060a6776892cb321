#!/usr/bin/env python3
"""Instructions per drawn frame of the terminal view, from a callgrind output
of `tilt-cli replay` (scripts/bench-terminal --callgrind).

The cost is everything the terminal sink does for frames: the inclusive
instructions of TerminalSink.show and TerminalSink.flush. The frames are the
calls those two make to the sink's drawing function (`redraw`, or `draw`
where the sink has one for a frame and keeps `redraw` for a full one).

usage: scripts/callgrind-frames.py CALLGRIND_OUT
"""
import re
import sys
from collections import defaultdict

names = {}


def name(ref):
    m = re.match(r"\((\d+)\)(?: (.*))?", ref)
    if not m:
        return ref
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), ref)


inclusive = defaultdict(int)
calls = defaultdict(int)  # (caller, callee) -> count
fn = None
cfn = None
pending_call = None
events = None
with open(sys.argv[1]) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            fn = name(line[3:])
        elif line.startswith("cfn="):
            cfn = name(line[4:])
        elif line.startswith("cfi=") or line.startswith("cfl="):
            pass
        elif line.startswith("calls="):
            pending_call = int(line.split()[0][6:])
            calls[(fn, cfn)] += pending_call
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            parts = line.split()
            cost = int(parts[1]) if len(parts) > 1 else 0
            if pending_call is not None:
                pending_call = None
                # inclusive cost of a call: counted for the caller, unless
                # the caller is itself (recursion)
                if cfn != fn:
                    inclusive[fn] += cost
            else:
                inclusive[fn] += cost

sink = [n for n in inclusive if re.search(r"12TerminalSinkC(4show|5flush)", n)]
if not sink:
    sys.exit("no TerminalSink.show/flush in the profile")
total = sum(inclusive[n] for n in sink)
draw = re.compile(r"12TerminalSinkC(6redraw|4draw)")
frames = sum(c for (a, b), c in calls.items() if a in sink and b and draw.search(b))
if frames == 0:
    sys.exit("no frames drawn (the drawing function was inlined?)")
print(f"callgrind 120x40 256: {total} instructions in the sink, {frames} frames drawn, "
      f"{total // frames} instructions a frame")
