// Built without the precompiled header and with USE_C10D_GLOO (core/CMakeLists.txt):
// ProcessGroupGloo.hpp needs the macro and Debian's libgloo-dev headers. Against a CUDA
// libtorch that has NCCL, also with USE_C10D_NCCL and RWB_WITH_NCCL: CUDA tensors are
// then summed and broadcast over ProcessGroupNCCL ($RWB_DIST_BACKEND=gloo keeps Gloo).
#include "dist/processgroup.h"

#include "data/jsonl.h"

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>
#ifdef RWB_WITH_NCCL
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

namespace rwb::dist {

namespace {

// What a collective runs on: c10d::Backend from libtorch 2.0 on (Gloo and NCCL derive from
// it), c10d::ProcessGroup before (Debian's 1.13).
#if TORCH_VERSION_MAJOR >= 2
using CollectiveGroup = c10d::Backend;
#else
using CollectiveGroup = c10d::ProcessGroup;
#endif

constexpr int64_t kBucketBytes = 25ll << 20;

std::string envOr(const char *name, const std::string &fallback)
{
    const char *v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

int64_t envInteger(const char *name, int64_t fallback, int64_t low, int64_t high)
{
    const char *v = std::getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = nullptr;
    const long long n = std::strtoll(v, &end, 10);
    if (*end != '\0' || n < low || n > high)
        throw data::InputException({std::string("$") + name, 0,
                                    "\"" + std::string(v) + "\" is not a whole number from " + std::to_string(low) +
                                        " to " + std::to_string(high)});
    return n;
}

std::string seconds(std::chrono::milliseconds ms)
{
    const double s = static_cast<double>(ms.count()) / 1000.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, s == static_cast<int64_t>(s) ? "%.0f s" : "%.1f s", s);
    return buf;
}

std::string rankKey(int rank)
{
    return "rwb/joined/" + std::to_string(rank);
}

} // namespace

std::optional<Rendezvous> rendezvousFromEnvironment()
{
    if (!std::getenv("WORLD_SIZE") || !*std::getenv("WORLD_SIZE"))
        return std::nullopt;
    Rendezvous r;
    r.worldSize = static_cast<int>(envInteger("WORLD_SIZE", 1, 1, 4096));
    r.rank = static_cast<int>(envInteger("RANK", 0, 0, r.worldSize - 1));
    r.masterAddr = envOr("MASTER_ADDR", "127.0.0.1");
    r.masterPort = static_cast<int>(envInteger("MASTER_PORT", 29500, 1, 65535));
    r.timeout = std::chrono::seconds(envInteger("RWB_DIST_TIMEOUT", 300, 1, 86400));
    return r;
}

// A listening TCP socket bound to `host`:`port` (the first address it resolves to).
// Throws std::runtime_error with the system's reason.
[[maybe_unused]] static int listenOn(const std::string &host, int port)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        throw std::runtime_error("cannot resolve " + host + ": " + ::gai_strerror(rc));
    std::string reason = "no address";
    for (addrinfo *a = found; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            reason = std::strerror(errno);
            continue;
        }
        const int yes = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 128) == 0) {
            ::freeaddrinfo(found);
            return fd;
        }
        reason = std::strerror(errno);
        ::close(fd);
    }
    ::freeaddrinfo(found);
    throw std::runtime_error("cannot listen on " + host + ":" + service + ": " + reason);
}

struct ProcessGroup::Impl {
    Rendezvous r;
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
    // CUDA tensors' collectives: NCCL where this build has it (made at the first CUDA
    // collective, which every rank reaches in the same order), else Gloo, which copies
    // them through the host.
    c10::intrusive_ptr<CollectiveGroup> cudaGroup;

    std::string where() const { return r.masterAddr + ":" + std::to_string(r.masterPort); }

    CollectiveGroup &groupFor(const at::Tensor &t)
    {
        if (!t.is_cuda())
            return *group;
#ifdef RWB_WITH_NCCL
        if (!cudaGroup && envOr("RWB_DIST_BACKEND", "nccl") == "nccl") {
            c10::cuda::set_device(t.device().index());
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = r.timeout;
            auto prefixed = c10::make_intrusive<c10d::PrefixStore>("rwb/nccl", store);
            try {
                cudaGroup = c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, r.rank, r.worldSize, options);
            } catch (const std::exception &e) {
                fail("NCCL set-up", e);
            }
        }
#endif
        return cudaGroup ? *cudaGroup : *group;
    }

    // Waits for a collective; a peer that stopped or hung becomes a DistError that says so.
    void wait(const c10::intrusive_ptr<c10d::Work> &work, const char *what,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(0))
    {
        const std::chrono::milliseconds limit = timeout.count() > 0 ? timeout : r.timeout;
        try {
            work->wait(limit);
        } catch (const std::exception &e) {
            fail(what, e, limit);
        }
    }

    [[noreturn]] void fail(const char *what, const std::exception &e,
                           std::chrono::milliseconds timeout = std::chrono::milliseconds(0))
    {
        const std::chrono::milliseconds limit = timeout.count() > 0 ? timeout : r.timeout;
        std::string message = e.what();
        if (const size_t nl = message.find('\n'); nl != std::string::npos)
            message.resize(nl); // c10's backtrace
        throw DistError("rank " + std::to_string(r.rank) + " of " + std::to_string(r.worldSize) + ": the " + what +
                        " failed: another process of the group stopped or cannot be reached, or took longer than " +
                        seconds(limit) + " (" + message + ")");
    }
};

ProcessGroup::ProcessGroup(const Rendezvous &rendezvous)
    : d(std::make_unique<Impl>())
{
    d->r = rendezvous;
    const Rendezvous &r = d->r;
    // A peer that stops mid-transfer makes the next write to its socket raise SIGPIPE,
    // which killed this rank (exit by signal 13) before the write could fail and the group
    // say which process stopped: tst_dist's rankKilledMidRun, 2 runs of about 10 under
    // load. Ignored for the process, every such write fails with EPIPE instead.
    std::signal(SIGPIPE, SIG_IGN);
    if (r.worldSize < 1 || r.rank < 0 || r.rank >= r.worldSize)
        throw DistError("rank " + std::to_string(r.rank) + " is not in a group of " + std::to_string(r.worldSize));
    c10d::TCPStoreOptions so;
    so.port = static_cast<std::uint16_t>(r.masterPort);
    so.isServer = r.rank == 0;
    so.waitWorkers = false; // the joining is checked below, naming who is missing
    so.timeout = r.timeout;
    try {
#if TORCH_VERSION_MAJOR >= 2
        // TCPStore's server listens on every interface, without authentication: rank 0
        // binds the socket itself, to MASTER_ADDR only, and hands it over. (Debian's
        // libtorch 1.13 has no masterListenFd: there it listens everywhere, docs/scale.md.)
        if (so.isServer)
            so.masterListenFd = listenOn(r.masterAddr, r.masterPort);
#endif
        d->store = c10::make_intrusive<c10d::TCPStore>(r.masterAddr, so);
    } catch (const std::exception &e) {
        std::string message = e.what();
        if (const size_t nl = message.find('\n'); nl != std::string::npos)
            message.resize(nl);
        if (r.rank == 0)
            throw DistError("rank 0 cannot serve the rendezvous at " + d->where() + " (MASTER_PORT in use?): " + message);
        throw DistError("rank " + std::to_string(r.rank) + " of " + std::to_string(r.worldSize) +
                        ": rank 0 did not answer at " + d->where() + " within " + seconds(r.timeout) + ": " + message);
    }
    // Everyone announces itself, then waits for the others (TCPStore's own wait would time
    // out without saying for whom).
    d->store->set(rankKey(r.rank), std::vector<uint8_t>{1});
    const auto deadline = std::chrono::steady_clock::now() + r.timeout;
    std::vector<int> missing;
    for (;;) {
        missing.clear();
        for (int k = 0; k < r.worldSize; ++k)
            if (!d->store->check({rankKey(k)}))
                missing.push_back(k);
        if (missing.empty() || std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!missing.empty()) {
        std::string ranks;
        for (size_t i = 0; i < missing.size(); ++i)
            ranks += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + std::to_string(missing[i]);
        throw DistError(std::string(missing.size() == 1 ? "rank " : "ranks ") + ranks + " of " +
                        std::to_string(r.worldSize) + " never joined" +
                        " the rendezvous at " + d->where() + " within " + seconds(r.timeout) +
                        " (is it started, with the same MASTER_ADDR, MASTER_PORT and WORLD_SIZE?)");
    }

    auto options = c10d::ProcessGroupGloo::Options::create(r.timeout);
    const std::string ifname = envOr("GLOO_SOCKET_IFNAME", "");
    try {
        if (!ifname.empty())
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
        else if (r.masterAddr == "127.0.0.1" || r.masterAddr == "localhost")
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        else
            options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        auto prefixed = c10::make_intrusive<c10d::PrefixStore>("rwb/gloo", d->store);
        d->group = c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, r.rank, r.worldSize, options);
    } catch (const std::exception &e) {
        d->fail("connection of the group's processes", e);
    }
}

ProcessGroup::~ProcessGroup() = default;

int ProcessGroup::rank() const
{
    return d->r.rank;
}

int ProcessGroup::worldSize() const
{
    return d->r.worldSize;
}

const Rendezvous &ProcessGroup::rendezvous() const
{
    return d->r;
}

void ProcessGroup::allReduceSum(const std::vector<at::Tensor> &tensors)
{
    if (d->r.worldSize == 1 || tensors.empty())
        return;
    // Buckets of one dtype, in order, up to kBucketBytes each (a larger tensor alone).
    size_t i = 0;
    while (i < tensors.size()) {
        const at::ScalarType type = tensors[i].scalar_type();
        std::vector<at::Tensor> bucket;
        int64_t bytes = 0;
        while (i < tensors.size() && tensors[i].scalar_type() == type &&
               (bucket.empty() || bytes + tensors[i].nbytes() <= static_cast<size_t>(kBucketBytes))) {
            bucket.push_back(tensors[i]);
            bytes += static_cast<int64_t>(tensors[i].nbytes());
            ++i;
        }
        // A lone contiguous tensor is reduced where it lies; a bucket goes through one
        // flat copy and back.
        const bool inPlace = bucket.size() == 1 && bucket[0].is_contiguous();
        std::vector<at::Tensor> flat;
        if (inPlace) {
            flat.push_back(bucket[0].view({-1}));
        } else {
            std::vector<at::Tensor> views;
            for (const at::Tensor &t : bucket)
                views.push_back(t.reshape({-1}));
            flat.push_back(at::cat(views));
        }
        d->wait(d->groupFor(flat[0]).allreduce(flat), "all-reduce");
        if (!inPlace) {
            int64_t offset = 0;
            for (const at::Tensor &t : bucket) {
                const int64_t n = t.numel();
                t.copy_(flat[0].narrow(0, offset, n).view(t.sizes()));
                offset += n;
            }
        }
    }
}

std::vector<double> ProcessGroup::sumValues(const std::vector<double> &values)
{
    if (d->r.worldSize == 1 || values.empty())
        return values;
    at::Tensor t = at::tensor(values, at::kDouble);
    allReduceSum({t});
    return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

void ProcessGroup::broadcast(const std::vector<at::Tensor> &tensors, int root)
{
    if (d->r.worldSize == 1)
        return;
    c10d::BroadcastOptions o;
    o.rootRank = root;
    for (const at::Tensor &t : tensors) {
        std::vector<at::Tensor> one{t.is_contiguous() ? t : t.contiguous()};
        d->wait(d->groupFor(one[0]).broadcast(one, o), "broadcast");
        if (!t.is_contiguous())
            t.copy_(one[0]);
    }
}

std::vector<std::string> ProcessGroup::allGather(const std::string &bytes)
{
    const int n = d->r.worldSize;
    if (n == 1)
        return {bytes};
    // The lengths first, then every rank's bytes padded to the longest.
    std::vector<double> lengths(static_cast<size_t>(n), 0.0);
    lengths[static_cast<size_t>(d->r.rank)] = static_cast<double>(bytes.size());
    lengths = sumValues(lengths);
    int64_t longest = 0;
    for (double l : lengths)
        longest = std::max(longest, static_cast<int64_t>(l));
    at::Tensor mine = at::zeros({std::max<int64_t>(longest, 1)}, at::kByte);
    if (!bytes.empty())
        std::memcpy(mine.data_ptr(), bytes.data(), bytes.size());
    std::vector<std::vector<at::Tensor>> outputs(1);
    for (int k = 0; k < n; ++k)
        outputs[0].push_back(at::empty_like(mine));
    std::vector<at::Tensor> inputs{mine};
    d->wait(d->group->allgather(outputs, inputs), "all-gather");
    std::vector<std::string> out;
    for (int k = 0; k < n; ++k)
        out.emplace_back(static_cast<const char *>(outputs[0][static_cast<size_t>(k)].data_ptr()),
                         static_cast<size_t>(lengths[static_cast<size_t>(k)]));
    return out;
}

std::string ProcessGroup::broadcastBytes(const std::string &bytes, int root, std::chrono::milliseconds timeout)
{
    if (d->r.worldSize == 1)
        return bytes;
    c10d::BroadcastOptions o;
    o.rootRank = root;
    if (timeout.count() > 0)
        o.timeout = timeout;
    std::vector<at::Tensor> length{at::full({1}, d->r.rank == root ? static_cast<int64_t>(bytes.size()) : 0, at::kLong)};
    d->wait(d->group->broadcast(length, o), "broadcast", timeout);
    const int64_t n = length[0].item<int64_t>();
    if (n == 0)
        return {};
    std::vector<at::Tensor> data{at::empty({n}, at::kByte)};
    if (d->r.rank == root)
        std::memcpy(data[0].data_ptr(), bytes.data(), static_cast<size_t>(n));
    d->wait(d->group->broadcast(data, o), "broadcast", timeout);
    return std::string(static_cast<const char *>(data[0].data_ptr()), static_cast<size_t>(n));
}

void ProcessGroup::barrier()
{
    if (d->r.worldSize == 1)
        return;
    d->wait(d->group->barrier(), "barrier");
}

} // namespace rwb::dist
