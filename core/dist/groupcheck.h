#pragma once

// `rwb dist check`: whether the processes of a group can meet and compute together, and
// how fast an all-reduce is between them. Without libtorch in this header.

#include <functional>
#include <string>
#include <vector>

namespace rwb::dist {

struct GroupCheckOptions {
    double megabytes = 64.0; // the all-reduced tensor's size (float32)
    int rounds = 10;         // all-reduces timed
    // Called on every rank after it joined and after each timed round (for progress).
    std::function<void(int rank, int round)> progress;
};

struct GroupCheck {
    int rank = 0;
    int worldSize = 1;
    std::vector<std::string> hosts; // each rank's "host pid N"
    bool sumCorrect = false;        // Σ (rank + 1) = n(n+1)/2 on every rank
    bool broadcastCorrect = false;  // rank 0's tensor arrived intact
    bool allReduceCorrect = false;  // every element of the timed tensor summed right
    double secondsPerAllReduce = 0.0;
    double algorithmGBps = 0.0;     // size / time
    double busGBps = 0.0;           // size / time · 2(n−1)/n (NCCL-tests' bus bandwidth)
};

// Joins the group the environment describes (dist/processgroup.h; a group of one when
// WORLD_SIZE is unset) and checks it. Throws DistError as ProcessGroup does.
GroupCheck checkGroup(const GroupCheckOptions &options);

} // namespace rwb::dist
