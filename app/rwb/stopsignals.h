#pragma once

namespace rwb::cli {

// SIGINT (Ctrl-C) and SIGTERM (kill, systemd, Docker, Slurm, a job scheduler's time
// limit) both ask a long command to stop at its next boundary: a GRPO step, an MCTS
// iteration. While an instance lives, the two signals only set a flag (a handler may not
// lock mutexes); the command polls it and stops the way it stops on its own, with the
// run marked stopped and its checkpoint written. The previous handlers come back when the
// instance goes. One instance at a time.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals &) = delete;
    StopSignals &operator=(const StopSignals &) = delete;

    // True once for each signal that arrived since the last call.
    bool takeRequest();
    // True when a signal has arrived since construction.
    bool requested() const;
    // The last signal's name ("SIGINT", "SIGTERM"), or "" before any.
    const char *lastSignal() const;
};

} // namespace rwb::cli
