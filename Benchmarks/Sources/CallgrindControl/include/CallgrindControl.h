#ifndef CALLGRIND_CONTROL_H
#define CALLGRIND_CONTROL_H

/// Starts callgrind's instrumentation when the process runs under
/// `valgrind --tool=callgrind --instr-atstart=no`; does nothing otherwise
/// (or when valgrind's headers were missing at build time).
void callgrind_start_instrumentation(void);
/// Stops it again, so that only the code in between is counted.
void callgrind_stop_instrumentation(void);

#endif
