#include "CallgrindControl.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

void callgrind_start_instrumentation(void) {
#ifdef HAVE_CALLGRIND
  CALLGRIND_START_INSTRUMENTATION;
#endif
}

void callgrind_stop_instrumentation(void) {
#ifdef HAVE_CALLGRIND
  CALLGRIND_STOP_INSTRUMENTATION;
#endif
}
