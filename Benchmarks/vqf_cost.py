"""Runs VQF's C++ batch update over BROAD trials, for callgrind to count:

    valgrind --tool=callgrind --toggle-collect='VQF::updateBatch*' \
        .venv/bin/python Benchmarks/vqf_cost.py CSV...

Prints the number of samples, to divide the instruction count by. The
trials are read first (numpy), so only updateBatch is counted.
"""

import json
import sys

import numpy as np
import vqf

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from compare_with_vqf import load  # noqa: E402

trials = [load(path) for path in sys.argv[1:]]
count = 0
for gyr, acc, _truth, _scored, ts, _times in trials:
    vqf.VQF(ts).updateBatch(gyr, acc)
    count += len(gyr)
print(json.dumps({"profiled_samples": count}))
