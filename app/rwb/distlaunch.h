#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rwb::cli {

// Runs a command as `nproc` processes of one group, as torchrun would on one machine:
// this process becomes rank 0, and ranks 1 … nproc−1 are started from the same program
// with `args` (the command line without --nproc) and RANK, WORLD_SIZE, MASTER_ADDR
// (127.0.0.1), MASTER_PORT (a free port), LOCAL_RANK and LOCAL_WORLD_SIZE in their environment, which this process takes
// too before `rank0` runs. A rank that exits with an error or is killed is reported on
// stderr as it happens ("rwb: rank 1 was killed by signal 9"); when rank 0 is done the
// others are waited for, and stopped if rank 0 failed. Returns rank 0's exit code, or 1
// when it succeeded and another rank did not.
int launchRanks(const std::vector<std::string> &args, int nproc, const std::function<int()> &rank0);

class Args;
// The --nproc option of a command that can start its own group: 1 when absent. Throws
// UsageError for a value that is not a whole number from 1 to 64, or > 1 while the
// environment already describes a group (WORLD_SIZE set).
int nprocOption(const Args &args);
// `argv` without the options `names` and their values ("--nproc 2").
std::vector<std::string> withoutOptions(const std::vector<std::string> &argv, const std::vector<std::string> &names);

} // namespace rwb::cli
