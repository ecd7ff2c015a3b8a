#include "dist/groupcheck.h"

#include "dist/processgroup.h"

#include <chrono>
#include <unistd.h>

namespace rwb::dist {

GroupCheck checkGroup(const GroupCheckOptions &options)
{
    const Rendezvous r = rendezvousFromEnvironment().value_or(Rendezvous{});
    ProcessGroup group(r);
    const int n = group.worldSize();
    GroupCheck out;
    out.rank = group.rank();
    out.worldSize = n;
    if (options.progress)
        options.progress(out.rank, 0);

    const std::vector<double> sum = group.sumValues({static_cast<double>(out.rank + 1)});
    out.sumCorrect = sum[0] == n * (n + 1) / 2.0;

    torch::Tensor b = out.rank == 0 ? torch::arange(1000, torch::kFloat64) * 0.5 : torch::zeros({1000}, torch::kFloat64);
    group.broadcast({b});
    out.broadcastCorrect = b.sum().item<double>() == 0.5 * 999.0 * 1000.0 / 2.0;

    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    out.hosts = group.allGather(std::string(host) + " pid " + std::to_string(::getpid()));

    const int64_t elements = std::max<int64_t>(1, static_cast<int64_t>(options.megabytes * (1 << 20) / 4.0));
    torch::Tensor t = torch::empty({elements}, torch::kFloat32);
    out.allReduceCorrect = true;
    double total = 0.0;
    for (int round = 1; round <= std::max(1, options.rounds); ++round) {
        t.fill_(static_cast<float>(out.rank + 1));
        group.barrier();
        const auto start = std::chrono::steady_clock::now();
        group.allReduceSum({t});
        total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const float expected = static_cast<float>(n * (n + 1) / 2);
        out.allReduceCorrect = out.allReduceCorrect && (t == expected).all().item<bool>();
        if (options.progress)
            options.progress(out.rank, round);
    }
    out.secondsPerAllReduce = total / std::max(1, options.rounds);
    const double gb = static_cast<double>(elements) * 4.0 / 1e9;
    out.algorithmGBps = n > 1 && out.secondsPerAllReduce > 0 ? gb / out.secondsPerAllReduce : 0.0; // nothing moves in a group of one
    out.busGBps = out.algorithmGBps * 2.0 * (n - 1) / n;
    group.barrier();
    return out;
}

} // namespace rwb::dist
