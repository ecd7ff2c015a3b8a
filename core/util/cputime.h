#pragma once

namespace rwb::util {

// This process's CPU time so far, user and system, all threads together, in seconds
// (CLOCK_PROCESS_CPUTIME_ID). The difference of two readings is what a piece of work
// cost the machine, where wall time says only how long it took: two threads busy for a
// second are 2 CPU-seconds.
double processCpuSeconds();

} // namespace rwb::util
