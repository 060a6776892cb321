#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// Number of malloc, calloc, realloc and aligned allocations made by this
/// process so far.
unsigned long malloc_counter_count(void);

#endif
