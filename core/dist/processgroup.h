#pragma once

// Several processes working as one over PyTorch's own distributed layer (c10d): they meet
// at a TCPStore (rank 0 serves it at MASTER_ADDR:MASTER_PORT, as torchrun arranges) and
// talk through ProcessGroupGloo on CPU. Data-parallel training sums gradients with
// allReduceSum, starts from rank 0's weights with broadcast and collects every rank's
// rollouts with allGather. Internal to core: it includes ATen's tensor type, never
// c10d's or Gloo's headers (processgroup.cpp alone does).

#include <ATen/core/Tensor.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rwb::dist {

// A process of the group stopped, never joined, or could not be reached; the message says
// which where it can be known.
struct DistError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Rendezvous {
    int rank = 0;
    int worldSize = 1;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    // How long rank 0 waits for the others to join, and each collective for its peers.
    std::chrono::milliseconds timeout = std::chrono::minutes(5);
};

// The group torchrun (or the user) describes in the environment: RANK, WORLD_SIZE,
// MASTER_ADDR (default 127.0.0.1), MASTER_PORT (default 29500), and RWB_DIST_TIMEOUT in
// seconds (default 300). nullopt when WORLD_SIZE is not set. Throws
// data::InputException naming the variable for a value that is not a number or out of
// range (RANK ≥ WORLD_SIZE).
std::optional<Rendezvous> rendezvousFromEnvironment();

class ProcessGroup {
public:
    // Joins the group: rank 0 serves the store; every rank announces itself and waits for
    // the others. Throws DistError naming the ranks that did not join within the timeout
    // ("rank 1 of 2 never joined the rendezvous at 127.0.0.1:29500 within 5 s"), a master
    // that does not answer, or a MASTER_PORT already in use.
    explicit ProcessGroup(const Rendezvous &rendezvous);
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup &) = delete;
    ProcessGroup &operator=(const ProcessGroup &) = delete;

    int rank() const;
    int worldSize() const;
    const Rendezvous &rendezvous() const;

    // Sums each tensor over the ranks, in place. Contiguous CPU tensors; flattened into
    // buckets of about 25 MB per dtype, so that many small gradients cost few messages.
    // Every rank passes tensors of the same shapes in the same order.
    void allReduceSum(const std::vector<at::Tensor> &tensors);
    // Sums of a few numbers (counts, metrics), in double precision.
    std::vector<double> sumValues(const std::vector<double> &values);
    // Every rank's tensors become `root`'s, in place.
    void broadcast(const std::vector<at::Tensor> &tensors, int root = 0);
    // Every rank's bytes, indexed by rank (any lengths).
    std::vector<std::string> allGather(const std::string &bytes);
    // `root`'s bytes on every rank (the others' argument is ignored). `timeout` (0: the
    // group's) bounds the wait: a rank that waits for its root's slow work (an evaluation,
    // a checkpoint) asks for longer; a peer that stopped is still seen at once.
    std::string broadcastBytes(const std::string &bytes, int root = 0,
                               std::chrono::milliseconds timeout = std::chrono::milliseconds(0));
    // Returns when every rank has called it.
    void barrier();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace rwb::dist
