#include "store/storetypes.h"

namespace rwb::store {

const char *toString(RunKind kind)
{
    switch (kind) {
    case RunKind::Sft: return "sft";
    case RunKind::Grpo: return "grpo";
    case RunKind::Eval: return "eval";
    case RunKind::Mcts: return "mcts";
    case RunKind::External: return "external";
    }
    return "grpo";
}

const char *toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Failed: return "failed";
    case RunStatus::Stopped: return "stopped";
    }
    return "failed";
}

} // namespace rwb::store
