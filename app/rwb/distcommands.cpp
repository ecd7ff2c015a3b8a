// rwb dist: the processes of a data-parallel group (c10d over Gloo) on one or several machines.
#include "cli.h"
#include "commands.h"
#include "distlaunch.h"

#include "dist/groupcheck.h"
#include "dist/processgroup.h"

#include <iostream>
#include <unistd.h>

namespace rwb::cli {

namespace {

const char *const kDistHelp = R"HELP(rwb dist — the processes of a data-parallel group

Usage: rwb dist check [--nproc N] [--megabytes M] [--rounds K]

  check   joins the group, checks a sum, a broadcast and a gather across its processes,
          and times an all-reduce of M megabytes (float32). Run it before a long
          multi-process run: it fails the way the run would, but in seconds.

The group: either --nproc N (N processes on this machine, started here), or one process
per rank started by you or by torchrun with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT
set (rank 0 serves the rendezvous at MASTER_ADDR:MASTER_PORT). RWB_DIST_TIMEOUT (seconds,
default 300) bounds the wait for a rank to join and for each collective; GLOO_SOCKET_IFNAME
names the network interface to use between machines. See docs/scale.md.

  --nproc N       start N processes on this machine (default: the environment's group,
                  or a group of one)
  --megabytes M   the all-reduced tensor's size (default 64)
  --rounds K      all-reduces timed (default 10)

Rank 0 prints {"world_size", "hosts", "sum_ok", "broadcast_ok", "allreduce_ok",
"megabytes", "rounds", "seconds_per_allreduce", "algorithm_gb_per_s", "bus_gb_per_s"};
every rank says on stderr when it has joined. Exit 1 when a check fails or a rank stops.
)HELP";

int check(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"nproc", "megabytes", "rounds"}, {"help"}});
    if (args.has("help")) {
        std::cout << kDistHelp;
        return kExitOk;
    }
    const int nproc = nprocOption(args);
    dist::GroupCheckOptions o;
    o.megabytes = args.number("megabytes", 64);
    o.rounds = static_cast<int>(args.number("rounds", 10));
    if (o.megabytes <= 0 || o.rounds < 1)
        throw UsageError{"--megabytes and --rounds must be positive"};
    o.progress = [](int rank, int round) {
        if (round == 0) {
            // One write: the ranks share a terminal or a pipe, and pieces would interleave.
            const std::string line = "rwb dist: rank " + std::to_string(rank) + " joined\n";
            [[maybe_unused]] const ssize_t n = ::write(2, line.data(), line.size());
        }
    };
    auto body = [&]() -> int {
        const dist::GroupCheck c = dist::checkGroup(o);
        if (c.rank != 0)
            return c.sumCorrect && c.broadcastCorrect && c.allReduceCorrect ? kExitOk : kExitFailure;
        nlohmann::ordered_json j;
        j["world_size"] = c.worldSize;
        j["hosts"] = c.hosts;
        j["sum_ok"] = c.sumCorrect;
        j["broadcast_ok"] = c.broadcastCorrect;
        j["allreduce_ok"] = c.allReduceCorrect;
        j["megabytes"] = o.megabytes;
        j["rounds"] = o.rounds;
        j["seconds_per_allreduce"] = c.secondsPerAllReduce;
        j["algorithm_gb_per_s"] = c.algorithmGBps;
        j["bus_gb_per_s"] = c.busGBps;
        std::cout << j.dump() << std::endl;
        return c.sumCorrect && c.broadcastCorrect && c.allReduceCorrect ? kExitOk : kExitFailure;
    };
    const auto guardedBody = [&] { return guarded("dist check", body); };
    if (nproc > 1) {
        std::vector<std::string> childArgs{"dist", "check"};
        for (const std::string &a : withoutOptions(argv, {"--nproc"}))
            childArgs.push_back(a);
        return launchRanks(childArgs, nproc, guardedBody);
    }
    return guardedBody();
}

} // namespace

int distCommand(const std::vector<std::string> &args)
{
    return dispatch("dist", kDistHelp, args, {{"check", check}});
}

} // namespace rwb::cli
