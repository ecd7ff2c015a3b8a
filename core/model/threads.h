#pragma once

// How many CPU threads libtorch's products use, chosen from a measurement as
// `precision: "auto"` is (model/precision.h).
//
// A second intra-op thread is not always a gain: on a 2-core AMD EPYC Zen 3 with Debian's
// libtorch 1.13, a GRPO step of the tiny model took 6.66 s with 2 threads against 3.89 s
// with one (issue 39); with PyTorch's libtorch 2.13 on an Intel Xeon, 2 threads make the
// same step 1.6–1.7× faster and SFT 2×. So "every core" is decided per machine:
//   a count asked for (a config's "threads" > 0, --threads)   kept
//   $RWB_THREADS > 0                                            that many: several jobs share the cores
//   one core                                                    1
//   otherwise                                                   a timed check — a decoder layer's
//       products forward + backward at 1 thread and on every core — and every core when
//       that takes at most 0.8× the 1-thread time, else 1. Cached per CPU, core count and
//       libtorch in $XDG_CACHE_HOME/reward-workbench/threads.json.

#include <optional>
#include <string>

namespace rwb::model {

struct ThreadsTiming {
    double oneMs = 0.0; // the check's median milliseconds on 1 thread
    double allMs = 0.0; // and on every core
};

struct ThreadsChoice {
    int threads = 1;
    std::string reason; // one line: what was asked, what the machine has, what was chosen and why
};

// The rule above; pure, so that every branch is testable on any machine. `envThreads` is
// $RWB_THREADS (null or empty: not set; not a positive number: ignored).
ThreadsChoice chooseThreads(int requested, const char *envThreads, int cores, const std::optional<ThreadsTiming> &timing);

// chooseThreads on this machine, running (and caching) the timed check when the rule needs
// it. Thread-safe; the automatic choice is made once per process.
ThreadsChoice resolveThreads(int requested);

} // namespace rwb::model
